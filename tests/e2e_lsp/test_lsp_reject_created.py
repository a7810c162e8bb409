"""Rejecting a file the agent created while the editor holds it open: the file goes, and so does
the buffer's text, through ``workspace/applyEdit``: a ``DeleteFile`` where the editor takes one,
else an edit emptying the buffer, which is then no longer read as the file. The agent's next
turn finds no file, and does not write the rejected text back (issue 35, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.demo_agent.scenarios.file_scenarios import NOTE_LINE
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import EGLOT_1_9, NEOVIM, VSCODE

CREATED = "# Notes\n" + NOTE_LINE


@pytest.mark.parametrize(
    ("capabilities", "deletes"), [(VSCODE, True), (NEOVIM, False), (EGLOT_1_9, False)]
)
async def test_a_rejected_new_file_leaves_the_open_buffer_and_stays_gone(
    editor_factory: StartEditor, workspace: Path, capabilities: str, deletes: bool
) -> None:
    editor = await editor_factory(capabilities=capabilities)
    assert (await editor.command("acp.prompt", "early-permission"))["stopReason"] == "end_turn"
    assert (workspace / "NOTES.md").read_text() == CREATED
    uri = editor.open("NOTES.md", CREATED)  # the user looks at the agent's new file
    (hunk,) = (await editor.request(proto.ACP_SNAPSHOT, {}))["review"]

    result = await editor.command("acp.rejectHunk", hunk["hunkId"])
    assert result["results"][0]["state"] == "rejected"
    assert not (workspace / "NOTES.md").exists()
    (sent,) = editor.edits
    (change,) = sent["edit"].get("documentChanges") or [sent["edit"]["changes"]]
    if deletes:
        assert change == {"kind": "delete", "uri": uri, "options": {"ignoreIfNotExists": True}}
        assert uri not in editor.docs  # the editor closed it
    else:
        assert editor.text("NOTES.md") == ""

    # The next turn finds no file: it creates it anew, not from the rejected text.
    assert (await editor.command("acp.prompt", "early-permission"))["stopReason"] == "end_turn"
    assert (workspace / "NOTES.md").read_text() == CREATED
    if not deletes:
        assert editor.text("NOTES.md") == CREATED
