"""Three-way merge of lines: the agent's change to a file (base → theirs) brought into the text
the user has in the editor (base → ours), without losing either.

Changes that do not touch each other both land. Where both sides changed the same lines (or
lines next to each other) differently, that is a conflict: the merged text keeps the user's lines
there, and the conflict says where, so nothing is discarded silently. Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher


@dataclass(frozen=True)
class Region:
    """Lines ``base[base_start:base_end]`` became ``side[side_start:side_end]``."""

    base_start: int
    base_end: int
    side_start: int
    side_end: int

    @property
    def delta(self) -> int:
        return (self.side_end - self.side_start) - (self.base_end - self.base_start)


@dataclass(frozen=True)
class Conflict:
    """Where both sides changed the same lines: 0-based line ranges (end exclusive) in the
    merged text (which holds the user's lines there), the base and the agent's text."""

    start: int
    end: int
    base_lines: tuple[str, ...]
    their_lines: tuple[str, ...]


@dataclass(frozen=True)
class Merge:
    text: str
    conflicts: tuple[Conflict, ...]


def _regions(base: list[str], side: list[str]) -> list[Region]:
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    return [
        Region(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def _clusters(ours: list[Region], theirs: list[Region]) -> list[tuple[int, int]]:
    """Base ranges where either side changed something; ranges that overlap or touch are one."""
    spans = sorted([(r.base_start, r.base_end) for r in ours + theirs])
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def _side(regions: list[Region], start: int, end: int) -> tuple[int, int, bool]:
    """The side's line range for base ``[start, end)``, and whether it changed anything there."""
    before = sum(r.delta for r in regions if r.base_end < start)
    inside = [r for r in regions if _touches(r, start, end)]
    side_start = start + before
    side_end = end + before + sum(r.delta for r in inside)
    return side_start, side_end, bool(inside)


def _touches(region: Region, start: int, end: int) -> bool:
    return region.base_start <= end and start <= region.base_end


def merge3(base: str, ours: str, theirs: str) -> Merge:
    """Merge the change base → theirs into ours (see the module docstring)."""
    if ours in (base, theirs):
        return Merge(theirs, ())
    if theirs == base:
        return Merge(ours, ())
    b, o, t = (text.splitlines(keepends=True) for text in (base, ours, theirs))
    our_regions, their_regions = _regions(b, o), _regions(b, t)
    out: list[str] = []
    conflicts: list[Conflict] = []
    at = 0  # base lines before this are in ``out``
    for start, end in _clusters(our_regions, their_regions):
        os_, oe, ours_changed = _side(our_regions, start, end)
        ts, te, theirs_changed = _side(their_regions, start, end)
        out += b[at:start]
        mine, yours = o[os_:oe], t[ts:te]
        if theirs_changed and (not ours_changed or mine == yours):
            out += yours
        else:
            if ours_changed and theirs_changed:
                conflicts.append(
                    Conflict(len(out), len(out) + len(mine), tuple(b[start:end]), tuple(yours))
                )
            out += mine
        at = end
    out += b[at:]
    return Merge("".join(out), tuple(conflicts))
