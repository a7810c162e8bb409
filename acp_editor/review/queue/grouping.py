"""Which files of a look are one group: a burst of bulk changes told apart from edits.

When one look finds ``GROUP_AT`` changed files or more in one folder, those files are split off
to become a ``review.queue.groups.ReviewGroup`` (``split``). A look sees a burst part-way (a
command still writing, or removing folder by folder), so a later look of the same burst groups
what it found with what the burst's groups hold, counted by folder (``regroup``: a look costs
what it found), and the groups follow the burst seen whole (``arrange``): a group moves down to
a subfolder, files move between its groups.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypeVar

if TYPE_CHECKING:
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.services.git.checkpoints import Change

GROUP_AT = 25
"""Changed files in one folder, found in one look, from which they are one item to review. A
hunk per file is still readable below it; above it the files are a burst, not edits to read."""

FEW = 5
"""Files left beside a subfolder's group: fewer stay single (an edit next to a generator's
output), as many or more make the folder above one group with the subfolder's."""


def split(
    root: Path, changes: list[Change], single: Callable[[Path], bool] = lambda _path: False
) -> tuple[list[Change], dict[Path, list[Change]]]:
    """The changes of one look: those reviewed a hunk per file, and groups by folder.

    A folder's group holds the changed files in it and in its subfolders, except subfolders
    that make a group of their own (``GROUP_AT`` files or more) when fewer than ``FEW`` files
    are left beside them (those stay single); fewer than ``GROUP_AT`` left over stay single.
    ``single``: files that must stay single (they have pending hunks, which a new change
    folds into)."""
    if len(changes) < GROUP_AT:
        return changes, {}
    alone: list[Change] = []
    rest: list[_Item[Change]] = []
    for change in changes:
        if single(change.path):
            alone.append(change)
        else:
            rest.append((_below(change.path.parts, root), 1, change))
    leftover, groups = _sort_out(root, rest)
    return alone + leftover, groups


@dataclass(frozen=True, eq=False)
class Held:
    """Files a burst's group holds right in one folder, counted, not listed: a later look of
    the burst takes them into account without going through them one by one."""

    group: ReviewGroup
    folder: Path
    name: str
    """The folder relative to the group's root (POSIX, "" for the root itself)."""
    count: int

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of a path of one of its files (the name left empty)."""
        return (*self.folder.parts, "")


Unit: TypeAlias = "Change | Held"
"""What a look of a burst groups: a file it found, or files found before, counted."""


def regroup(
    root: Path, changes: list[Change], held: list[Held], single: Callable[[Path], bool]
) -> tuple[list[Change], dict[Path, list[Unit]]]:
    """``split`` of a look's ``changes`` with the ``held`` files of the burst's groups (none
    of them single), each folder of theirs as a whole. Held files left over stay where they
    are: only changes are returned single."""
    if len(changes) + sum(h.count for h in held) < GROUP_AT:
        return list(changes), {}
    alone: list[Change] = []
    rest: list[_Item[Unit]] = []
    for change in changes:
        if single(change.path):
            alone.append(change)
        else:
            rest.append((_below(change.path.parts, root), 1, change))
    rest += [(_below(h.parts, root), h.count, h) for h in held]
    leftover, groups = _sort_out(root, rest)
    return alone + [u for u in leftover if not isinstance(u, Held)], groups


T = TypeVar("T")
_Item = tuple[tuple[str, ...], int, T]
"""A file's path below the root (parts), how many files it stands for, and itself."""


def _below(parts: tuple[str, ...], root: Path) -> tuple[str, ...]:
    """The parts of a path below ``root`` (``relative_to``'s, without its parsing)."""
    top = root.parts
    if parts[: len(top)] == top:
        return parts[len(top) :]
    return Path(*parts).relative_to(root).parts


def _sort_out(root: Path, items: list[_Item[T]]) -> tuple[list[T], dict[Path, list[T]]]:
    groups: dict[Path, list[_Item[T]]] = {}
    leftover = _visit(root, 0, items, groups)
    return [i[2] for i in leftover], {f: [i[2] for i in m] for f, m in groups.items()}


