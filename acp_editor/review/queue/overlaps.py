"""One session's change over another session's pending hunk: both kept, in an order that works.

A session that changes its own pending hunk's lines again supersedes it
(``review.queue.review_queue`` folds the two into one hunk). Another session's change over those
lines does not: the first hunk is that session's to answer for, so it stays, and the new hunk says
it conflicts with it (``conflicts_with``): its old lines hold the first hunk's new ones. Neither is
lost:

* accepting either changes nothing on disk;
* rejecting the later one puts the first one's lines back, so it can then be decided too;
* rejecting the earlier one while the later one, built on its lines, is pending or accepted is
  refused with a message saying which to decide first (its lines are not in the file to take
  out); rejecting both at once rejects the later one first.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.review.queue.anchor import locate
from acp_editor.text.hunks import compute_hunks

if TYPE_CHECKING:
    from pathlib import Path

    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.tracking import Tracking
    from acp_editor.text.hunks import Hunk

Decide = Callable[[list["ReviewHunk"]], Awaitable[list[dict[str, Any]]]]


def falls_on(changes: Iterable[Hunk], start: int, size: int) -> list[Hunk]:
    """The changes (of a text) that fall on its lines ``start`` to ``start + size``: a line
    changed or removed, or lines inserted between two of them."""
    found = []
    for change in changes:
        first, last = change.old_start, change.old_start + len(change.old_lines)
        if (
            (first < start + size and last > start)
            if first < last
            else start < first < start + size
        ):
            found.append(change)
    return found


def under(
    others: Sequence[ReviewHunk], tracking: Tracking, path: Path, old: str | None, new: str | None
) -> list[tuple[ReviewHunk, list[Hunk]]]:
    """Pending hunks of other sessions (``others``, of ``path``) whose lines a change from
    ``old`` to ``new`` falls on, each with the parts of the change that do: they are not folded
    into it."""
    if old is None or new is None or not others:
        return []
    if tracking.known.get(str(path)) != old:
        tracking.know(path, old)  # their places in the text the change started from
    changes = compute_hunks(old, new)
    found = []
    for hunk in others:
        at = tracking.exactly(hunk, old)
        if at is None and not hunk.lost:
            at = locate(old, hunk.anchor.new_lines, hunk.anchor, hunk.hint)
        falling = falls_on(changes, at, len(hunk.anchor.new_lines)) if at is not None else []
        if falling:
            found.append((hunk, falling))
    return found


def placed_by(made: Sequence[ReviewHunk], changes: Sequence[Hunk]) -> list[ReviewHunk]:
    """The hunks of ``made`` (of the changed text) whose lines ``changes`` put there; all of
    them when none can be told (a diff against another base placed them otherwise)."""
    found = []
    for hunk in made:
        low, size = hunk.anchor.hint, len(hunk.anchor.new_lines)
        for change in changes:
            at, put = change.new_start, len(change.new_lines)
            if (at < low + size and at + put > low) or (low <= at <= low + size and not put):
                found.append(hunk)
                break
    return found or list(made)


def blocker(hunk: ReviewHunk, hunks: Iterable[ReviewHunk]) -> ReviewHunk | None:
    """A hunk of another session built on ``hunk``'s lines that is still in the file (pending
    or accepted): ``hunk`` cannot be rejected before it is."""
    for other in hunks:
        if hunk.hunk_id in other.conflicts_with and other.state in ("pending", "accepted"):
            return other
    return None


def refusal(hunk: ReviewHunk, later: ReviewHunk) -> str:
    who = f"{later.hunk_id} (session {later.session_id})"
    if later.state == "accepted":
        return (
            f"{who} was accepted and changed these lines after this change: "
            "they cannot be put back without taking that change out"
        )
    return f"{who} changed these lines after this change: reject that one first"


async def reject_in_order(
    hunks: list[ReviewHunk], every: Iterable[ReviewHunk], decide: Decide
) -> list[dict[str, Any]]:
    """Reject one file's ``hunks``: those another session built on after it, later ones first;
    refused where the later one is not being rejected with them (``every``: the queue's)."""
    rest = [h for h in hunks if h.state == "pending"]
    results = [{"hunkId": h.hunk_id, "state": h.state} for h in hunks if h.state != "pending"]
    deciding = {h.hunk_id for h in rest}
    everything = list(every)
    for hunk in list(rest):
        later = blocker(hunk, [h for h in everything if h.hunk_id not in deciding])
        if later is not None:
            hunk.message = refusal(hunk, later)
            results.append({"hunkId": hunk.hunk_id, "state": "pending", "error": hunk.message})
            rest.remove(hunk)
    while rest:
        first = [h for h in rest if blocker(h, [o for o in rest if o is not h]) is None]
        wave = first or rest  # never empty: a later hunk builds on an earlier one, not back
        results += await decide(wave)
        rest = [h for h in rest if h not in wave]
        for hunk in rest:
            later = blocker(hunk, wave)  # its rejection failed
            if later is not None:
                hunk.message = refusal(hunk, later)
                results.append({"hunkId": hunk.hunk_id, "state": "pending", "error": hunk.message})
        rest = [h for h in rest if blocker(h, wave) is None]
    return results
