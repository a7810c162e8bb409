"""The editor's buffers as the agent's documents, against a fake editor: unsaved text is read,
writes become minimal undoable edits named after the tool call, nothing unsaved is lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygls.workspace import TextDocument

from acp_editor.editor.buffers.source import EditorDocuments, EditRefused
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel


def opened(editor: FakeChannel, path: Path, text: str, version: int = 3) -> str:
    uri = path_to_uri(str(path))
    editor.documents[uri] = TextDocument(uri, text, version=version)
    return uri


async def test_an_open_buffer_is_read_with_its_unsaved_text(tmp_path: Path) -> None:
    editor = FakeChannel()
    path = tmp_path / "a.txt"
    path.write_text("on disk\n")
    docs = EditorDocuments(editor)
    assert await docs.read_text(path) == "on disk\n"
    opened(editor, path, "unsaved\n")
    assert await docs.read_text(path) == "unsaved\n"


async def test_a_write_is_a_minimal_edit_named_after_its_tool_call(tmp_path: Path) -> None:
    editor = FakeChannel()
    path = tmp_path / "a.txt"
    path.write_text("one\ntwo\n")
    uri = opened(editor, path, "one\ntwo\nmine\n")
    docs = EditorDocuments(editor, lambda sid, call: f"{sid}/{call}")
    await docs.write_text(path, "one\nTWO\nmine\n", session_id="s1", tool_call_id="t1")
    ((edit_uri, version, edits, label),) = editor.edits
    assert (edit_uri, version, label) == (uri, 3, "s1/t1")
    assert len(edits) == 1 and edits[0]["newText"] == "TWO"
    # Until the editor reports the change, reads see what was applied, not the stale copy.
    assert await docs.read_text(path) == "one\nTWO\nmine\n"
    # A plugin-less editor does not save: the change reaches the disk for the agent's commands,
    # applied to the disk's text (the unsaved line stays in the buffer only).
    assert path.read_text() == "one\nTWO\n"


async def test_an_editor_that_cannot_apply_edits_never_loses_unsaved_text(tmp_path: Path) -> None:
    editor = FakeChannel()
    editor.can_apply_edit = False
    path = tmp_path / "a.txt"
    path.write_text("saved\n")
    opened(editor, path, "saved\nunsaved\n")
    docs = EditorDocuments(editor)
    with pytest.raises(EditRefused, match="unsaved changes"):
        await docs.write_text(path, "agent\n", session_id="s1", tool_call_id=None)
    assert path.read_text() == "saved\n"
    assert editor.edits == []


async def test_a_closed_file_goes_straight_to_disk(tmp_path: Path) -> None:
    editor = FakeChannel()
    docs = EditorDocuments(editor)
    path = tmp_path / "new" / "b.txt"
    await docs.write_text(path, "made\n", session_id="s1", tool_call_id=None)
    assert path.read_text() == "made\n" and editor.edits == []
