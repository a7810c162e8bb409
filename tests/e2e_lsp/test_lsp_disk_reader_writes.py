"""An agent that reads the disk itself but writes through ``fs/write_text_file`` (opencode's
pattern, here the scripted agent's ``--reads-disk``): its whole-file write was made from the
disk's text, so it never saw the unsaved lines of the open buffer. They stay: the agent's change
is merged into the buffer three ways (base: the disk's text when the write arrived), in one
``workspace/applyEdit``, review holds only the agent's line, and the disk gets exactly the
agent's text."""

from __future__ import annotations

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
