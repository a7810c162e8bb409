"""Diff hunks: exact hunks for small cases, accept/reject per hunk, line endings, big files.

Random old/new pairs and every subset of accepted hunks are covered by the properties in
test_text_properties.py.
"""

from __future__ import annotations

import itertools

import pytest

from acp_editor.text.hunks import (
    Hunk,
    apply_hunks,
    compute_hunks,
    dominant_newline,
    unified_line_counts,
)

CASES = [
    pytest.param("a\nb\n", "a\nb\n", [], id="identical"),
    pytest.param("", "", [], id="both empty"),
    pytest.param("a\nc\n", "a\nb\nc\n", [Hunk(1, [], 1, ["b"])], id="insert middle"),
    pytest.param("b\n", "a\nb\n", [Hunk(0, [], 0, ["a"])], id="insert at start"),
    pytest.param("a\n", "a\nb\n", [Hunk(1, [], 1, ["b"])], id="insert at end"),
    pytest.param("a\nb\nc\n", "a\nc\n", [Hunk(1, ["b"], 1, [])], id="delete middle"),
    pytest.param("a\nb\n", "b\n", [Hunk(0, ["a"], 0, [])], id="delete at start"),
    pytest.param("a\nb\nc", "a\nb", [Hunk(2, ["c"], 2, [])], id="delete unterminated last"),
    pytest.param("a\nb\nc\n", "a\nB\nc\n", [Hunk(1, ["b"], 1, ["B"])], id="replace"),
    pytest.param(
        "1\n2\n3\n4\n5\n",
        "1\nX\n3\nY\n5\n",
        [Hunk(1, ["2"], 1, ["X"]), Hunk(3, ["4"], 3, ["Y"])],
        id="adjacent changes split by one line",
    ),
    pytest.param(
        "a\nb\nc\n",
        "A\nb\nC\n",
        [Hunk(0, ["a"], 0, ["A"]), Hunk(2, ["c"], 2, ["C"])],
        id="first and last line",
    ),
    pytest.param(
        "a\nb\n", "x\ny\nz\n", [Hunk(0, ["a", "b"], 0, ["x", "y", "z"])], id="replace all"
    ),
    pytest.param("a", "a\n", [Hunk(1, [], 1, [""])], id="add final newline"),
    pytest.param("a\n", "a", [Hunk(1, [""], 1, [])], id="drop final newline"),
    pytest.param("a\n", "a\nb", [Hunk(1, [""], 1, ["b"])], id="final line replaces newline"),
    pytest.param("a\r\nb\r\n", "a\r\nB\r\n", [Hunk(1, ["b"], 1, ["B"])], id="CRLF"),
    pytest.param("a\r\nb\n", "a\nb\r\n", [], id="endings only: no hunk"),
    pytest.param("é\n😀\n", "é\n😁\n", [Hunk(1, ["😀"], 1, ["😁"])], id="non-ascii"),
]


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_compute_hunks(old: str, new: str, expected: list[Hunk]) -> None:
    hunks = compute_hunks(old, new)
    assert hunks == expected
    assert apply_hunks(old, hunks, set()) == old
    if "\r" not in old + new:
        assert apply_hunks(old, hunks, set(range(len(hunks)))) == new


def test_to_json_replacement_range_covers_removed_lines() -> None:
    assert Hunk(2, ["x", "é😀"], 2, ["y"]).to_json() == {
        "oldStart": 2,
        "oldLines": ["x", "é😀"],
        "newStart": 2,
        "newLines": ["y"],
        "range": {"start": {"line": 2, "character": 0}, "end": {"line": 3, "character": 3}},
    }


def test_to_json_insertion_is_an_empty_range_at_the_insertion_point() -> None:
    assert Hunk(4, [], 5, ["new"]).to_json()["range"] == {
        "start": {"line": 4, "character": 0},
        "end": {"line": 4, "character": 0},
    }


def test_context_lines_are_included_and_close_changes_merge() -> None:
    old = "".join(f"{i}\n" for i in range(10))
    new = old.replace("2\n", "two\n").replace("4\n", "four\n").replace("9\n", "nine\n")
    assert compute_hunks(old, new, context=1) == [
        Hunk(1, ["1", "2", "3", "4", "5"], 1, ["1", "two", "3", "four", "5"]),
        Hunk(8, ["8", "9", ""], 8, ["8", "nine", ""]),
    ]
    assert len(compute_hunks(old, new, context=0)) == 3
    for context in (1, 3):
        hunks = compute_hunks(old, new, context)
        assert apply_hunks(old, hunks, set(range(len(hunks)))) == new


