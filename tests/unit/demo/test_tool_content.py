"""A tool call's content as the demo prints it: a proposed edit's coloured diff, a v2
structured change with its patch, a terminal, text, and anything else by its type."""

from __future__ import annotations

from acp_editor.demo.tool_content import diff_lines, item_lines


def test_a_proposed_edit_is_a_unified_diff_coloured_by_line() -> None:
    item = {"type": "diff", "path": "/w/a.py", "oldText": "a\nb\n", "newText": "a\nc\n"}
    assert item_lines(item) == [
        ("  proposed edit: /w/a.py", ("bold",)),
        ("    --- a/w/a.py", ("red",)),
        ("    +++ b/w/a.py", ("green",)),
        ("    @@ -1,2 +1,2 @@", ()),
        ("     a", ()),
        ("    -b", ("red",)),
        ("    +c", ("green",)),
    ]


def test_a_new_file_diffs_from_nothing() -> None:
    assert diff_lines("/w/new.py", None, "x\n")[:2] == ["--- /dev/null", "+++ b/w/new.py"]


def test_a_v2_change_names_its_files_then_its_patch() -> None:
    patch = "diff --git a/x b/y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-old\n+new\n"
    item = {
        "type": "diff",
        "changes": [{"operation": "move", "oldPath": "/w/x", "path": "/w/y"}],
        "patch": {"type": "git_patch", "text": patch},
    }
    assert item_lines(item) == [
        ("  proposed move: /w/x -> /w/y", ("bold",)),
        ("    @@ -1 +1 @@", ()),
        ("    -old", ("red",)),
        ("    +new", ("green",)),
    ]


def test_text_terminals_and_the_unknown() -> None:
    text = {"type": "content", "content": {"type": "text", "text": "1\n2\n3\n4\n"}}
    assert [line for line, _ in item_lines(text)] == ["  | 1", "  | 2", "  | 3"]
    image = {"type": "content", "content": {"type": "image", "data": "..."}}
    assert item_lines(image) == []
    assert item_lines({"type": "terminal", "terminalId": "t1"}) == [("  terminal t1", ("dim",))]
    assert item_lines({"type": "_chart"}) == [("  [_chart content]", ("dim",))]
