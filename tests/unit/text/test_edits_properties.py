"""Properties of minimal edits over random texts (see ``random_texts``): they turn old into new,
in order, never as no-ops, and one change in a long text is one small edit."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from acp_editor.text.edits import apply_edits, minimal_edits
from acp_editor.text.positions import Position, position_to_offset
from tests.unit.text.random_texts import TEXT, related


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
