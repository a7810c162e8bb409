"""Properties of edits and hunks over random texts with mixed line endings and astral characters.

Texts are drawn from a small alphabet so that old and new share lines (the interesting case
for a diff), and also derived from each other by splicing, which is how agents edit files.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from acp_editor.text.edits import apply_edits, minimal_edits
from acp_editor.text.hunks import apply_hunks, compute_hunks, unified_line_counts
from acp_editor.text.positions import Position, position_to_offset

PIECES = ["a", "b", "é", "中", "😀", " ", "\n", "\n", "\r\n", "\r"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@st.composite
def related(draw: st.DrawFn) -> tuple[str, str]:
    """An old text and a new one made from it by a few splices (or drawn independently)."""
    old = draw(TEXT)
    if draw(st.booleans()):
        return old, draw(TEXT)
    new = old
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(new)))
        end = draw(st.integers(start, min(len(new), start + 6)))
        new = new[:start] + draw(TEXT) + new[end:]
    return old, new


def key(position: Position) -> tuple[int, int]:
    return position["line"], position["character"]


@given(related())
def test_edits_turn_old_into_new(pair: tuple[str, str]) -> None:
    old, new = pair
    edits = minimal_edits(old, new)
    assert apply_edits(old, edits) == new
    for e in edits:
        assert key(e["range"]["start"]) <= key(e["range"]["end"])
    for before, after in itertools.pairwise(edits):
        assert key(before["range"]["end"]) <= key(after["range"]["start"])


@given(related())
def test_edits_are_never_no_ops(pair: tuple[str, str]) -> None:
    old, new = pair
    for e in minimal_edits(old, new):
        rng = e["range"]
        start = position_to_offset(old, rng["start"]["line"], rng["start"]["character"])
        end = position_to_offset(old, rng["end"]["line"], rng["end"]["character"])
        assert old[start:end] != e["newText"]


@given(TEXT)
def test_identical_texts_need_no_edit(text: str) -> None:
    assert minimal_edits(text, text) == []


@given(TEXT, st.integers(0, 200), st.sampled_from(["x", "😀", ""]))
def test_one_change_in_a_long_text_is_one_small_edit(line: str, at: int, char: str) -> None:
    old = (line.replace("\r", "") + "\n") * 50 + "tail"
    at = min(at, len(old) - 1)
    if old[at] == char:
        return
    new = old[:at] + char + old[at + 1 :]
    edits = minimal_edits(old, new)
    assert len(edits) == 1
    assert len(edits[0]["newText"]) <= 1
    assert apply_edits(old, edits) == new


def lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


@st.composite
def same_endings(draw: st.DrawFn) -> tuple[str, str, str]:
    """A pair whose line breaks are all ``eol``, so accepting everything must give ``new``."""
    old, new = draw(related())
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return eol.join(lines(old)), eol.join(lines(new)), eol


@given(same_endings(), st.integers(0, 2))
def test_accept_all_gives_new_and_none_gives_old(case: tuple[str, str, str], context: int) -> None:
    old, new, eol = case
    hunks = compute_hunks(old, new, context)
    # A file without any line break has no ending of its own to give inserted lines.
    newline = None if len(lines(old)) > 1 else eol
    assert apply_hunks(old, hunks, set(range(len(hunks))), newline) == new
    assert apply_hunks(old, hunks, set()) == old


@given(related())
def test_rejecting_everything_keeps_mixed_endings_byte_for_byte(pair: tuple[str, str]) -> None:
    old, new = pair
    assert apply_hunks(old, compute_hunks(old, new), set()) == old


@settings(max_examples=60)
@given(related())
def test_each_subset_applies_exactly_its_hunks(pair: tuple[str, str]) -> None:
    old, new = pair
    hunks = compute_hunks(old, new)[:6]
    for start, end in itertools.pairwise(hunks):
        assert start.old_start + len(start.old_lines) < end.old_start
    for size in range(len(hunks) + 1):
        for subset in itertools.combinations(range(len(hunks)), size):
            expected = lines(old)
            for number in sorted(subset, reverse=True):
                hunk = hunks[number]
                expected[hunk.old_start : hunk.old_start + len(hunk.old_lines)] = hunk.new_lines
            assert lines(apply_hunks(old, hunks, set(subset))) == expected


@given(related())
def test_line_counts_match_the_hunks(pair: tuple[str, str]) -> None:
    old, new = pair
    added, removed = unified_line_counts(old, new)
    assert added - removed == len(lines(new)) - len(lines(old))
