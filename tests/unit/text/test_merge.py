"""Three-way merge: the agent's change lands in the user's unsaved text; overlaps are conflicts
that keep the user's lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from acp_editor.text.merge import merge3, theirs_win

BASE = "a\nb\nc\nd\ne\nf\ng\n"


def test_changes_apart_both_land() -> None:
    ours = BASE.replace("a\n", "A (user)\n")
    theirs = BASE.replace("g\n", "G (agent)\n")
    merged = merge3(BASE, ours, theirs)
    assert merged.text == "A (user)\nb\nc\nd\ne\nf\nG (agent)\n" and merged.conflicts == ()


def test_insertions_and_deletions_apart_both_land() -> None:
    ours = BASE.replace("b\n", "b\nnew user line\n")
    theirs = BASE.replace("e\nf\n", "")
    merged = merge3(BASE, ours, theirs)
    assert merged.text == "a\nb\nnew user line\nc\nd\ng\n" and merged.conflicts == ()


def test_the_same_line_changed_differently_is_a_conflict_that_keeps_the_users_text() -> None:
    ours = BASE.replace("d\n", "d by the user\n").replace("a\n", "A\n")
    theirs = BASE.replace("d\n", "d by the agent\n").replace("g\n", "G\n")
    merged = merge3(BASE, ours, theirs)
    assert merged.text == "A\nb\nc\nd by the user\ne\nf\nG\n"  # the rest of theirs still lands
    (conflict,) = merged.conflicts
    assert (conflict.start, conflict.end) == (3, 4)
    assert conflict.base_lines == ("d\n",) and conflict.their_lines == ("d by the agent\n",)


def test_the_same_change_on_both_sides_is_no_conflict() -> None:
    both = BASE.replace("c\n", "C\n")
    assert merge3(BASE, both, both).text == both
    merged = merge3(BASE, both.replace("a\n", "A\n"), both)
    assert merged.text == both.replace("a\n", "A\n") and merged.conflicts == ()


def test_changes_to_neighbouring_lines_both_land() -> None:
    merged = merge3(BASE, BASE.replace("c\n", "C\n"), BASE.replace("d\n", "D\n"))
    assert merged.text == BASE.replace("c\n", "C\n").replace("d\n", "D\n")
    assert merged.conflicts == ()
    above = merge3("x\n", "note\nx\n", "X\n")  # an insertion right above a changed line
    assert above.text == "note\nX\n" and above.conflicts == ()


def test_insertions_at_the_same_place_are_a_conflict() -> None:
    merged = merge3(BASE, BASE.replace("c\n", "c\nmine\n"), BASE.replace("c\n", "c\nyours\n"))
    assert merged.text == BASE.replace("c\n", "c\nmine\n")
    (conflict,) = merged.conflicts
    assert conflict.their_lines == ("yours\n",)


lines = st.lists(st.sampled_from(["x\n", "y\n", "z\n", "w\n"]), max_size=8).map("".join)


@given(lines, lines)
def test_an_unchanged_side_takes_the_other(base: str, side: str) -> None:
    assert merge3(base, base, side).text == side
    assert merge3(base, side, base).text == side
    assert merge3(base, side, side).text == side


SEPARATOR = "=== 1\n=== 2\n=== 3\n"


@given(lines, lines, lines, lines)
def test_changes_in_separate_parts_both_land(a: str, a2: str, b: str, b2: str) -> None:
    merged = merge3(a + SEPARATOR + b, a2 + SEPARATOR + b, a + SEPARATOR + b2)
    assert merged.conflicts == () and merged.text == a2 + SEPARATOR + b2


@given(lines, lines, lines)
def test_conflicts_lie_within_the_merged_text_and_differ_from_the_agents(
    base: str, ours: str, theirs: str
) -> None:
    merged = merge3(base, ours, theirs)
    out = merged.text.splitlines(keepends=True)
    for conflict in merged.conflicts:
        assert 0 <= conflict.start <= conflict.end <= len(out)
        assert conflict.their_lines != tuple(out[conflict.start : conflict.end])


@given(lines, lines)
def test_prefix_and_suffix_edits_never_conflict(middle: str, extra: str) -> None:
    base = "top\n" + middle + "bottom\n"
    ours = "user\n" + base
    theirs = base + extra
    merged = merge3(base, ours, theirs)
    assert merged.conflicts == () and merged.text == "user\n" + base + extra


def test_theirs_win_gives_conflicts_to_theirs_and_keeps_the_rest_of_ours() -> None:
    base = "a\nb\nc\nd\n"
    ours = "a\nB-ours\nc\nD-ours\n"  # both changed b; only ours changed d
    theirs = "A-theirs\nB-theirs\nc\nd\n"  # only theirs changed a
    merged = merge3(base, ours, theirs)
    assert len(merged.conflicts) == 1 and "B-ours" in merged.text  # ours kept by merge3
    assert theirs_win(merged) == "A-theirs\nB-theirs\nc\nD-ours\n"
    assert theirs_win(merge3(base, ours, base)) == ours  # no conflict: the merge as it is
