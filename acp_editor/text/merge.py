"""Three-way merge of lines: the agent's change to a file (base → theirs) brought into the text
the user has in the editor (base → ours), without losing either.

Changes to different lines both land, next to each other too. Where both sides changed the same
lines differently, or both inserted lines at the same place, that is a conflict: the merged text
keeps the user's lines there, and the conflict says where, so nothing is discarded silently.
Pure: no I/O.
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


@dataclass
class _Cluster:
    """Base lines ``[start, end)`` that one or both sides changed, with each side's regions."""

    start: int
    end: int
    ours: list[Region]
    theirs: list[Region]


def _clusters(ours: list[Region], theirs: list[Region]) -> list[_Cluster]:
    """Group the changes of both sides: regions that share a base line are one cluster, and so
    are insertions at the same place (which order they go in is not ours to guess). Changes to
    lines next to each other stay apart."""
    tagged = sorted(
        [(r.base_start, r.base_end, 0, r) for r in ours]
        + [(r.base_start, r.base_end, 1, r) for r in theirs],
        key=lambda t: (t[0], t[1]),
    )
    clusters: list[_Cluster] = []
    for start, end, side, region in tagged:
        last = clusters[-1] if clusters else None
        if last is None or not (start < last.end or start == end == last.start == last.end):
            last = _Cluster(start, end, [], [])
            clusters.append(last)
        last.end = max(last.end, end)
        (last.ours if side == 0 else last.theirs).append(region)
    return clusters


def merge3(base: str, ours: str, theirs: str) -> Merge:
    """Merge the change base → theirs into ours (see the module docstring)."""
    if ours in (base, theirs):
        return Merge(theirs, ())
    if theirs == base:
        return Merge(ours, ())
    b, o, t = (text.splitlines(keepends=True) for text in (base, ours, theirs))
    out: list[str] = []
    conflicts: list[Conflict] = []
    at = 0  # base lines before this are in ``out``
    shift_o = shift_t = 0  # how far each side's lines have moved from the base's so far
    for cluster in _clusters(_regions(b, o), _regions(b, t)):
        grow_o = sum(r.delta for r in cluster.ours)
        grow_t = sum(r.delta for r in cluster.theirs)
        mine = o[cluster.start + shift_o : cluster.end + shift_o + grow_o]
        yours = t[cluster.start + shift_t : cluster.end + shift_t + grow_t]
        out += b[at : cluster.start]
        if cluster.theirs and (not cluster.ours or mine == yours):
            out += yours
        else:
            if cluster.ours and cluster.theirs:
                base_lines = tuple(b[cluster.start : cluster.end])
                conflicts.append(Conflict(len(out), len(out) + len(mine), base_lines, tuple(yours)))
            out += mine
        at = cluster.end
        shift_o, shift_t = shift_o + grow_o, shift_t + grow_t
    out += b[at:]
    return Merge("".join(out), tuple(conflicts))


def theirs_win(merged: Merge) -> str:
    """The merged text with each conflict given to theirs: the change base → theirs applied
    to ours, replacing ours where both changed the same lines."""
    lines = merged.text.splitlines(keepends=True)
    for conflict in reversed(merged.conflicts):
        lines[conflict.start : conflict.end] = conflict.their_lines
    return "".join(lines)
