"""An agent that writes the disk itself and then sends ``fs/write_text_file`` of the same text
(opencode 1.18's pattern, here the scripted agent's ``--writes-twice``): one change, so one
``workspace/applyEdit`` to the open buffer, one hunk, and the text once (issue 35, item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor


@pytest.mark.parametrize("reads", ["fs", "disk"])
async def test_a_change_written_to_disk_and_through_fs_reaches_the_buffer_once(
    editor_factory: StartEditor, workspace: Path, reads: str
) -> None:
    flags = ("--writes-twice", *(("--reads-disk",) if reads == "disk" else ()))
    editor = await editor_factory(agent_flags=flags)
    editor.open("hello.py", HELLO)
    for _ in range(2):  # the second turn's write starts from the first's
        assert (await editor.command("acp.prompt", "edit"))["stopReason"] == "end_turn"
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})  # once the turns' looks are done

    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE * 2
    assert editor.text("hello.py") == HELLO + EDIT_LINE * 2
    versions = [
        c["textDocument"]["version"] for e in editor.edits for c in e["edit"]["documentChanges"]
    ]
    assert versions == [1, 2]  # one applyEdit per change, each at the version the editor has
    pending = [h for h in snapshot["review"] if h["state"] == "pending"]
    assert [line for h in pending for line in h["newLines"]] == [EDIT_LINE.rstrip("\n")] * 2
    assert [line for h in pending for line in h["oldLines"]] == []
