"""Each open hunk's exact line, followed through every change the queue sees: the user's typing
(``know``), an agent's change (``carry``) and the queue's own decisions (``shift``). Where a
change falls on a hunk's lines, or leaves its place in doubt, it is lost: never decided blind."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from acp_editor.review.queue.tracking import Tracking
from acp_editor.text.hunks import Hunk, compute_hunks

PATH = Path("/w/a.py")


@dataclass
class Tracked:
    """A hunk as tracking sees it: the lines it put in the file (``block``) and where."""

    block: tuple[str, ...]
    hint: int
    exact: bool = True
    lost: bool = False
    state: str = "pending"
    path: str = str(PATH)


def text(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


AGENTS = text("a", "B", "c", "d")
"""The agent's text: its hunk is line 1 ("B")."""


def tracking(*hunks: Tracked, known: str = AGENTS) -> Tracking:
    tracks = Tracking(lambda path: [h for h in hunks if h.path == path])
    tracks.known[str(PATH)] = known  # as the agent's change that made the hunks leaves it
    return tracks


def test_a_hunk_is_exactly_at_its_hint_only_in_the_known_text() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    assert tracks.exactly(hunk, AGENTS) == 1
    # "B" is at line 1 of this text too, but it is not the known text: nothing is certain.
    assert tracks.exactly(hunk, text("a", "B", "c", "changed")) is None
    hunk.exact = False
    assert tracks.exactly(hunk, AGENTS) is None


def test_lines_typed_above_a_hunk_move_it_and_it_stays_exact() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    typed = text("new", "lines", "a", "B", "c", "d")
    tracks.know(PATH, typed)
    assert (hunk.hint, hunk.exact, hunk.lost) == (3, True, False)
    assert tracks.exactly(hunk, typed) == 3
    tracks.know(PATH, text("new", "lines", "a", "B", "c", "d", "below"))  # below: no move
    assert (hunk.hint, hunk.exact) == (3, True)


def test_typing_on_a_hunks_lines_loses_it() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    tracks.know(PATH, text("a", "B!", "c", "d"))
    assert (hunk.exact, hunk.lost) == (False, True)
    assert tracks.exactly(hunk, text("a", "B!", "c", "d")) is None


def test_line_endings_alone_keep_the_hint_but_not_its_certainty() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    tracks.know(PATH, AGENTS.replace("\n", "\r\n"))
    assert (hunk.hint, hunk.exact, hunk.lost) == (1, False, False)


def test_decided_hunks_and_other_files_are_left_alone() -> None:
    done = Tracked(("B",), 1, state="accepted")
    elsewhere = Tracked(("B",), 1, path="/w/b.py")
    tracks = tracking(done, elsewhere)
    tracks.know(PATH, text("x", "a", "B", "c", "d"))
    assert (done.hint, done.exact) == (1, True)
    assert (elsewhere.hint, elsewhere.exact) == (1, True)


def test_an_agents_change_above_carries_the_hint_and_returns_its_diff() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    new = text("first", "a", "B", "c", "d")
    changes = tracks.carry(PATH, AGENTS, AGENTS, new, [], None)
    assert changes == compute_hunks(AGENTS, new)
    assert (hunk.hint, hunk.exact) == (2, True)
    assert tracks.known[str(PATH)] == new  # the agent's text is the known one now
    assert tracks.exactly(hunk, new) == 2


def test_an_agents_change_from_a_text_not_known_makes_hints_uncertain() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    unseen = text("typed", "a", "B", "c", "d")  # the user typed, and we did not see it
    tracks.carry(PATH, unseen, unseen, text("typed", "a", "B", "c", "d", "e"), [], None)
    assert (hunk.hint, hunk.exact) == (1, False)


def test_a_deleted_file_is_not_known_any_more() -> None:
    hunk = Tracked(("B",), 1)
    tracks = tracking(hunk)
    assert tracks.carry(PATH, AGENTS, AGENTS, None, [], None) is None
    assert str(PATH) not in tracks.known and not hunk.exact


def test_a_decision_above_shifts_the_others_and_one_on_their_lines_loses_them() -> None:
    known = text("one", "TWO", "three", "FOUR", "five")
    above, below, overlapping = Tracked(("TWO",), 1), Tracked(("FOUR",), 3), Tracked(("x",), 1)
    tracks = tracking(above, below, known=known)
    # Rejecting "TWO" puts back two lines where it was: everything below moves down by one.
    swap = Hunk(old_start=1, old_lines=["TWO"], new_start=1, new_lines=["two", "2"])
    after = text("one", "two", "2", "three", "FOUR", "five")
    tracks.shift(above, swap, PATH, after)
    assert above.hint == 1
    assert (below.hint, below.exact, below.lost) == (4, True, False)
    assert tracks.exactly(below, after) == 4
    tracks = tracking(above, overlapping, known=known)
    tracks.shift(above, swap, PATH, after)
    assert (overlapping.exact, overlapping.lost) == (False, True)
