"""A file we removed (a creation rejected) while the editor holds it open: a ``DeleteFile`` to
an editor that takes one, else an edit emptying the buffer; either way the buffer is not read as
the file until the user types in it, so the agent's next turn does not bring the text back."""

from __future__ import annotations

from pathlib import Path

import pytest
from pygls.workspace import TextDocument

from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.errors import ResourceNotFound
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel

CREATED = "# Notes\n- made by the agent\n"


def created(tmp_path: Path) -> tuple[FakeChannel, Path, str]:
    editor = FakeChannel()
    path = tmp_path / "NOTES.md"
    path.write_text(CREATED)
    uri = path_to_uri(str(path))
    editor.documents[uri] = TextDocument(uri, CREATED, version=2)
    return editor, path, uri


async def test_an_editor_that_deletes_files_is_sent_a_delete_file(tmp_path: Path) -> None:
    editor, path, uri = created(tmp_path)
    editor.can_delete_file = True
    docs = EditorDocuments(editor)
    await docs.remove(path, label="Review: reject NOTES.md")
    assert editor.deleted == [(uri, "Review: reject NOTES.md")] and editor.edits == []
    assert not path.exists()
    # The editor has not closed the buffer yet: it is not the file's text all the same.
    with pytest.raises(ResourceNotFound):
        await docs.read_text(path)


async def test_another_editor_gets_the_buffer_emptied_and_it_is_no_file_until_typed_in(
    tmp_path: Path,
) -> None:
    editor, path, uri = created(tmp_path)
    docs = EditorDocuments(editor)
    await docs.remove(path, label="Review: reject NOTES.md")
    ((edit_uri, version, edits, label),) = editor.edits
    assert (edit_uri, version, label) == (uri, 2, "Review: reject NOTES.md")
    assert [e["newText"] for e in edits] == [""] and editor.deleted == []
    assert not path.exists()
    with pytest.raises(ResourceNotFound):
        await docs.read_text(path)
    editor.documents[uri] = TextDocument(uri, "", version=3)  # the editor reports the edit
    with pytest.raises(ResourceNotFound):
        await docs.read_text(path)

    # The agent writes the file anew: the buffer gets it, and reads it again.
    await docs.write_text(path, "# Notes\n", session_id="s1", tool_call_id=None, base="")
    assert path.read_text() == "# Notes\n"
    editor.documents[uri] = TextDocument(uri, "# Notes\n", version=4)
    assert await docs.read_text(path) == "# Notes\n"


async def test_what_the_user_types_in_the_emptied_buffer_is_theirs_again(tmp_path: Path) -> None:
    editor, path, uri = created(tmp_path)
    docs = EditorDocuments(editor)
    await docs.remove(path, label="Review: reject NOTES.md")
    editor.documents[uri] = TextDocument(uri, "my own notes\n", version=4)
    assert await docs.read_text(path) == "my own notes\n"


async def test_a_buffer_with_the_user_s_own_lines_keeps_them_and_only_the_file_goes(
    tmp_path: Path,
) -> None:
    editor, path, uri = created(tmp_path)
    editor.can_delete_file = True  # a DeleteFile would close the buffer, the typed line with it
    editor.documents[uri] = TextDocument(uri, "# typed\n" + CREATED, version=3)
    docs = EditorDocuments(editor)
    await docs.remove(path, label="Review: reject NOTES.md", keep="# typed\n")
    assert editor.deleted == [] and not path.exists()
    ((edit_uri, version, _edits, _label),) = editor.edits
    assert (edit_uri, version) == (uri, 3)
    assert await docs.read_text(path) == "# typed\n"  # the user's text, read as the file's
