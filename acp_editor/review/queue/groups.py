"""Bulk changes: the many files one command changed at once, reviewed as one item.

An ``npm install`` into a folder that is not ignored, a code generator, an unpacked archive: a
hunk per file would bury the editor (thousands of diagnostics and follow jumps) and the user
(nobody reviews 20,000 hunks one by one). When one look finds ``GROUP_AT`` changed files or more
in one folder, those files become a ``ReviewGroup`` (``split``): its counts, accepted or rejected
as one, its files listed on demand. What a group keeps of each file is the blob ids the
checkpoints gave it (``services.git.checkpoints``), not its text: rejecting a group puts back the
bytes of the checkpoint before (``review.queue.bulk``), and only for files that still hold what the
command left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from acp_editor.text.positions import path_to_uri

if TYPE_CHECKING:
    from acp_editor.services.git.checkpoints import Change

GROUP_AT = 25
"""Changed files in one folder, found in one look, from which they are one item to review. A
hunk per file is still readable below it; above it the files are a burst, not edits to read."""

FEW = 5
"""Files left beside a subfolder's group: fewer stay single (an edit next to a generator's
output), as many or more make the folder above one group with the subfolder's."""

GroupState = Literal["pending", "accepted", "rejected"]
FileKind = Literal["created", "deleted", "changed"]


@dataclass(frozen=True)
class GroupFile:
    """One file of a group: its blob before the group (None: it did not exist), its mode then,
    and its blob when last found (None: deleted)."""

    before: str | None
    mode: str | None
    after: str | None

    @property
    def kind(self) -> FileKind:
        return "created" if self.before is None else "deleted" if self.after is None else "changed"


