"""What a user of an editor with no plugin reads of a turn: the reply in the ``acp.prompt``
result and in a message, ``acp.promptAsync`` for editors whose requests time out, and the live
transcript file (recorded capabilities of Emacs's eglot, VS Code and Neovim)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.test_lsp_lifecycle import cmdline, procs_of_parent
from tests.support.lsp import EGLOT_1_9, VSCODE, allow_once, wait_until

EMACS = EGLOT_1_9  # no window capabilities at all


def texts(messages: list[Any]) -> list[str]:
    return [m.message for m in messages]


async def test_prompt_answers_with_the_reply_and_shows_it_to_a_plain_editor(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(capabilities=EMACS)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert result["reply"] == "Done: edit."
    assert result["toolCalls"] == [{"title": "Edit hello.py", "status": "completed"}]
    (shown,) = [t for t in texts(editor.client.messages) if "Done: edit." in t]
    assert "turn ended: end_turn" in shown and "Edit hello.py (completed)" in shown


async def test_a_rich_editor_gets_the_reply_in_the_result_but_no_message(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(features=["stream"])
    result = await editor.command("acp.prompt", "stream")
    assert result["reply"].endswith("Done: stream.")
    assert not [t for t in texts(editor.client.messages) if "Done: stream." in t]


async def test_prompt_async_answers_at_once_and_announces_the_end(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(capabilities=EMACS, agent_flags=("--wait-seconds", "3"))
    began = time.monotonic()
    started = await editor.command("acp.promptAsync", "wait")
    assert started["started"] is True and started["sessionId"]
    assert time.monotonic() - began < 2.5, "answered before the 3 s turn ended"
    assert not [t for t in texts(editor.client.messages) if "Done: wait." in t]
    await wait_until(lambda: any("Done: wait." in t for t in texts(editor.client.messages)), 15)
    (shown,) = [t for t in texts(editor.client.messages) if "Done: wait." in t]
    assert "turn ended: end_turn" in shown and "Wait 3 s (cancel me) (completed)" in shown


async def test_prompt_async_without_an_agent_is_an_error_at_once(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(capabilities=EMACS, agent=["/nonexistent/agent"])
    with pytest.raises(JsonRpcException, match="not found"):
        await editor.command("acp.promptAsync", "hi")


async def test_a_turn_that_fails_after_an_async_prompt_is_announced_as_an_error(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(capabilities=EMACS, agent_flags=("--wait-seconds", "30"))
    await editor.command("acp.promptAsync", "wait")
    server_pid = editor.client._server.pid  # type: ignore[union-attr]
    (agent_pid,) = [p for p in procs_of_parent(server_pid) if b"scripted" in cmdline(p)]
    os.killpg(agent_pid, signal.SIGKILL)
    await wait_until(lambda: any("the turn failed" in t for t in texts(editor.client.messages)))
    (failed,) = [m for m in editor.client.messages if "the turn failed" in m.message]
    assert failed.type.name == "Error"


async def test_the_transcript_is_a_read_only_file_outside_the_workspace_kept_live(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    editor = await editor_factory(
        capabilities=VSCODE,  # declares window/showDocument
        agent_flags=("--wait-seconds", "30"),
        env={**os.environ, "ACP_EDITOR_STATE_DIR": str(state)},
    )
    opened = await editor.command("acp.transcript")
    path = Path(opened["path"])
    assert path.is_relative_to(state) and not path.is_relative_to(workspace)
    assert stat.S_IMODE(path.stat().st_mode) & 0o222 == 0, "read-only"
    shown: list[dict[str, Any]] = editor.client.shown_documents  # type: ignore[assignment]
    await wait_until(lambda: any(d["uri"] == opened["uri"] for d in shown))

    await editor.command("acp.promptAsync", "stream wait")
    # While the turn still waits, the file already holds the prompt and the streamed reply.
    await wait_until(lambda: "Wait 30 s (cancel me) (in_progress)" in path.read_text(), 15)
    text = path.read_text()
    assert "## You\n\nstream wait" in text and "## Agent" in text
    assert "> The user wants to see streaming." in text  # the thought, quoted
    assert "Here is a streamed answer." in text
    await editor.command("acp.cancel")
    await wait_until(
        lambda: "(cancel me) (" in path.read_text() and "(in_progress)" not in path.read_text(), 15
    )


async def test_shutdown_right_after_an_async_prompt_ends_everything(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(capabilities=EMACS, agent_flags=("--wait-seconds", "30"))
    await editor.command("acp.promptAsync", "wait")
    await asyncio.wait_for(editor.close(), 10)


async def test_without_show_document_or_progress_the_log_says_where_the_agent_is(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(capabilities=EMACS)
    await editor.command("acp.prompt", "read")
    path = workspace / "hello.py"
    await wait_until(lambda: any(str(path) in m.message for m in editor.client.log_messages))
    logged = [m.message for m in editor.client.log_messages if m.message.startswith("acp-editor:")]
    assert f"acp-editor: the agent is at {path}:1 (location)" in logged
    assert "acp-editor: Read hello.py (lines 1-20) (in_progress)" in logged
    assert "acp-editor: Read hello.py (lines 1-20) (completed)" in logged
    assert not editor.client.shown_documents and not editor.client.progress_reports


async def test_each_sessions_transcript_by_its_id_and_a_plugin_opens_it_itself(
    editor_factory: StartEditor,
) -> None:
    """The zero-plugin path lists (acp.status), starts (acp.newSession) and switches
    (acp.selectSession) sessions; each one's transcript comes by its id. An editor with a plugin
    (a rich feature declared) opens the file itself: no window/showDocument for it."""
    editor = await editor_factory(capabilities=VSCODE, features=["stream"])
    one = (await editor.command("acp.newSession"))["sessionId"]
    await editor.command("acp.prompt", "hello from the first")
    two = (await editor.command("acp.newSession"))["sessionId"]
    assert set((await editor.command("acp.status"))["sessions"]) == {one, two}
    first = await editor.command("acp.transcript", one)
    assert first["sessionId"] == one
    assert "hello from the first" in Path(first["path"]).read_text()
    assert (await editor.command("acp.transcript"))["sessionId"] == two  # the one in front
    assert editor.client.shown_documents == []


def undo_args(message: str) -> list[Any]:
    """The arguments of the undo command a turn's end message names."""
    found = re.search(r"undo this turn: acp\.restoreCheckpoint (\[[^\]]*\])\]$", message)
    assert found is not None, message
    args: list[Any] = json.loads(found.group(1))
    return args


