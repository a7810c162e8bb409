"""Re-anchoring review hunks: table tests for the shapes of hunk, line endings, the user-edit
scenarios the review feature exists for, refusals, ranges, and a big file.

Random old/new pairs and random user edits are covered by test_review_anchor_properties.py.
"""

from __future__ import annotations

import itertools

import pytest

from acp_editor.review.queue.anchor import (
    Anchor,
    anchors_for,
    apply,
    block_range,
    current_range,
    locate,
    revert,
)


def shifted_hints(anchors: list[Anchor], order: tuple[int, ...], applied: bool) -> list[int]:
    """Where each hunk's block is when the hunks are decided in ``order``: the recorded line
    moved by the line-count change of every hunk above it decided before it."""
    hints = []
    for step, number in enumerate(order):
        anchor = anchors[number]
        base = anchor.hint if applied else anchor.old_hint
        assert base is not None
        for done in order[:step]:
            if done < number:
                grow = len(anchors[done].new_lines) - len(anchors[done].old_lines)
                base += -grow if applied else grow
        hints.append(base)
    return hints


PAIRS = [
    pytest.param("a\nc\n", "a\nb\nc\n", id="insert middle"),
    pytest.param("b\n", "a\nb\n", id="insert at start"),
    pytest.param("a\n", "a\nb\n", id="insert at end"),
    pytest.param("a\nb\nc\n", "a\nc\n", id="delete middle"),
    pytest.param("a\nb\n", "b\n", id="delete at start"),
    pytest.param("a\nb\nc", "a\nb", id="delete unterminated last"),
    pytest.param("a\nb\nc\n", "a\nB\nc\n", id="replace"),
    pytest.param("1\n2\n3\n4\n5\n", "1\nX\n3\nY\n5\n", id="hunks one line apart"),
    pytest.param("1\n2\n3\n", "X\n2\nY\n", id="hunks at start and end"),
    pytest.param("a\nb", "a\nb\nc", id="append to unterminated"),
    pytest.param("a\nb\n", "a\nb\nc", id="append, dropping final newline"),
    pytest.param("a\nb", "a\nb\n", id="add final newline"),
    pytest.param("a\nb\n", "a\nb", id="drop final newline"),
    pytest.param("a\nb", "a\nc\n", id="replace last, adding newline"),
    pytest.param("", "a\nb\n", id="from empty"),
    pytest.param("a\nb\n", "", id="to empty"),
    pytest.param("a\r\nb\r\nc\r\n", "a\r\nX\r\nc\r\nd\r\n", id="CRLF"),
    pytest.param("a\r\nb", "a\r\nb\r\nc", id="CRLF unterminated"),
    pytest.param("a\rb\rc\r", "a\rc\rd\r", id="lone CR"),
    pytest.param("ä\n😀\nß\n", "ä\nü😀\nß\n€\n", id="non-ASCII"),
    pytest.param("x\nx\nx\nx\n", "x\ny\nx\nx\ny\nx\n", id="repeated lines"),
    pytest.param("}\n\n}\n\n}\n", "}\n\n}\n\n}\n\n}\n", id="repeated block appended"),
]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_reverting_every_hunk_in_any_order_gives_old(old: str, new: str) -> None:
    anchors = anchors_for(old, new)
    assert anchors
    for order in itertools.permutations(range(len(anchors))):
        text: str | None = new
        for number, hint in zip(order, shifted_hints(anchors, order, True), strict=True):
            assert text is not None
            text = revert(text, anchors[number], hint)
        assert text == old, order


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_applying_every_held_hunk_in_any_order_gives_new(old: str, new: str) -> None:
    anchors = anchors_for(old, new)
    for order in itertools.permutations(range(len(anchors))):
        text: str | None = old
        for number, hint in zip(order, shifted_hints(anchors, order, False), strict=True):
            assert text is not None
            text = apply(text, anchors[number], hint)
        assert text == new, order


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_bottom_up_needs_no_hints(old: str, new: str) -> None:
    anchors = anchors_for(old, new)
    reverted: str | None = new
    applied: str | None = old
    for anchor in reversed(anchors):
        assert reverted is not None and applied is not None
        reverted, applied = revert(reverted, anchor), apply(applied, anchor)
    assert (reverted, applied) == (old, new)


def test_anchor_fields() -> None:
    old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n"
    new = "1\n2\n3\n4\nX\n6\nY\n8\n9\n"
    assert anchors_for(old, new) == [
        Anchor(("5",), ("X",), ("2", "3", "4"), ("6",), hint=4, old_hint=4),
        Anchor(("7",), ("Y",), ("6",), ("8", "9", ""), hint=6, old_hint=6),
    ]


def test_anchor_context_stops_at_file_edges() -> None:
    [anchor] = anchors_for("a\nb\n", "X\nb\n")
    assert (anchor.before, anchor.after) == ((), ("b", ""))
    [anchor] = anchors_for("a\nb", "a\nc\nd")
    assert (anchor.before, anchor.after, anchor.hint) == (("a",), (), 1)


