"""Properties of hunks over random texts (see ``random_texts``): accepting all gives the new text,
none the old byte for byte, each subset exactly its hunks, and the line counts agree."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from acp_editor.text.hunks import apply_hunks, compute_hunks, unified_line_counts
from tests.unit.text.random_texts import related


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
