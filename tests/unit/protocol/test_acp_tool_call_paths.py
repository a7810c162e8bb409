"""The files a tool call names and edits, in v1's diff shape and in the v2 draft's ``changes``
(permission rules and review attribution rely on them)."""

from __future__ import annotations

from acp_editor.editor.show.wording import summary
from acp_editor.protocol import acp

V1 = {"type": "diff", "path": "/w/a.py", "oldText": "a\n", "newText": "b\n"}
V2 = {
    "type": "diff",
    "changes": [
        {"operation": "modify", "path": "/w/b.py"},
        {"operation": "move", "oldPath": "/w/old.py", "path": "/w/new.py"},
        {"operation": "delete"},  # no path: malformed, skipped
        "not a change",
    ],
    "patch": {"format": "git_patch", "text": ""},
}


def test_v1_and_v2_diffs_name_their_files() -> None:
    call = {"kind": "edit", "content": [V1, V2], "locations": [{"path": "/w/c.py"}]}
    assert acp.diff_paths(call) == ["/w/a.py", "/w/b.py", "/w/new.py", "/w/old.py"]
    assert acp.edited_paths(call) == ["/w/a.py", "/w/b.py", "/w/new.py", "/w/old.py", "/w/c.py"]
    assert acp.paths_named(call) == ["/w/a.py", "/w/b.py", "/w/new.py", "/w/old.py", "/w/c.py"]
    assert acp.structured_diffs(call) == [V2]


def test_a_question_says_what_a_v2_diff_does() -> None:
    line = summary({"content": [V2]})
    assert line == "modify /w/b.py; move /w/old.py -> /w/new.py"