def test_hint_and_old_hint_differ_after_a_growing_hunk() -> None:
    anchors = anchors_for("a\nb\nc\nd\n", "a\nX\nY\nZ\nb\nc\nD\n")
    assert [(a.hint, a.old_hint) for a in anchors] == [(1, 1), (6, 3)]


def test_no_trailing_newline_is_restored() -> None:
    [anchor] = anchors_for("a\nb", "a\nb\nc")
    assert revert("a\nb\nc", anchor) == "a\nb"
    assert apply("a\nb", anchor) == "a\nb\nc"
    [anchor] = anchors_for("a\nb\n", "a\nb")
    assert revert("a\nb", anchor) == "a\nb\n"
    assert revert("z\na\nb", anchor) == "z\na\nb\n"  # still found when shifted


def test_untouched_endings_kept_and_new_lines_get_dominant() -> None:
    [anchor] = anchors_for("a\nb\nc\n", "a\nB\nc\n")
    # The user's file meanwhile has mixed endings, mostly CRLF.
    assert revert("a\r\nB\nc\r\nd\r\n", anchor) == "a\r\nb\r\nc\r\nd\r\n"
    assert revert("a\nB\r\nc\n", anchor) == "a\nb\nc\n"


# --- the scenario the feature exists for -----------------------------------------------------

OLD = "".join(
    f"{line}\n"
    for line in [
        "import os",
        "import sys",
        "",
        "def one():",
        "    return 1",  # A changes this
        "",
        "",
        "def two():",
        "    pass",  # the user changes this
        "",
        "",
        "def three():",
        "    return 3",  # B changes this
        "",
    ]
)
NEW = OLD.replace("return 1\n", "return 10\n").replace("return 3\n", "x = 3\n    return x\n")
A_DONE = OLD.replace("return 1\n", "return 10\n")
B_DONE = OLD.replace("return 3\n", "x = 3\n    return x\n")


def edit_between(text: str) -> str:
    return text.replace("    pass\n", "    return 2\n")


def test_scenario_has_two_hunks() -> None:
    assert [(a.old_lines, a.new_lines) for a in anchors_for(OLD, NEW)] == [
        (("    return 1",), ("    return 10",)),
        (("    return 3",), ("    x = 3", "    return x")),
    ]


def test_revert_b_then_a_keeps_the_user_edit() -> None:
    a, b = anchors_for(OLD, NEW)
    without_b = revert(edit_between(NEW), b)
    assert without_b == edit_between(A_DONE)
    assert without_b is not None
    assert revert(without_b, a) == edit_between(OLD)


def test_revert_a_then_b_with_lines_added_above() -> None:
    a, b = anchors_for(OLD, NEW)
    text = "#!/usr/bin/env python\n# header\n" + edit_between(NEW)
    without_a = revert(text, a)
    assert without_a == "#!/usr/bin/env python\n# header\n" + edit_between(B_DONE)
    assert without_a is not None
    assert revert(without_a, b) == "#!/usr/bin/env python\n# header\n" + edit_between(OLD)


def test_revert_when_the_user_edited_the_context() -> None:
    a, _b = anchors_for(OLD, NEW)
    text = NEW.replace("def two():", "def two(x):")  # in A's context: the block is unique
    assert revert(text, a) == B_DONE.replace("def two():", "def two(x):")


def test_revert_after_the_agent_edited_elsewhere() -> None:
    a, b = anchors_for(OLD, NEW)
    later = NEW.replace("import sys\n", "import sys\nimport re\n")
    assert revert(later, b) == A_DONE.replace("import sys\n", "import sys\nimport re\n")
    assert revert(later, a) == B_DONE.replace("import sys\n", "import sys\nimport re\n")


def test_apply_only_a_onto_the_user_edited_text() -> None:
    a, b = anchors_for(OLD, NEW)
    assert apply(edit_between(OLD), a) == edit_between(A_DONE)
    assert apply("# top\n" + edit_between(OLD), b) == "# top\n" + edit_between(B_DONE)


def test_edited_context_and_repeated_block_is_refused() -> None:
    old = "f(1)\nx\ny\nz\ng(1)\nu\nv\nw\nf(1)\n"
    [anchor] = anchors_for(old, old.replace("g(1)", "f(1)"))
    # The user edits the context: the hunk's line now occurs three times, none in context.
    assert revert("f(1)\nx\nY\nz\nf(1)\nu\nv\nw\nf(1)\n", anchor) is None


# --- locate ------------------------------------------------------------------------------------


def test_nearest_full_match_wins_and_a_tie_is_refused() -> None:
    anchor = Anchor(("old",), ("new",), ("p",), ("q",), hint=0)
    text = "p\nnew\nq\nz\nz\np\nnew\nq\n"
    assert locate(text, ("new",), anchor, 0) == 1
    assert locate(text, ("new",), anchor, 5) == 6
    assert locate(text, ("new",), anchor, 3) == 1
    assert locate(text, ("new",), anchor, 4) == 6
    assert locate("p\nnew\nq\np\nnew\nq\n", ("new",), anchor, 2) == 1
    assert locate("p\nnew\nq\nz\np\nnew\nq\n", ("new",), anchor, 3) is None  # 1 and 5: tie


