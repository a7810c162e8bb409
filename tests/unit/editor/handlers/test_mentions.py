"""``acp/findFiles`` as the editor side answers it: open documents inside the workspace first
(ranked as the workspace's files are), then the workspace's files; a document outside every
workspace folder is never offered."""

from __future__ import annotations

from pygls.uris import from_fs_path
from pygls.workspace import TextDocument

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