async def test_a_turns_end_says_how_to_undo_it_and_names_its_session_when_several_are_live(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """A plain editor learns the turn's number from its end (it has no acp/snapshot); with two
    sessions live, the question and the end name the session and the agent, and the undo
    command names the session, so it works from any session in front."""

    def answer(params: dict[str, Any]) -> Any:
        if params["message"].startswith("Undo turn"):  # the undo's own question: yes
            return next(a for a in params["actions"] if a["title"].startswith("Undo turn"))
        return allow_once(params)

    editor = await editor_factory(capabilities=EMACS, answer_permission=answer)
    first = await editor.command("acp.prompt", "edit")
    (ended,) = [t for t in texts(editor.client.messages) if "turn ended" in t]
    assert ended.endswith(f"; undo this turn: acp.restoreCheckpoint [{first['turn']}]]")
    assert "session" not in ended  # one session: as short as before
    (question,) = editor.asked
    assert question["message"].startswith("The agent asks permission: ")
    after_first = (workspace / "hello.py").read_text()

    second = (await editor.command("acp.newSession"))["sessionId"]
    result = await editor.command("acp.prompt", "edit again")
    named = "session “edit again” (acp-editor demo agent)"
    assert editor.asked[-1]["message"].startswith(f"{named[:1].upper()}{named[1:]}: The agent")
    ended = [t for t in texts(editor.client.messages) if "turn ended" in t][-1]
    assert f"[acp-editor: {named}: turn ended: end_turn" in ended
    assert undo_args(ended) == [result["turn"], False, second]
    assert (workspace / "hello.py").read_text() != after_first

    await editor.command("acp.selectSession", first["sessionId"])
    undone = await editor.command("acp.restoreCheckpoint", *undo_args(ended))
    assert (undone["sessionId"], undone["done"]) == (second, True)
    assert (workspace / "hello.py").read_text() == after_first  # the second session's edit