def _weight(items: list[_Item[T]]) -> int:
    return sum(item[1] for item in items)


def _visit(
    folder: Path, depth: int, items: list[_Item[T]], groups: dict[Path, list[_Item[T]]]
) -> list[_Item[T]]:
    """Group ``items`` (all below ``folder``, ``depth`` parts deep); returns those left single."""
    below: dict[str, list[_Item[T]]] = {}
    here: list[_Item[T]] = []
    for item in items:
        parts = item[0]
        if len(parts) > depth + 1:
            below.setdefault(parts[depth], []).append(item)
        else:
            here.append(item)
    inner: list[Path] = []
    for name, inside in below.items():
        if _weight(inside) >= GROUP_AT:
            before = set(groups)
            here += _visit(folder / name, depth + 1, inside, groups)
            inner += [g for g in groups if g not in before]
        else:
            here += inside
    if inner and _weight(here) >= FEW:
        # A burst with subfolders of its own (a generator's output and its nested folders):
        # one group here, not a group per subfolder and the rest file by file.
        here += [item for g in inner for item in groups.pop(g)]
    if _weight(here) >= GROUP_AT:
        groups[folder] = here
        return []
    return here


Placed = tuple["ReviewGroup | None", Path, list[Unit]]
"""A group to put files in (None: a new one), its folder, and the files."""


def arrange(
    folders: dict[Path, list[Unit]],
    groups: list[ReviewGroup],
    holder: Callable[[Change], ReviewGroup | None],
) -> list[Placed]:
    """Where the groups ``regroup`` found go, when the same turn's burst has ``groups``
    already (``holder``: the one of them a file is in; their files are all in ``regroup``'s
    input as well: found, or ``Held``).

    A look sees a burst part-way (a command still writing, or removing folder by folder), and
    what one look takes for a folder's group may, seen whole, be its subfolders' groups. So the
    groups follow the burst seen whole: a folder's group is the one the burst made there
    before, else an earlier group all of whose files now go to deeper folders (it moves down,
    keeping its id), else a new one; files move to their group from the group above. A file a
    deeper group holds stays there."""
    at = {Path(g.folder).parts: g for g in groups}

    def of(unit: Unit) -> ReviewGroup | None:
        return unit.group if isinstance(unit, Held) else holder(unit)

    kept: dict[ReviewGroup, list[Unit]] = {}
    mine: dict[Path, list[Unit]] = {}
    for folder, members in sorted(folders.items()):
        mine[folder] = []
        depth = len(folder.parts)
        for unit in members:
            deeper = _deeper(unit.parts if isinstance(unit, Held) else unit.path.parts, depth, at)
            if deeper is not None:
                kept.setdefault(deeper, []).append(unit)
            else:
                mine[folder].append(unit)
    moving: dict[ReviewGroup, int] = {}
    for members in mine.values():
        for unit in members:
            group = of(unit)
            if group is not None:
                moving[group] = moving.get(group, 0) + (unit.count if isinstance(unit, Held) else 1)
    emptied = [g for g, n in moving.items() if n == len(g.files) and Path(g.folder) not in mine]
    placed: list[Placed] = []
    for folder, members in mine.items():
        into = at.get(folder.parts)
        if into is None:
            into = next((g for g in emptied if any(of(u) is g for u in members)), None)
            if into is not None:
                emptied.remove(into)
        placed.append((into, folder, members))
    placed += [(group, Path(group.folder), members) for group, members in kept.items()]
    return placed


def _deeper(
    parts: tuple[str, ...], depth: int, at: dict[tuple[str, ...], ReviewGroup]
) -> ReviewGroup | None:
    """The group of a folder between a file (``parts``) and its group's folder (``depth``
    parts), if the burst has one."""
    for end in range(len(parts) - 1, depth, -1):
        group = at.get(parts[:end])
        if group is not None:
            return group
    return None
