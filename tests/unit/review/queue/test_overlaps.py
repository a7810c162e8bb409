"""One session's change over another's pending hunk: which parts of a change fall on a hunk's
lines, which new hunks they placed, and what blocks rejecting the earlier hunk."""

from __future__ import annotations

from acp_editor.review.queue.anchor import Anchor
from acp_editor.review.queue.hunk import ReviewHunk
from acp_editor.review.queue.overlaps import blocker, falls_on, placed_by, refusal
from acp_editor.text.hunks import Hunk


def test_a_change_falls_on_lines_it_changes_or_inserts_between_not_at_their_edges() -> None:
    changed = Hunk(3, ["x"], 3, ["X"])
    inserted_inside = Hunk(4, [], 4, ["new"])
    inserted_before = Hunk(2, [], 2, ["new"])
    after = Hunk(5, ["y"], 5, ["Y"])
    changes = [changed, inserted_inside, inserted_before, after]
    assert falls_on(changes, 2, 3) == [changed, inserted_inside]  # lines 2, 3, 4
    assert falls_on(changes, 6, 1) == []


def hunk(hunk_id: str, session: str, at: int, new: tuple[str, ...]) -> ReviewHunk:
    anchor = Anchor(("old",), new, (), (), at)
    return ReviewHunk(hunk_id, session, None, "/w/a.py", anchor, True)


def test_the_new_hunks_a_change_placed_are_those_where_its_lines_went() -> None:
    top, bottom = hunk("h2", "b", 1, ("A",)), hunk("h3", "b", 8, ("B",))
    assert placed_by([top, bottom], [Hunk(8, ["b"], 8, ["B"])]) == [bottom]
    assert placed_by([top, bottom], [Hunk(20, ["z"], 20, ["Z"])]) == [top, bottom]  # unknown


def test_only_a_later_hunk_still_in_the_file_blocks_rejecting_the_earlier() -> None:
    earlier, later = hunk("h1", "a", 2, ("x",)), hunk("h2", "b", 2, ("y",))
    later.conflicts_with = ("h1",)
    assert blocker(earlier, [earlier, later]) is later
    assert "h2 (session b)" in refusal(earlier, later) and "reject that one first" in refusal(
        earlier, later
    )
    later.state = "accepted"
    assert blocker(earlier, [later]) is later and "was accepted" in refusal(earlier, later)
    later.state = "rejected"  # its lines were put back: the earlier hunk's are there again
    assert blocker(earlier, [later]) is None
    assert blocker(later, [earlier]) is None  # the later hunk never waits for the earlier