def test_context_must_match_unless_the_block_is_unique() -> None:
    anchor = Anchor((), ("b",), ("a",), ("c",), hint=1)
    assert locate("a\nb\nc\n", ("b",), anchor, 1) == 1
    assert locate("A\nb\nc\n", ("b",), anchor, 1) == 1  # context gone, block unique
    assert locate("A\nb\nb\n", ("b",), anchor, 1) is None  # context gone, block twice
    assert locate("b\nA\nb\na\nb\nc\n", ("b",), anchor, 0) == 4  # full match beats nearer ones


def test_context_short_at_file_start_still_matches_lower() -> None:
    anchor = Anchor((), ("b",), (), ("c",), hint=0)
    assert locate("b\nc\n", ("b",), anchor, 0) == 0
    assert locate("x\ny\nb\nc\n", ("b",), anchor, 0) == 2
    full = Anchor((), ("b",), ("1", "2", "3"), ("c",), hint=3)
    assert locate("2\n3\nb\nc\nb\n", ("b",), full, 3) is None  # context cut off, block twice


def test_empty_block_is_found_by_its_context_alone() -> None:
    anchor = Anchor(("gone",), (), ("a",), ("c",), hint=1)
    assert locate("a\nc\n", (), anchor, 1) == 1
    assert locate("z\nz\na\nc\n", (), anchor, 1) == 3
    assert locate("a\nX\nc\n", (), anchor, 1) is None  # something between: no guessing
    assert locate("a\nc\na\nc\n", (), anchor, 2) is None  # 1 and 3: tie
    assert locate("a\nc\n", (), Anchor(("x",), (), (), (), hint=0), 0) is None


def test_revert_of_a_deletion_needs_both_context_sides() -> None:
    [anchor] = anchors_for("a\nb\nc\nd\n", "a\nb\nd\n")
    assert revert("a\nb\nd\n", anchor) == "a\nb\nc\nd\n"
    assert revert("a\nB\nd\n", anchor) is None
    assert revert("a\nb\nD\n", anchor) is None
    assert revert("a\nb\nx\nd\n", anchor) is None


def test_deleted_block_is_refused() -> None:
    a, b = anchors_for(OLD, NEW)
    assert revert(NEW.replace("    x = 3\n    return x\n", ""), b) is None
    assert revert(NEW.replace("    return x\n", "    return y\n"), b) is None
    assert apply(OLD.replace("    return 1\n", ""), a) is None
    assert current_range(NEW.replace("    return 10\n", ""), a, applied=True) is None


# --- ranges --------------------------------------------------------------------------------------


def test_block_range() -> None:
    text = "ab\nc😀\r\nd\n"
    assert block_range(text, 1, 1) == {
        "start": {"line": 1, "character": 0},
        "end": {"line": 1, "character": 3},
    }
    assert block_range(text, 0, 3) == {
        "start": {"line": 0, "character": 0},
        "end": {"line": 2, "character": 1},
    }
    assert block_range(text, 2, 0) == {
        "start": {"line": 2, "character": 0},
        "end": {"line": 2, "character": 0},
    }
    point = {"line": 0, "character": 1}
    assert block_range("a", 1, 0) == {"start": point, "end": point}  # clamped to the end
    with pytest.raises(ValueError):
        block_range(text, 3, 2)
    with pytest.raises(ValueError):
        block_range(text, -1, 1)


def test_current_range_follows_the_hunk() -> None:
    a, b = anchors_for(OLD, NEW)
    text = "# top\n" + NEW
    assert current_range(text, b, applied=True) == {
        "start": {"line": 13, "character": 0},
        "end": {"line": 14, "character": 12},
    }
    assert current_range("# top\n" + OLD, a, applied=False) == {
        "start": {"line": 5, "character": 0},
        "end": {"line": 5, "character": 12},
    }
    [insertion] = anchors_for("a\n", "a\nb\n")
    empty = {"line": 1, "character": 0}
    assert current_range("a\n", insertion, applied=False) == {"start": empty, "end": empty}


# --- a big file ----------------------------------------------------------------------------------


def test_ten_thousand_lines_fifty_hunks_revert_exactly() -> None:
    """Correctness on a big file; its speed is measured in bench/large.py, not here."""
    old_lines = [f"line {i} = value({i % 97})" if i % 7 else "" for i in range(10_000)]
    new_lines = list(old_lines)
    for k in range(50):  # replacements, insertions and deletions spread over the file
        at = 100 + k * 195
        if k % 3 == 0:
            new_lines[at] = f"changed {k}"
        elif k % 3 == 1:
            new_lines[at] = f"{new_lines[at]}\nadded {k}\nadded {k} too"
        else:
            new_lines[at] = "\0"
    old = "\n".join(old_lines) + "\n"
    new = "\n".join(line for line in new_lines if line != "\0") + "\n"
    anchors = anchors_for(old, new)
    text: str | None = new
    for anchor in anchors[::2] + anchors[1::2]:  # top-down twice: the hints go stale
        assert text is not None
        text = revert(text, anchor)
    assert len(anchors) == 50
    assert text == old
