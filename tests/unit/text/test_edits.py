"""Minimal text edits: exact expected edits for small cases, the reference applier, big files.

Random old/new pairs are covered by the properties in test_text_properties.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.text.edits import apply_edits, minimal_edits


def edit(l1: int, c1: int, l2: int, c2: int, text: str) -> dict[str, Any]:
    return {
        "range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}},
        "newText": text,
    }


CASES = [
    pytest.param("abc\n", "abc\n", [], id="identical"),
    pytest.param("", "", [], id="both empty"),
    pytest.param("", "a\nb\n", [edit(0, 0, 0, 0, "a\nb\n")], id="from empty"),
    pytest.param("a\nb", "", [edit(0, 0, 1, 1, "")], id="to empty"),
    pytest.param("hello world\n", "hello there\n", [edit(0, 6, 0, 11, "there")], id="word"),
    pytest.param("abc\n", "abXc\n", [edit(0, 2, 0, 2, "X")], id="insert one char"),
    # Not at (2, 0) after the final newline: Neovim 0.11 would add a blank line there.
    pytest.param("a\nb\n", "a\nb\nc\n", [edit(1, 1, 1, 1, "\nc")], id="append line"),
    pytest.param("a\r\n", "a\r\nc\r\n", [edit(0, 1, 0, 1, "\r\nc")], id="append CRLF line"),
    pytest.param("\r\n", "\r\n\n", [edit(1, 0, 1, 0, "\n")], id="append other ending"),
    pytest.param("b\n", "a\nb\n", [edit(0, 0, 0, 0, "a\n")], id="prepend line"),
    pytest.param("a\nb\nc\n", "a\nc\n", [edit(1, 0, 2, 0, "")], id="delete middle line"),
    pytest.param("a\nc\n", "a\nb\nc\n", [edit(1, 0, 1, 0, "b\n")], id="insert middle line"),
    pytest.param("a", "a\n", [edit(0, 1, 0, 1, "\n")], id="add final newline"),
    pytest.param("a\n", "a", [edit(0, 1, 1, 0, "")], id="drop final newline"),
    pytest.param("a", "a\nb", [edit(0, 1, 0, 1, "\nb")], id="append to unterminated"),
    pytest.param(
        "x1 = 1\nx2 = 2\n",
        "y1 = 1\ny2 = 2\n",
        [edit(0, 0, 0, 1, "y"), edit(1, 0, 1, 1, "y")],
        id="same-size replace is diffed line by line",
    ),
    pytest.param(
        "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n", [edit(1, 0, 1, 1, "B")], id="CRLF line change"
    ),
    pytest.param(
        "a\r\nc\r\n", "a\r\nb\r\nc\r\n", [edit(1, 0, 1, 0, "b\r\n")], id="CRLF insert line"
    ),
    pytest.param("a\r\n", "a\n", [edit(0, 1, 1, 0, "\n")], id="CRLF to LF never splits the pair"),
    pytest.param("a\n", "a\r\n", [edit(0, 1, 0, 1, "\r")], id="LF to CRLF inserts CR"),
    pytest.param(
        "a\r\nb", "a\rc", [edit(0, 1, 1, 0, "\r"), edit(1, 0, 1, 1, "c")], id="CRLF to lone CR"
    ),
    pytest.param("a\rb\r", "a\rB\r", [edit(1, 0, 1, 1, "B")], id="lone CR lines"),
    pytest.param("😀x\n", "😀y\n", [edit(0, 2, 0, 3, "y")], id="emoji before column"),
    pytest.param("é中😀a😀b", "é中😀a😀c", [edit(0, 7, 0, 8, "c")], id="mixed non-ascii"),
    pytest.param("x😀y", "x😁y", [edit(0, 1, 0, 3, "😁")], id="replace an emoji"),
    pytest.param("中文\n", "中国文\n", [edit(0, 1, 0, 1, "国")], id="cjk insert"),
]


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_minimal_edits(old: str, new: str, expected: list[dict[str, Any]]) -> None:
    edits = minimal_edits(old, new)
    assert edits == expected
    assert apply_edits(old, edits) == new


def test_apply_edits_accepts_any_order_and_keeps_insert_order() -> None:
    edits = [edit(1, 0, 1, 1, "B"), edit(0, 0, 0, 0, "1"), edit(0, 0, 0, 0, "2")]
    assert apply_edits("a\nb\n", edits) == "12a\nB\n"


def test_apply_edits_adjacent_ranges() -> None:
    assert apply_edits("abc", [edit(0, 1, 0, 2, "X"), edit(0, 0, 0, 1, "Y")]) == "YXc"


def test_apply_edits_clamps_positions_past_the_end() -> None:
    assert apply_edits("ab\ncd", [edit(0, 1, 0, 99, "!")]) == "a!\ncd"
    assert apply_edits("ab\ncd", [edit(7, 0, 9, 0, "!")]) == "ab\ncd!"


def test_apply_edits_utf16_columns() -> None:
    assert apply_edits("😀ab", [edit(0, 2, 0, 3, "X")]) == "😀Xb"


@pytest.mark.parametrize(
    "edits",
    [
        pytest.param([edit(0, 0, 0, 2, "x"), edit(0, 1, 0, 3, "y")], id="overlap"),
        pytest.param([edit(0, 0, 0, 3, "x"), edit(0, 1, 0, 1, "y")], id="insert inside a range"),
    ],
)
def test_apply_edits_rejects_overlaps(edits: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError, match="overlaps"):
        apply_edits("abcdef", edits)


def test_apply_edits_rejects_reversed_range() -> None:
    with pytest.raises(ValueError, match="start after its end"):
        apply_edits("abcdef", [edit(0, 3, 0, 1, "x")])


def big_file(lines: int) -> list[str]:
    shapes = ["def f{i}(x):", "    return x + {i}  # é", "", "}}", "y_{i} = '😀'"]
    return [shapes[i % len(shapes)].format(i=i) + "\n" for i in range(lines)]


def test_one_character_in_a_big_file_is_one_tiny_edit() -> None:
    lines = big_file(10_000)
    old = "".join(lines)
    lines[6_001] = lines[6_001].replace("6001", "6002")
    new = "".join(lines)
    assert minimal_edits(old, new) == [edit(6_001, 18, 6_001, 19, "2")]


def test_ten_thousand_lines_with_a_few_changes_are_four_edits() -> None:
    lines = big_file(10_000)
    old = "".join(lines)
    lines[10] = "changed\n"
    lines.insert(5_000, "inserted\n")
    del lines[8_000:8_003]
    lines[-1] = lines[-1].rstrip("\n")
    new = "".join(lines)
    edits = minimal_edits(old, new)
    assert apply_edits(old, edits) == new
    assert len(edits) == 4
