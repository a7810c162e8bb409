"""Finding a reviewed hunk again in a file's current text, and swapping its lines there.

A hunk is decided long after it was made: meanwhile the user types, other hunks of the same file
are accepted or rejected, the agent edits other parts. Line numbers recorded at diff time are
therefore only a hint. What identifies a hunk is its block of lines together with the unchanged
lines around it (its context), so a hunk is *re-anchored*: the block is searched for with its
context, and of several matches the one nearest to the hint wins.

Rejecting an applied hunk and accepting a held one are the same operation seen from two sides:
find one block (the new lines, resp. the old lines) and put the other in its place.

Wrong text is worse than no text: a revert that lands on a look-alike block silently corrupts
the user's file, while a refusal only leaves a hunk undecided with a message. So every doubt
(block or context gone, two matches equally near) yields ``None`` and the caller tells the user.

The context holds only lines no hunk of the same diff touches. Lines belonging to a neighbouring
hunk would stop matching as soon as that hunk is decided, and the hunks could then no longer be
decided one by one in any order.

Lines follow the LSP model of ``acp_editor.text.hunks`` (``"a\\n"`` is ``"a"`` and ``""``), so a
missing final newline is an ordinary line and needs no special case; the swap itself is
``apply_hunks``, which keeps untouched lines' endings and gives new lines the dominant one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from acp_editor.text.hunks import Hunk, apply_hunks, compute_hunks
from acp_editor.text.positions import LineIndex, Position, Range, utf16_len

__all__ = [
    "CONTEXT",
    "Anchor",
    "anchors_for",
    "apply",
    "block_range",
    "current_range",
    "fold",
    "folded",
    "holds",
    "locate",
    "moved_through",
    "revert",
]

CONTEXT = 3
"""Unchanged lines kept on each side of a hunk: enough to tell apart most repeated blocks
(``}``, blank lines, a repeated call) while one edit near a hunk rarely touches all of them."""

_BREAK = re.compile(r"\r\n|\r|\n")


def _contents(text: str) -> list[str]:
    """The text's lines without endings, in the LSP model (never empty)."""
    return _BREAK.split(text)


@dataclass(frozen=True)
class Anchor:
    """A hunk as something that can be found again in a later text."""

    old_lines: tuple[str, ...]
    """The lines before the change, without endings; empty for a pure insertion."""
    new_lines: tuple[str, ...]
    """The lines after the change, without endings; empty for a pure deletion."""
    before: tuple[str, ...]
    """Up to ``CONTEXT`` unchanged lines just above the hunk, nearest last. Fewer at the top of
    the file or when another hunk is closer than ``CONTEXT`` lines."""
    after: tuple[str, ...]
    """Up to ``CONTEXT`` unchanged lines just below the hunk, nearest first."""
    hint: int
    """0-based line where ``new_lines`` start in the new text: where to look first to revert."""
    old_hint: int | None = None
    """0-based line where ``old_lines`` start in the old text: where to look first to apply a
    held hunk, which sits in the old text. ``None``: use ``hint``."""


def anchors_for(old: str, new: str, hunks: list[Hunk] | None = None) -> list[Anchor]:
    """One anchor per ``compute_hunks(old, new)`` hunk (``hunks``, when the caller has them
    already), in order, with its context.

    The context is taken between the neighbouring hunks only (see the module docstring); those
    lines are the same in ``old`` and ``new``, so one anchor serves both directions.
    """
    lines = _contents(new)
    hunks = compute_hunks(old, new) if hunks is None else hunks
    anchors = []
    for number, hunk in enumerate(hunks):
        start = hunk.new_start
        end = start + len(hunk.new_lines)
        top = hunks[number - 1].new_start + len(hunks[number - 1].new_lines) if number else 0
        bottom = hunks[number + 1].new_start if number + 1 < len(hunks) else len(lines)
        anchors.append(
            Anchor(
                old_lines=tuple(hunk.old_lines),
                new_lines=tuple(hunk.new_lines),
                before=tuple(lines[max(top, start - CONTEXT) : start]),
                after=tuple(lines[end : min(bottom, end + CONTEXT)]),
                hint=start,
                old_hint=hunk.old_start,
            )
        )
    return anchors


def _find_all(lines: list[str], pattern: list[str], limit: int = 0) -> list[int]:
    """Where ``pattern`` (not empty) starts in ``lines``; at most ``limit`` hits if set.

    ``list.index`` does the scanning in C, so a 10k-line file costs little per search.
    """
    size = len(pattern)
    stop = len(lines) - size + 1
    found: list[int] = []
    start = 0
    while start < stop:
        try:
            at = lines.index(pattern[0], start, stop)
        except ValueError:
            break
        if lines[at : at + size] == pattern:
            found.append(at)
            if len(found) == limit:
                break
        start = at + 1
    return found


def _nearest(candidates: list[int], hint: int) -> int | None:
    """The candidate nearest to ``hint``; None if there is none or two are equally near."""
    ranked = sorted(candidates, key=lambda at: abs(at - hint))
    if not ranked or (len(ranked) > 1 and abs(ranked[0] - hint) == abs(ranked[1] - hint)):
        return None
    return ranked[0]