@dataclass(eq=False)
class ReviewGroup:
    group_id: str
    session_id: str
    tool_call_id: str | None
    root: str
    """The checkpointed root its files are under (their names are relative to it)."""
    folder: str
    files: dict[str, GroupFile] = field(default_factory=dict)
    """Path relative to ``root`` (POSIX) -> what it was and is."""
    trees: set[str] = field(default_factory=set)
    """The checkpoints holding the files' old blobs (kept named while the group is pending)."""
    state: GroupState = "pending"
    message: str | None = None
    reported: bool = False
    """The agent was told it was rejected."""
    sessions: list[str] = field(default_factory=list)
    """Every session that may have made it, when which one did is not certain (turns of
    several ran then: ``review.finding.attribution``); empty: ``session_id`` did."""
    _folders: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    """Folder of ``files`` (relative, POSIX, "" for the root) -> how many: what a later look
    of the burst needs of them, kept as they change (``files`` changes through the methods
    below only)."""

    def __post_init__(self) -> None:
        for rel in self.files:
            folder = folder_of(rel)
            self._folders[folder] = self._folders.get(folder, 0) + 1

    def add(self, changes: Iterable[Change], tree: str) -> None:
        """Fold a look's changes in: a file seen before keeps what it was before the group."""
        self.trees.add(tree)
        for change in changes:
            rel = relative(change.path, self.root)
            known = self.files.get(rel)
            first = known if known is not None else GroupFile(change.old, change.old_mode, None)
            now = GroupFile(first.before, first.mode, change.new)
            if now.before == now.after:  # made and removed again, or put back: nothing to review
                self._pop(rel)
            else:
                self._put(rel, now)

    def take(self, other: ReviewGroup, paths: Iterable[Path]) -> None:
        """Files of ``other``, a group of the same burst, become this one's as they were (and
        the checkpoints holding their old blobs with them)."""
        for path in paths:
            rel = relative(path, self.root)
            entry = other._pop(rel)
            if entry is not None:
                self._put(rel, entry)
        self.trees |= other.trees

    def keep_only(self, rels: Iterable[str]) -> None:
        """Its files are only ``rels`` (of its own) from now on."""
        kept = {rel: self.files[rel] for rel in rels}
        for rel in [rel for rel in self.files if rel not in kept]:
            self._pop(rel)

    def in_folder(self, folder: str) -> int:
        """How many of its files are right in ``folder`` (relative to its root, POSIX)."""
        return self._folders.get(folder, 0)

    def folders(self) -> list[str]:
        """The folders its files are right in (relative to its root, POSIX)."""
        return list(self._folders)

    def files_in(self, folders: set[str]) -> list[str]:
        """Its files right in ``folders`` (relative to its root, POSIX)."""
        return [rel for rel in self.files if folder_of(rel) in folders]

    def _put(self, rel: str, entry: GroupFile) -> None:
        if rel not in self.files:
            folder = folder_of(rel)
            self._folders[folder] = self._folders.get(folder, 0) + 1
        self.files[rel] = entry

    def _pop(self, rel: str) -> GroupFile | None:
        entry = self.files.pop(rel, None)
        if entry is not None:
            folder = folder_of(rel)
            left = self._folders[folder] - 1
            if left:
                self._folders[folder] = left
            else:
                del self._folders[folder]
        return entry

    def counts(self) -> dict[FileKind, int]:
        counts: dict[FileKind, int] = {"created": 0, "deleted": 0, "changed": 0}
        for entry in self.files.values():
            counts[entry.kind] += 1
        return counts

    @property
    def title(self) -> str:
        counts = self.counts()
        where = _shown_folder(self.folder, self.root)
        total = sum(counts.values())
        only = [kind for kind, n in counts.items() if n]
        files = "file" if total == 1 else "files"
        if len(only) == 1:
            word = {"created": f"new {files}", "deleted": f"{files} deleted"}
            return f"{total:,} {word.get(only[0], f'{files} changed')} in {where}"
        parts = ", ".join(f"{n:,} {kind}" for kind, n in counts.items() if n)
        return f"{total:,} {files} in {where} ({parts})"

    def view(self) -> dict[str, Any]:
        counts: dict[str, int] = {kind: n for kind, n in self.counts().items()}
        shown: dict[str, Any] = {
            "groupId": self.group_id,
            "sessionId": self.session_id,
            "toolCallId": self.tool_call_id,
            "uri": path_to_uri(self.folder),
            "path": self.folder,
            "title": self.title,
            **counts,
            "state": self.state,
        }
        if self.message:
            shown["message"] = self.message
        if self.sessions:
            shown["sessions"] = list(self.sessions)
        return shown

    def file_views(self) -> list[dict[str, Any]]:
        root = Path(self.root)
        return [
            {"uri": path_to_uri(str(root / rel)), "path": str(root / rel), "change": entry.kind}
            for rel, entry in sorted(self.files.items())
        ]

    # -- kept across restarts --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "toolCallId": self.tool_call_id,
            "root": self.root,
            "folder": self.folder,
            "trees": sorted(self.trees),
            "files": [[rel, f.before, f.mode, f.after] for rel, f in self.files.items()],
            **({"sessions": self.sessions} if self.sessions else {}),
        }

    @classmethod
    def from_json(cls, group_id: str, data: Any) -> ReviewGroup:
        """A group kept by an earlier run (``ValueError`` when the entry is not one we wrote)."""
        if not isinstance(data, dict) or not isinstance(data.get("files"), list):
            raise ValueError("not a stored group")
        files = {}
        for rel, before, mode, after in data["files"]:
            if not isinstance(rel, str) or not all(_id(v) for v in (before, mode, after)):
                raise ValueError("a stored group's file is not one we wrote")
            files[rel] = GroupFile(before, mode, after)
        call = data.get("toolCallId")
        return cls(
            group_id,
            str(data["sessionId"]),
            call if isinstance(call, str) else None,
            str(data["root"]),
            str(data["folder"]),
            files,
            {str(t) for t in data.get("trees", [])},
            sessions=[str(s) for s in data.get("sessions", [])],
        )


def _id(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.isalnum())


def relative(path: Path, root: str) -> str:
    """``path`` relative to ``root`` (POSIX), without pathlib's parsing: a burst's looks ask
    it of every file."""
    text, base = str(path), root.rstrip("/") + "/"
    if text.startswith(base):
        return text[len(base) :]
    return path.relative_to(root).as_posix()


def folder_of(rel: str) -> str:
    """The folder of a file relative to a root (POSIX, \"\" for the root itself)."""
    return rel.rpartition("/")[0]


def _shown_folder(folder: str, root: str) -> str:
    rel = Path(folder).relative_to(root).as_posix() if folder != root else ""
    return f"{rel}/" if rel else f"{Path(root).name or root}/ (the workspace's top folder)"


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
