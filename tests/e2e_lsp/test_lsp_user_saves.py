"""The user saves a file while the agent works: every disk change during a turn is looked at
for review, but a save is the user's (the editor says so with ``didSave``), never a hunk of the
agent's that a reject would take back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import wait_until

TYPED = "# typed and saved while the agent works\n"


async def test_a_save_during_a_turn_is_not_the_agents_change(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(capabilities="neovim", agent_flags=("--wait-seconds", "60"))
    sync = editor.init_result.capabilities.text_document_sync
    assert sync is not None and getattr(sync, "save", None), "didSave is asked for"
    editor.open("hello.py", HELLO)
    turn = asyncio.ensure_future(editor.command("acp.prompt", "wait"))

    def waiting() -> bool:  # the turn's checkpoint is taken: the agent's tool call runs
        reports = [r for rs in editor.client.progress_reports.values() for r in rs]
        return any("Wait" in (getattr(r, "title", None) or "") for r in reports)

    await wait_until(waiting)
    uri = editor.uri("hello.py")
    editor.docs[uri] = (TYPED + HELLO, 2)
    editor.report_changes()
    editor.save("hello.py")
    await editor.command("acp.cancel")
    assert (await turn)["stopReason"] == "cancelled"  # the turn's last look is done by then
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    assert snapshot["review"] == []
    assert (workspace / "hello.py").read_text() == TYPED + HELLO
    assert [d for d in editor.client.diagnostics.get(uri, []) if d.source == "acp"] == []
