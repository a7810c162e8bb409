"""``acp/findFiles`` as the editor side answers it: open documents inside the workspace first
(ranked as the workspace's files are), then the workspace's files; a document outside every
workspace folder is never offered."""

from __future__ import annotations

import pytest
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument

from acp_editor.errors import InvalidParams
from tests.unit.editor.conftest import MakeRig


async def test_open_documents_come_first_and_only_those_inside_the_workspace(
    rig: MakeRig,
) -> None:
    made = rig()
    root = made.root
    for name in ("notes.md", "src/note_taker.py", "src/app.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n")
    for path in (root / "src" / "note_taker.py", root.parent / "elsewhere" / "notebook.py"):
        uri = from_fs_path(str(path))
        assert uri is not None
        made.editor.documents[uri] = TextDocument(uri, "x\n")

    mentions = made.side.mentions
    await mentions.find_files({"query": "note"})
    await mentions.files.settle()
    answer = await mentions.find_files({"query": "note"})
    assert answer["complete"] is True
    assert [(f["path"], f["open"]) for f in answer["files"]] == [
        ("src/note_taker.py", True),
        ("notes.md", False),
    ]
    assert answer["files"][1]["uri"] == from_fs_path(str(root / "notes.md"))
    assert (await mentions.find_files({"query": "note", "limit": 1}))["files"] == [
        answer["files"][0]
    ]
    # A bare `@`: the open document first, marked open, then the top of the workspace.
    bare = (await mentions.find_files({"query": ""}))["files"]
    assert [(f["path"], f["open"]) for f in bare] == [
        ("src/note_taker.py", True),
        ("notes.md", False),
        ("src/app.py", False),
    ]


async def test_a_wrong_query_or_limit_is_refused_naming_it(rig: MakeRig) -> None:
    mentions = rig().side.mentions
    with pytest.raises(InvalidParams, match=r"^query: expected a string, got null$"):
        await mentions.find_files({"query": None})
    with pytest.raises(InvalidParams, match=r"^limit: expected a whole number from 1 to 500"):
        await mentions.find_files({"query": "a", "limit": 501})
