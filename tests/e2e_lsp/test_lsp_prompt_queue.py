"""A v1 agent on the real server: a prompt sent while a turn runs waits in the server, shown
``queued`` to the editor; it can be edited or withdrawn (``acp/editPrompt``,
``acp/withdrawPrompt``) and goes when the turn before it ends, a cancelled one too."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor


async def entries(editor: Editor) -> list[dict[str, Any]]:
    snapshot = await editor.request("acp/snapshot", {})
    return list(snapshot["sessions"][0]["entries"]) if snapshot["sessions"] else []


async def until(editor: Editor, check: Callable[[list[dict[str, Any]]], bool]) -> None:
    """Ask for the transcript until ``check`` holds (10 s at most): the server's own schedule."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not check(await entries(editor)):
        assert loop.time() < deadline, "timed out waiting for the transcript"


async def queued_behind_a_turn(editor: Editor) -> tuple[asyncio.Future[Any], asyncio.Future[Any]]:
    """A turn that waits ("wait": until cancelled), and a prompt sent during it."""
    first = asyncio.ensure_future(editor.request("acp/prompt", {"prompt": "wait"}))
    await until(editor, lambda now: any(e["kind"] == "toolCall" for e in now))
    second = asyncio.ensure_future(editor.request("acp/prompt", {"prompt": "hello"}))
    await until(editor, lambda now: any(e.get("queued") for e in now))
    return first, second


async def test_an_edited_prompt_waits_and_goes_after_a_cancelled_turn(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(features=["stream"])
    first, second = await queued_behind_a_turn(editor)
    now = await entries(editor)
    (index,) = [i for i, e in enumerate(now) if e.get("queued")]
    sid = (await editor.request("acp/snapshot", {}))["currentSessionId"]
    await editor.request("acp/editPrompt", {"sessionId": sid, "index": index, "prompt": "hi"})
    assert (await entries(editor))[index]["content"] == [{"type": "text", "text": "hi"}]

    await editor.request("acp/cancel", {"sessionId": sid})  # keeps what waits
    assert (await first)["stopReason"] == "cancelled"
    assert (await second)["stopReason"] == "end_turn"
    sent = (await entries(editor))[index]
    assert "queued" not in sent and sent["content"] == [{"type": "text", "text": "hi"}]
    assert sent["waitedUntil"] > index  # it reads after the cancelled turn's entries
    # ↑ recalls what went to the agent: the edited text, not the one first typed.
    assert (await editor.request("acp/promptHistory", {}))["prompts"] == ["wait", "hi"]


async def test_a_withdrawn_prompt_is_dropped_and_answers_cancelled(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(features=["stream"])
    first, second = await queued_behind_a_turn(editor)
    (index,) = [i for i, e in enumerate(await entries(editor)) if e.get("queued")]
    sid = (await editor.request("acp/snapshot", {}))["currentSessionId"]
    await editor.request("acp/withdrawPrompt", {"sessionId": sid, "index": index})
    assert (await second)["stopReason"] == "cancelled"
    await editor.request("acp/cancel", {"sessionId": sid, "dropQueued": True})
    assert (await first)["stopReason"] == "cancelled"
    dropped = (await entries(editor))[index]
    assert dropped.get("dropped") is True and "queued" not in dropped
    assert len([e for e in await entries(editor) if e.get("role") == "user"]) == 2
    # A withdrawn prompt was never sent: ↑ never recalls it, the transcript says so.
    assert (await editor.request("acp/promptHistory", {}))["prompts"] == ["wait"]
    written = Path((await editor.command("acp.transcript"))["path"]).read_text()
    assert "hello\n\n_Not sent: removed, or dropped with a cancel, before its turn._" in written
