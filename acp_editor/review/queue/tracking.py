"""Where each open hunk is, exactly: the review queue's bookkeeping of lines.

The queue keeps each file's text as it last saw it (``known``: after an agent's change it
recorded, after a decision it wrote) and moves every open hunk's line (``hint``, ``exact``)
through each change it follows: an agent's change (through the very diff the new hunks are made
of), its own swaps, and text it did not see coming (the user typed: as the diff from the known
text says). While the file holds the known text, a decision acts at that line with no search, so
no look-alike block can be taken for the hunk. A change that falls on a hunk's lines, or leaves
its line in doubt (an insertion at an empty block's own line), makes it ``lost``: nothing is
certain about it any more, so it is not decided.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from acp_editor.review.queue.anchor import holds, moved_through
from acp_editor.text.hunks import Hunk, compute_hunks


class Tracked(Protocol):
    """A hunk as tracking sees it (``review.queue.review_queue.ReviewHunk``)."""

    hint: int
    exact: bool
    lost: bool

    @property
    def path(self) -> str: ...

    @property
    def state(self) -> str: ...

    @property
    def block(self) -> tuple[str, ...]: ...


class Tracking:
    def __init__(self, of_path: Callable[[str], Sequence[Tracked]]) -> None:
        self.of_path = of_path
        """One file's hunks (the queue's index)."""
        self.known: dict[str, str] = {}
        """Each file's text as the queue last saw it: where the exact hints hold."""

    def _pending(self, path: str) -> list[Tracked]:
        return [h for h in self.of_path(path) if h.state == "pending"]

    def exactly(self, hunk: Tracked, text: str) -> int | None:
        """The hunk's line in ``text`` when it is known for certain, else None."""
        if not hunk.exact or self.known.get(hunk.path) != text:
            return None
        return hunk.hint if holds(text, hunk.block, hunk.hint) else None

    def carry(
        self,
        path: Path,
        old: str | None,
        base: str | None,
        new: str | None,
        reverts: list[Hunk],
        changes: list[Hunk] | None,
    ) -> list[Hunk] | None:
        """The file went from ``old`` to ``new`` (an agent's change, seen as ``old`` with the
        folded hunks ``reverts`` undone, giving ``base``, then ``base`` to ``new``, the diff its
        new hunks are made of): the exact hints of its other open hunks move with the lines they
        point at. Where that is not certain, they are hints only from now on (a decision will
        look for those hunks). Returns ``base`` to ``new``'s diff (``changes``, when given)."""
        pending = self._pending(str(path))
        if changes is None and pending and base is not None and new is not None:
            changes = compute_hunks(base, new)
        for hunk in pending:
            start = self.exactly(hunk, old) if old is not None else None
            if start is not None:
                start = moved_through(reverts, start, len(hunk.block))
            if start is not None and changes is not None:
                start = moved_through(changes, start, len(hunk.block))
            else:
                start = None
            hunk.exact = start is not None
            hunk.hint = start if start is not None else hunk.hint
        self._set(path, new)
        return changes

    def know(self, path: Path, text: str | None) -> None:
        """The file holds ``text`` now. If that is not the known text, something the queue did
        not follow changed it (the user typing, a turn undone): each exact hint moves through
        that change as a diff sees it, and is lost where the change falls on its lines."""
        before = self.known.get(str(path))
        if before != text:
            changes = compute_hunks(before, text) if before is not None and text is not None else []
            for hunk in self._pending(str(path)):
                if hunk.exact:
                    _move(hunk, changes)
        self._set(path, text)

    def shift(self, moved: Tracked, swap: Hunk, path: Path, text: str) -> None:
        """``moved`` was decided by ``swap``, giving ``text``: the other open hunks' hints move
        with it (one the swap leaves in doubt is lost, if it was exact)."""
        at, delta = swap.old_start, len(swap.new_lines) - len(swap.old_lines)
        moved.hint = at
        for hunk in self._pending(moved.path):
            if hunk is moved:
                continue
            where = moved_through([swap], hunk.hint, len(hunk.block))
            if where is None:
                hunk.lost = hunk.lost or hunk.exact  # an exact place the swap left in doubt
                hunk.exact = False
                where = hunk.hint + delta if hunk.hint > at else hunk.hint
            hunk.hint = where
        self._set(path, text)

    def _set(self, path: Path, text: str | None) -> None:
        if text is None:
            self.known.pop(str(path), None)
        else:
            self.known[str(path)] = text


def _move(hunk: Tracked, changes: Sequence[Hunk]) -> None:
    """An exact hint through ``changes``; lost where they fall on its lines or leave it in
    doubt. (No changes at all: the texts differ in line endings only; the hint is kept, not
    exact any more.)"""
    moved = moved_through(changes, hunk.hint, len(hunk.block)) if changes else None
    hunk.exact, hunk.lost = moved is not None, bool(changes) and moved is None
    hunk.hint = moved if moved is not None else hunk.hint
