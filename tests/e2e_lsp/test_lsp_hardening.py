"""Hostile and broken peers on both sides of the sidecar, through the real LSP server."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import session_mirror, wait_until

MISBEHAVING = [sys.executable, str(Path(__file__).parents[1] / "agents" / "misbehaving.py")]


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


async def test_a_flood_of_100k_updates_is_coalesced_and_loses_nothing(
    editor_factory: StartEditor,
) -> None:
    count = 100_000
    editor = await editor_factory(
        agent=[*MISBEHAVING, "--mode", "flood", "--count", str(count)], features=["stream"]
    )
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "go"})
    server = editor.client._server
    assert server is not None
    peak = peak_rss_mb(server.pid)
    notes = editor.of(proto.ACP_SESSION_CHANGED)
    mirror = session_mirror(notes, result["sessionId"])
    snapshot = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    assert mirror == snapshot
    assert len(snapshot["toolCalls"]) == count // 10
    text = "".join(
        b["text"] for e in snapshot["entries"] if e.get("role") == "agent" for b in e["content"]
    )
    assert text == "".join(f"<{i}>" for i in range(count) if i % 10 != 9)
    assert len(notes) < count // 50  # coalesced, not one notification per update
    print(f"\nflood of {count} updates: {len(notes)} notifications, sidecar peak RSS {peak:.0f} MB")
    assert peak < 400


async def test_agent_crash_withdraws_the_editors_question_and_fails_the_command(
    editor_factory: StartEditor,
) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    editor = await editor_factory(
        agent=[*MISBEHAVING, "--mode", "crash"], answer_permission=lambda _p: never
    )
    with pytest.raises(JsonRpcException, match="exited with code 3"):
        await asyncio.wait_for(editor.command("acp.prompt", "go"), 15)
    await wait_until(lambda: bool(editor.withdrawn))  # $/cancelRequest for the open dialog
    await wait_until(lambda: any("exit status 3" in m.message for m in editor.client.messages))
    message = next(m for m in editor.client.messages if "exit status 3" in m.message)
    assert "the model went away" in message.message  # the tail of its stderr


@pytest.mark.parametrize(
    "answer", ["Allow", 42, {"title": "Something else"}, {"optionId": "forged"}]
)
async def test_unexpected_answers_to_a_permission_reject(
    editor_factory: StartEditor, workspace: Path, answer: Any
) -> None:
    editor = await editor_factory(answer_permission=lambda _p: answer)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO


async def test_document_closed_in_the_middle_of_a_write(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(features=["stream"])
    uri = editor.open("hello.py", HELLO + "# unsaved\n")

    def close_then_refuse(params: dict[str, Any]) -> dict[str, Any]:
        editor.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
        )
        return {"applied": False, "failureReason": "the document was closed"}

    editor.client.protocol.fm.features.pop(lsp.WORKSPACE_APPLY_EDIT, None)
    editor.client.feature(lsp.WORKSPACE_APPLY_EDIT)(close_then_refuse)
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "edit"})
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO  # the disk was not clobbered
    changes = [c for n in editor.of(proto.ACP_SESSION_CHANGED) for c in n["changes"]]
    failed = [c for c in changes if c["type"] == "tool_call" and c["set"].get("status") == "failed"]
    assert failed and "the document was closed" in str(failed[-1])