def locate(text: str, block: Sequence[str], anchor: Anchor, hint: int) -> int | None:
    """The 0-based line where ``block`` starts in ``text``, or None when that is not certain.

    A match needs all of ``anchor.before`` right above the block and all of ``anchor.after``
    right below. A context cut short by the top or bottom of the file is matched as recorded,
    wherever it is now, so lines added above or below do not lose the hunk. Of several matches
    the nearest to ``hint`` wins, and a tie is refused. An empty block is an insertion point,
    found by its context alone; the result is the line the inserted lines would start at.
    When no match keeps its context (the user edited next to the hunk), a non-empty block is
    still taken if it occurs exactly once in the whole text: then there is nothing else it
    could be.
    """
    lines = _contents(text)
    pattern = [*anchor.before, *block, *anchor.after]
    if not pattern:
        return None  # nothing to recognise the place by: any answer would be a guess
    candidates = [at + len(anchor.before) for at in _find_all(lines, pattern)]
    if candidates:
        return _nearest(candidates, hint)
    if not block:
        return None
    alone = _find_all(lines, list(block), limit=2)
    return alone[0] if len(alone) == 1 else None


def _swap(
    text: str, anchor: Anchor, find: Sequence[str], put: Sequence[str], hint: int
) -> str | None:
    """``text`` with the located ``find`` block replaced by ``put``; None if not located."""
    at = locate(text, find, anchor, hint)
    if at is None:
        return None
    return apply_hunks(text, [Hunk(at, list(find), at, list(put))], {0})


def _default_hint(anchor: Anchor, applied: bool) -> int:
    """Where the hunk's block was when the anchor was made, on the side it is found on."""
    if applied or anchor.old_hint is None:
        return anchor.hint
    return anchor.old_hint


def revert(text: str, anchor: Anchor, hint: int | None = None) -> str | None:
    """``text`` with an applied hunk undone: its new lines found and the old ones put back.

    ``hint`` defaults to ``anchor.hint``. A caller that already decided hunks above this one in
    the same file does better to pass that line shifted by their line-count changes: with
    repeated text the nearest match to a stale hint can be a look-alike. None when the new
    lines cannot be found for certain (see ``locate``).
    """
    where = _default_hint(anchor, applied=True) if hint is None else hint
    return _swap(text, anchor, anchor.new_lines, anchor.old_lines, where)


def _touches(changes: Sequence[Hunk], start: int, anchor: Anchor) -> bool:
    """Whether a change of the text falls on a hunk's lines or its context (either would stop
    the hunk from being found again). An insertion at the edge of the context does not."""
    low = start - len(anchor.before)
    high = start + len(anchor.new_lines) + len(anchor.after)
    for change in changes:
        first, last = change.old_start, change.old_start + len(change.old_lines)
        if (first < high and last > low) if first < last else low < first < high:
            return True
    return False


_SPLIT: list[tuple[str, list[str]]] = [("", [""])]
"""The last text ``holds`` split, and its lines: it is asked of one text for every open hunk
in turn (300 hunks of a 5,000-line file: 300 splits were two thirds of recording a change)."""


def holds(text: str, block: Sequence[str], at: int) -> bool:
    """Whether ``block`` is at line ``at`` of ``text`` (an empty block: ``at`` is a line of it,
    or just past its last)."""
    last, lines = _SPLIT[0]
    if last is not text:  # the same object: immutable, so the same lines (never mutated here)
        lines = _contents(text)
        _SPLIT[0] = (text, lines)
    return 0 <= at <= len(lines) - len(block) and lines[at : at + len(block)] == list(block)


def moved_through(changes: Sequence[Hunk], start: int, size: int) -> int | None:
    """Where the ``size`` lines at ``start`` of a text start once ``changes`` (its hunks to a
    new text) are made; None when a change falls on them, or inserts at an empty block's own
    line (before or after it, nobody can say)."""
    shift = 0
    for change in changes:
        first, last = change.old_start, change.old_start + len(change.old_lines)
        grow = len(change.new_lines) - len(change.old_lines)
        if first == last and size == 0 and first == start:
            return None
        if last <= start and (first < last or first <= start):
            shift += grow  # above the lines (an insertion at their first line pushes them down)
        elif first >= start + size and (first > start or size > 0):
            continue  # below them
        else:
            return None
    return start + shift


def fold(old: str, new: str, pending: Sequence[tuple[Anchor, int]]) -> tuple[str, list[int]]:
    """``folded`` without the reverts (see there)."""
    base, indexes, _reverts, _changes = folded(old, new, pending)
    return base, indexes