SMALL_OLD = "head\nkeep 1\nold a\nkeep 2\nkeep 3\nold b\nkeep 4\n"
SMALL_NEW = "head\nkeep 1\nnew a\nkeep 2\nkeep 3\nkeep 4\ntail\n"


def test_every_subset_of_hunks_on_a_small_file() -> None:
    hunks = compute_hunks(SMALL_OLD, SMALL_NEW)
    assert len(hunks) == 3
    old_lines = SMALL_OLD.split("\n")
    for size in range(len(hunks) + 1):
        for subset in itertools.combinations(range(len(hunks)), size):
            lines = list(old_lines)
            for number in sorted(subset, reverse=True):
                hunk = hunks[number]
                end = hunk.old_start + len(hunk.old_lines)
                lines[hunk.old_start : end] = hunk.new_lines
            assert apply_hunks(SMALL_OLD, hunks, set(subset)) == "\n".join(lines)


def test_crlf_file_keeps_crlf_when_hunks_are_accepted() -> None:
    old = SMALL_OLD.replace("\n", "\r\n")
    new = SMALL_NEW.replace("\n", "\r\n")
    hunks = compute_hunks(old, new)
    assert apply_hunks(old, hunks, {0, 1, 2}) == new
    assert apply_hunks(old, hunks, {2}) == old.replace("keep 4\r\n", "keep 4\r\ntail\r\n")


def test_mixed_endings_keep_each_untouched_line_as_it_was() -> None:
    old = "a\r\nb\nc\r\nd\r\n"
    hunks = compute_hunks(old, "a\nB\nc\nd\nE\n")
    assert apply_hunks(old, hunks, {0, 1}) == "a\r\nB\r\nc\r\nd\r\nE\r\n"
    assert apply_hunks(old, hunks, {1}) == "a\r\nb\nc\r\nd\r\nE\r\n"


def test_no_trailing_newline_stays_without() -> None:
    old = "a\nb"
    hunks = compute_hunks(old, "A\nb")
    assert apply_hunks(old, hunks, {0}) == "A\nb"


def test_newline_for_inserted_lines_can_be_given() -> None:
    hunks = compute_hunks("x", "x\r\ny")
    assert apply_hunks("x", hunks, {0}) == "x\ny"
    assert apply_hunks("x", hunks, {0}, newline="\r\n") == "x\r\ny"


def test_lone_cr_before_an_inserted_empty_line_does_not_merge_them() -> None:
    old = "\naa\r"
    hunks = compute_hunks(old, "\naa\n\naa\r")
    assert apply_hunks(old, hunks, {0}) == "\naa\r\n\naa\n"


def test_apply_hunks_rejects_an_unknown_newline() -> None:
    with pytest.raises(ValueError, match="line ending"):
        apply_hunks("a", [], set(), newline="\t")


def test_apply_hunks_rejects_hunks_that_do_not_fit() -> None:
    with pytest.raises(ValueError, match="does not match"):
        apply_hunks("a\nb\n", [Hunk(1, ["zzz"], 1, ["y"])], {0})
    with pytest.raises(ValueError, match="overlaps"):
        apply_hunks("a\nb\n", [Hunk(1, ["b"], 1, []), Hunk(0, ["a"], 0, [])], {0, 1})


@pytest.mark.parametrize(
    ("text", "newline"),
    [
        ("", "\n"),
        ("one line", "\n"),
        ("a\nb\n", "\n"),
        ("a\r\nb\r\n", "\r\n"),
        ("a\rb\r", "\r"),
        ("a\r\nb\r\nc\n", "\r\n"),
        ("a\r\nb\n", "\n"),
    ],
)
def test_dominant_newline(text: str, newline: str) -> None:
    assert dominant_newline(text) == newline


@pytest.mark.parametrize(
    ("old", "new", "counts"),
    [
        ("a\n", "a\n", (0, 0)),
        ("a\nb\n", "a\nB\nc\nd\n", (3, 1)),
        ("a\nb\nc\n", "a\n", (0, 2)),
        ("", "x\n", (1, 0)),
    ],
)
def test_unified_line_counts(old: str, new: str, counts: tuple[int, int]) -> None:
    assert unified_line_counts(old, new) == counts


def test_ten_thousand_lines_with_fifty_scattered_changes() -> None:
    lines = [f"line {i} {'é😀' if i % 7 == 0 else ''}" for i in range(10_000)]
    changed = list(lines)
    for n, at in enumerate(range(97, 10_000, 199)):
        changed[at] = f"changed {n}"
    old, new = "\n".join(lines) + "\n", "\n".join(changed) + "\n"
    hunks = compute_hunks(old, new)
    result = apply_hunks(old, hunks, set(range(0, len(hunks), 2)))
    assert len(hunks) == 50
    assert result.count("changed") == 25
