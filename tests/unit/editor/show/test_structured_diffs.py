"""A v2 diff (changes + git_patch) previewed from the text the editor holds: forward before
the agent writes, backward after, nothing when the patch does not fit or is not text."""

from __future__ import annotations

from pathlib import Path

from acp_editor.demo_agent.turn.v2 import diff_v2
from acp_editor.editor.show.structured_diffs import structured_previews
from acp_editor.errors import ResourceNotFound

OLD = "a\nb\nc\n"
NEW = "a\nB\nc\n"


def reader(files: dict[str, str]):  # type: ignore[no-untyped-def]
    async def read_text(path: Path) -> str:
        if str(path) not in files:
            raise ResourceNotFound(str(path))
        return files[str(path)]

    return read_text


async def test_previewed_from_the_buffer_before_and_after_the_write() -> None:
    item = diff_v2({"type": "diff", "path": "/w/f.py", "oldText": OLD, "newText": NEW})
    (before,) = await structured_previews(item, reader({"/w/f.py": OLD}))
    (after,) = await structured_previews(item, reader({"/w/f.py": NEW}), written=True)
    for preview in (before, after):
        assert (preview["oldText"], preview["newText"]) == (OLD, NEW)
        assert preview["path"] == "/w/f.py" and preview["added"] == preview["removed"] == 1


async def test_a_new_file_not_written_yet() -> None:
    item = diff_v2({"type": "diff", "path": "/w/new.py", "oldText": None, "newText": "x\n"})
    (preview,) = await structured_previews(item, reader({}))
    assert preview["oldText"] is None and preview["newText"] == "x\n"


async def test_no_preview_without_a_fitting_text_patch() -> None:
    item = diff_v2({"type": "diff", "path": "/w/f.py", "oldText": OLD, "newText": NEW})
    assert await structured_previews(item, reader({"/w/f.py": "other\n"})) == []
    no_patch = {"type": "diff", "changes": [{"operation": "modify", "path": "/w/f.py"}]}
    assert await structured_previews(no_patch, reader({"/w/f.py": OLD})) == []
    bad = {**item, "patch": {"format": "git_patch", "text": "@@ garbage"}}
    assert await structured_previews(bad, reader({"/w/f.py": OLD})) == []
    other_format = {**item, "patch": {"format": "_custom", "text": item["patch"]["text"]}}
    assert await structured_previews(other_format, reader({"/w/f.py": OLD})) == []


async def test_a_move_with_a_change_is_previewed_at_its_new_path() -> None:
    patch = (
        "diff --git /w/old.py /w/new.py\n"
        "similarity index 80%\n"
        "rename from /w/old.py\n"
        "rename to /w/new.py\n"
        "--- /w/old.py\n"
        "+++ /w/new.py\n"
        "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    )
    item = {
        "type": "diff",
        "changes": [{"operation": "move", "oldPath": "/w/old.py", "path": "/w/new.py"}],
        "patch": {"format": "git_patch", "text": patch},
    }
    # Not moved yet: the text is read where it was.
    (before,) = await structured_previews(item, reader({"/w/old.py": OLD}))
    # Moved already: the new path holds the new text.
    (after,) = await structured_previews(item, reader({"/w/new.py": NEW}), written=True)
    for preview in (before, after):
        assert preview["path"] == "/w/new.py"
        assert (preview["oldText"], preview["newText"]) == (OLD, NEW)