def folded(
    old: str,
    new: str,
    pending: Sequence[tuple[Anchor, int]],
    located: Sequence[int | None] | None = None,
) -> tuple[str, list[int], list[Hunk], list[Hunk]]:
    """A new change (``old`` -> ``new``) over applied hunks still pending in ``old``: which of
    them it touches, and the text before those (them reverted in ``old``).

    A hunk whose lines the agent changes again could not be found any more; shown against the
    base, the new change holds both edits, and deciding it decides them together. Returns the
    base and the indexes into ``pending`` (``(anchor, hint)`` pairs) that were folded; a hunk
    that cannot be found for certain is left alone. ``located``: where each hunk's new lines
    are in ``old`` when the caller knows it for certain (None: look for them). Also returns the
    reverts made, as hunks of ``old`` to ``base`` from the top down, and ``base`` to ``new``'s.
    """
    starts: dict[int, int] = {}
    for index, (anchor, hint) in enumerate(pending):
        known = located[index] if located is not None else None
        start = known if known is not None else locate(old, anchor.new_lines, anchor, hint)
        if start is not None:
            starts[index] = start
    changes = compute_hunks(old, new)
    chosen = {i for i, at in starts.items() if _touches(changes, at, pending[i][0])}
    while True:
        # The new hunks are the diff of base to new, which can differ from old's: a hunk that
        # diff falls on (or its context), or leaves in doubt, is folded too, until none is.
        base, reverts, skipped = _reverted(old, [(starts[i], i, pending[i][0]) for i in chosen])
        for index in skipped:  # found where another folded hunk is: left alone, in doubt
            chosen.discard(index)
            del starts[index]
        changes = compute_hunks(base, new) if reverts else changes
        more = set()
        for index in starts.keys() - chosen:
            anchor = pending[index][0]
            at = moved_through(reverts, starts[index], len(anchor.new_lines))
            if at is None or _touches(changes, at, anchor):
                more.add(index)
            elif moved_through(changes, at, len(anchor.new_lines)) is None:
                more.add(index)  # where it goes is not certain (an insertion at its own line)
        if not more:
            return base, sorted(chosen), reverts, changes
        chosen |= more


def _reverted(old: str, hunks: list[tuple[int, int, Anchor]]) -> tuple[str, list[Hunk], list[int]]:
    """``old`` with each applied hunk (start, index, anchor) undone where it starts; the
    reverts made, top down, and the indexes of hunks whose lines overlap one undone below."""
    text, skipped = old, []
    swaps: list[Hunk] = []
    floor = len(_contents(old)) + 1
    order = sorted(hunks, key=lambda h: (h[0], len(h[2].new_lines), h[1]), reverse=True)
    for at, index, anchor in order:  # bottom-up: the starts above stay valid
        end = at + len(anchor.new_lines)
        two_points = not anchor.new_lines and bool(swaps) and not swaps[-1].old_lines
        if end > floor or (end == floor and two_points) or not holds(old, anchor.new_lines, at):
            skipped.append(index)  # overlapping, or two insertion points at one line
            continue
        swap = Hunk(at, list(anchor.new_lines), at, list(anchor.old_lines))
        text = apply_hunks(text, [swap], {0})
        swaps.append(swap)
        floor = at
    return text, list(reversed(swaps)), skipped


def apply(text: str, anchor: Anchor, hint: int | None = None) -> str | None:
    """``text`` with a held hunk carried out: its old lines found and the new ones put in.

    ``hint`` defaults to ``anchor.old_hint`` (the held lines sit in the old text), else
    ``anchor.hint``; the advice on shifting it in ``revert`` holds here too. None when the old
    lines cannot be found for certain.
    """
    where = _default_hint(anchor, applied=False) if hint is None else hint
    return _swap(text, anchor, anchor.old_lines, anchor.new_lines, where)


def block_range(text: str, block_start: int, block_len: int) -> Range:
    """The LSP range of lines ``[block_start, block_start + block_len)`` of ``text``.

    It ends at the end of the last line's content, not at the start of the next line, so a
    diagnostic never spills onto a line outside the hunk. An empty block is an empty range at
    its line; one after the last line (an insertion at the end) is clamped to the end of the
    text, since some editors reject positions past it. Raises ``ValueError`` for lines outside
    the text: a caller bug, as ``locate`` only returns lines inside it.
    """
    index = LineIndex(text)
    if block_start < 0 or block_len < 0 or block_start + block_len > index.line_count:
        raise ValueError(f"lines {block_start}+{block_len} are outside the text")
    if block_len == 0:
        if block_start == index.line_count:
            last = index.line_count - 1
            point = Position(line=last, character=utf16_len(index.line_text(last)))
        else:
            point = Position(line=block_start, character=0)
        return Range(start=point, end=Position(line=point["line"], character=point["character"]))
    last = block_start + block_len - 1
    end = Position(line=last, character=utf16_len(index.line_text(last)))
    return Range(start=Position(line=block_start, character=0), end=end)


def current_range(
    text: str, anchor: Anchor, applied: bool, hint: int | None = None
) -> Range | None:
    """Where the hunk's lines are in ``text`` now: its new lines if ``applied``, else its old
    ones; None when they cannot be found for certain (then they cannot be decided either)."""
    block = anchor.new_lines if applied else anchor.old_lines
    where = _default_hint(anchor, applied) if hint is None else hint
    at = locate(text, block, anchor, where)
    return None if at is None else block_range(text, at, len(block))
