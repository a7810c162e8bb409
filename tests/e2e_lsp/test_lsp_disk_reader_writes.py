"""An agent that reads the disk itself but writes through ``fs/write_text_file`` (opencode's
pattern, here the scripted agent's ``--reads-disk``): its whole-file write was made from the
disk's text, so it never saw the unsaved lines of the open buffer. They stay: the agent's change
is merged into the buffer three ways (base: the disk's text when the write arrived), in one
``workspace/applyEdit``, review holds only the agent's line, and the disk gets exactly the
agent's text."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.support.lsp import wait_until

UNSAVED = "# typed, not saved\n"


@pytest.mark.parametrize("capabilities", ["neovim", "emacs"])
async def test_the_users_unsaved_line_survives_the_agents_write(
    editor_factory: StartEditor, workspace: Path, capabilities: str
) -> None:
    editor = await editor_factory(capabilities=capabilities, agent_flags=("--reads-disk",))
    editor.open("hello.py", UNSAVED + HELLO)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert editor.text("hello.py") == UNSAVED + HELLO + EDIT_LINE
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE  # the agent's text
    await editor.request(proto.ACP_SNAPSHOT, {})  # answered once the turn's looks are done
    uri = editor.uri("hello.py")

    def pending() -> list[int]:
        found = editor.client.diagnostics.get(uri, [])
        return [d.range.start.line for d in found if d.source == "acp"]

    await wait_until(lambda: pending() != [])
    assert pending() == [3]  # the agent's line (0-based), not the user's line taken away
    assert len(editor.edits) == 1  # the disk watch did not apply the write a second time
    refusals = [m.message for m in editor.client.messages if "version" in m.message]
    assert refusals == []


async def test_the_editors_save_after_the_edit_is_not_taken_for_a_new_change(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """Emacs's setup saves a buffer right after it applied our edit (``savesAfterApply``) and
    eglot reports the edit late: the disk then changes while the agent works on, with the
    buffer's text. That is the agent's write (and the user's lines) reaching the disk, not a
    change of the agent's: no second ``workspace/applyEdit`` (which eglot refused: "version
    mismatch"), no second hunk."""
    editor = await editor_factory(
        capabilities="neovim", saves_after_apply=True, agent_flags=("--reads-disk",)
    )
    editor.reports_edits = False
    editor.open("hello.py", UNSAVED + HELLO)
    turn = asyncio.ensure_future(editor.command("acp.prompt", "edit wait"))

    def waiting() -> bool:  # the agent had its write answered and works on
        reports = [r for rs in editor.client.progress_reports.values() for r in rs]
        return any("Wait" in (getattr(r, "title", None) or "") for r in reports)

    await wait_until(waiting)
    editor.save("hello.py")
    editor.report_changes()
    await wait_until(lambda: (workspace / "hello.py").read_text() == UNSAVED + HELLO + EDIT_LINE)
    await editor.command("acp.cancel")
    assert (await turn)["stopReason"] == "cancelled"  # the turn's last look is done by then
    await editor.request(proto.ACP_SNAPSHOT, {})
    assert len(editor.edits) == 1
    assert editor.text("hello.py") == UNSAVED + HELLO + EDIT_LINE
    uri = editor.uri("hello.py")
    found = [d for d in editor.client.diagnostics.get(uri, []) if d.source == "acp"]
    assert [d.range.start.line for d in found] == [3]
