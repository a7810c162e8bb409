"""The demo agent's ACP v2 scenarios through LSP: the real sidecar with ``--protocol-version 2``
and the scripted agent (which then writes files and runs commands itself, as v2 has no client fs
or terminals), seen by a rich editor and by one with no plugin; schema 1.25's one tool call or
terminal cancelled (``acp/cancelToolCall``, ``acp/cancelTerminal`` and their commands) and
background work."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.demo_agent.turn.prompt_turn import PERMISSION_DESCRIPTION
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.support.lsp import EGLOT_1_9, session_mirror, wait_until

V2 = ("--protocol-version", "2")
ASKED_TITLE = "Allow the edit of hello.py?"
"""The demo's v2 question about its edit, worded apart from the tool call ("Edit hello.py")."""
ALL = list(proto.FEATURES)


def mirror(editor: Any, session_id: str) -> dict[str, Any]:
    return session_mirror(editor.of(proto.ACP_SESSION_CHANGED), session_id, 2)


async def test_a_v2_turn_in_a_rich_editor(editor_factory: StartEditor, workspace: Path) -> None:
    editor = await editor_factory(features=ALL, server_args=V2, agent_flags=("--wait-seconds", "1"))
    first = asyncio.ensure_future(
        editor.request(proto.ACP_PROMPT, {"prompt": "wait plan edit shell"})
    )
    await wait_until(
        lambda: any(
            c["type"] == "run_state"
            for n in editor.of(proto.ACP_SESSION_CHANGED)
            for c in n["changes"]
        )
    )
    # Sent while the agent works: queued, and it ends with the same work.
    second = await editor.request(proto.ACP_PROMPT, {"prompt": "stream"})
    result = await first
    assert result["stopReason"] == second["stopReason"] == "end_turn"
    sid = result["sessionId"]
    snapshot = (await editor.request(proto.ACP_SNAPSHOT, {"sessionId": sid}))["sessions"][0]
    assert mirror(editor, sid) == snapshot  # the new change types rebuild the server's state
    assert snapshot["protocolVersion"] == 2
    assert snapshot["runState"] == {"state": "idle", "stopReason": "end_turn"}
    users = [e for e in snapshot["entries"] if e.get("role") == "user"]
    assert [u["content"][-1]["text"] for u in users] == ["wait plan edit shell", "stream"]
    assert all(u["messageId"] and "queued" not in u for u in users)
    entered = [
        c["entry"]
        for n in editor.of(proto.ACP_SESSION_CHANGED)
        for c in n["changes"]
        if c["type"] == "entry" and c["entry"].get("role") == "user"
    ]
    assert [e.get("queued", False) for e in entered] == [False, True]
    assert snapshot["plans"]["plan_demo"]["entries"][-1]["status"] == "completed"
    (asked,) = editor.asked
    # The question in the agent's words, the tool call as the state knows it (its own title).
    assert (asked["title"], asked["description"]) == (ASKED_TITLE, PERMISSION_DESCRIPTION)
    assert asked["toolCall"]["title"] == "Edit hello.py"
    # The diff came as changes + git_patch: previewed with whole texts all the same.
    assert asked["diffs"][0]["oldText"] == HELLO
    assert asked["diffs"][0]["newText"] == HELLO + EDIT_LINE
    previews = [d for d in editor.of(proto.ACP_DIFF) if d["path"].endswith("hello.py")]
    assert previews and previews[0]["newText"] == HELLO + EDIT_LINE
    # The agent wrote the file and ran the command itself: both still reach the editor.
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE
    output = "".join(n["data"] for n in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "hello from the demo agent" in output
    assert editor.of(proto.ACP_TERMINAL_EXIT)[0]["exitStatus"]["exitCode"] == 0
    await wait_until(lambda: bool(editor.of(proto.ACP_REVIEW_CHANGED)))
    hunks = [h for n in editor.of(proto.ACP_REVIEW_CHANGED) for h in n["hunks"]]
    assert any(h["path"].endswith("hello.py") for h in hunks)


async def test_a_v2_turn_in_an_editor_with_no_plugin(editor_factory: StartEditor) -> None:
    editor = await editor_factory(capabilities=EGLOT_1_9, server_args=V2)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert result["reply"] == "Done: edit."
    (asked,) = editor.asked
    # The request's title and description first, then the tool call's own title, then the diff.
    lines = asked["message"].splitlines()
    assert lines[:3] == [
        f"The agent asks permission: {ASKED_TITLE}",
        PERMISSION_DESCRIPTION,
        "Edit hello.py [edit]",
    ], asked["message"]
    assert "modify " in lines[3] and "hello.py" in lines[3]


def tool_calls(editor: Any, session_id: str) -> dict[str, Any]:
    calls: dict[str, Any] = mirror(editor, session_id)["toolCalls"]
    return calls


async def test_a_rich_editor_cancels_one_tool_call_and_one_terminal(
    editor_factory: StartEditor,
) -> None:
    """Schema 1.25's v2: ``acp/cancelToolCall`` while the tool call advertises it (the turn
    goes on), ``acp/cancelTerminal`` of a command left running in the background (listed in
    the idle run state until its exit); each refused (-32602) once it is over."""
    editor = await editor_factory(
        features=ALL, server_args=V2, agent_flags=("--wait-seconds", "60")
    )
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    turn = asyncio.ensure_future(
        editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "wait background"})
    )
    await wait_until(lambda: any("capabilities" in c for c in tool_calls(editor, sid).values()))
    (call_id,) = tool_calls(editor, sid)
    cancel_call = {"sessionId": sid, "toolCallId": call_id}
    assert await editor.request(proto.ACP_CANCEL_TOOL_CALL, cancel_call) == {}
    result = await asyncio.wait_for(turn, 30)  # long before the 60 s wait would end
    assert result["stopReason"] == "end_turn"
    assert tool_calls(editor, sid)[call_id]["status"] == "cancelled"
    snapshot = (await editor.request(proto.ACP_SNAPSHOT, {"sessionId": sid}))["sessions"][0]
    assert mirror(editor, sid) == snapshot
    (work,) = snapshot["runState"]["background"]  # the command goes on after the turn
    assert work["type"] == "terminal"
    cancel_terminal = {"sessionId": sid, "terminalId": work["terminalId"]}
    assert await editor.request(proto.ACP_CANCEL_TERMINAL, cancel_terminal) == {}
    await wait_until(lambda: bool(editor.of(proto.ACP_TERMINAL_EXIT)))
    (exit_,) = editor.of(proto.ACP_TERMINAL_EXIT)
    assert exit_["terminalId"] == work["terminalId"]
    assert exit_["exitStatus"] == {"exitCode": None, "signal": "SIGTERM"}
    await wait_until(lambda: mirror(editor, sid)["runState"].get("background") == [])
    for method, params in (
        (proto.ACP_CANCEL_TOOL_CALL, cancel_call),
        (proto.ACP_CANCEL_TERMINAL, cancel_terminal),
    ):
        with pytest.raises(JsonRpcException) as refused:
            await editor.request(method, params)
        assert refused.value.code == -32602


async def test_an_editor_with_no_plugin_hears_of_background_work_and_stops_it(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(
        capabilities=EGLOT_1_9, server_args=V2, agent_flags=("--wait-seconds", "60")
    )
    result = await editor.command("acp.prompt", "background")
    (named,) = result["background"]
    assert named.startswith("Run `echo working in the background")
    said = [m.message for m in editor.client.messages if "turn ended" in m.message]
    assert said and f"; still running in the background: {named}; undo this turn" in said[-1]
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    (work,) = snapshot["sessions"][0]["runState"]["background"]
    stopped = await editor.command("acp.cancelTerminal", work["terminalId"])
    assert stopped == {"sessionId": result["sessionId"], "terminalId": work["terminalId"]}
    with pytest.raises(JsonRpcException):  # a tool call that offers no cancel: refused
        await editor.command("acp.cancelToolCall", "call_unknown")
