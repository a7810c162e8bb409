"""What is kept for each workspace root, read from the state directory: its checkpoint store,
the file naming its last session (``review.finding.turn_names``), its pending review
(``review.queue.persist``), which files each turn changed (``review.finding.turn_record``:
``turn-paths/KEY.json``) and the sessions' own worktrees of a repository (``services.worktrees``:
``worktrees/KEY/<session>/``, keyed by the repository's top folder).

All are named ``<folder name>-<digest of the root's path>`` (``storage.per_root``): that
name is the key here (pending review groups: ``review/KEY-groups.json``, beside the hunks). A
key's root is read from what names it (the ``acp-root`` file this package writes into a store,
the repository a store borrows objects from, the pending review's ``root``, a worktree's
repository), and believed only when its digest gives the key back.

Those files are read here as JSON, not through the modules that write them (retention sits below
``review``); ``test_policy`` checks the paths agree.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp_editor.services.retention import plumbing
from acp_editor.services.retention.plumbing import StoreError, TurnRef
from acp_editor.storage import per_root, state_dir

_KEY = re.compile(r".+-[0-9a-f]{16}")
"""What ``per_root`` names: anything else in those folders is not ours to list."""
_KINDS = (
    ("checkpoints", ("",)),
    ("worktrees", ("",)),
    ("turns", (".json",)),
    ("turn-paths", (".json",)),
    ("review", ("-groups.json", ".json")),
)
"""Where per-root things are kept, and how their names end."""
_FOLDERS = ("checkpoints", "worktrees")
"""The kinds kept as a folder per root (the others: a file)."""
WORKTREE_FILE = "worktree.json"
"""In a worktree's folder: what it is (``services.worktrees`` writes it; ``session_key``,
``repository`` are read here)."""


@dataclass(frozen=True)
class KeptWorktree:
    """A session's own worktree (``services.worktrees``): the user's unreturned work. Kept until
    the user discards it, or its repository has been gone for 7 days."""

    session: str
    """The session key it is kept under (the folder's name when ``worktree.json`` is unreadable:
    being made, or left half made)."""
    home: Path
    """Its folder: ``git/``, ``tree/``, ``worktree.json``."""
    repository: str | None
    size: int = 0
    """Bytes on disk (0 when not measured)."""
    changed: float | None = None
    """When anything in it last changed (None when not measured, or empty)."""


ROOT_FILE = "acp-root"
"""In a store: the path of its root, for knowing the root is gone once it is."""


@dataclass
class Kept:
    """What is kept for one workspace root."""

    key: str
    root: Path | None
    """None when nothing kept names it (a store of an older version, never seen since)."""
    turns: list[TurnRef] = field(default_factory=list)
    """Oldest first."""
    held: int = 0
    """Refs of pending review groups (never pruned)."""
    pending: int = 0
    """Pending review hunks."""
    groups: int = 0
    """Pending review groups (bulk changes)."""
    last_session: str | None = None
    worktrees: list[KeptWorktree] = field(default_factory=list)
    size: int = 0
    """Bytes on disk: the store, the worktrees and the files."""
    problem: str | None = None
    """Why the store could not be read, if it could not."""

    @property
    def store(self) -> Path:
        return state_dir() / "checkpoints" / self.key

    @property
    def worktrees_dir(self) -> Path:
        return state_dir() / "worktrees" / self.key

    @property
    def paths_file(self) -> Path:
        """Which files each turn changed (``review.finding.turn_record``)."""
        return state_dir() / "turn-paths" / f"{self.key}.json"

    @property
    def last_file(self) -> Path:
        return state_dir() / "turns" / f"{self.key}.json"

    @property
    def review_file(self) -> Path:
        return state_dir() / "review" / f"{self.key}.json"

    @property
    def groups_file(self) -> Path:
        return state_dir() / "review" / f"{self.key}-groups.json"

    @property
    def files(self) -> tuple[Path, ...]:
        """The files kept beside the store."""
        return (self.last_file, self.review_file, self.groups_file, self.paths_file)

    @property
    def exists(self) -> bool | None:
        """Whether the root is still there (None: the root is not known)."""
        return None if self.root is None else os.path.isdir(self.root)

    @property
    def sessions(self) -> list[str]:
        return list(dict.fromkeys(t.session for t in self.turns))

    @property
    def last_used(self) -> float | None:
        """The last sign of use: a turn, or the last-session or review file written."""
        times = [t.when for t in self.turns]
        for path in (*self.files, self.store / "acp-index"):
            with contextlib.suppress(OSError):
                times.append(path.stat().st_mtime)
        return max(times, default=None)


def all_keys() -> list[str]:
    """Every key something is kept under."""
    found: set[str] = set()
    for kind, suffixes in _KINDS:
        try:
            entries = list(os.scandir(state_dir() / kind))
        except OSError:
            continue
        for entry in entries:
            key = _key_in(entry.name, suffixes)
            if key is not None and entry.is_dir() == (kind in _FOLDERS):
                found.add(key)
    return sorted(found)


def _key_in(name: str, suffixes: tuple[str, ...]) -> str | None:
    for suffix in suffixes:
        if name.endswith(suffix):
            key = name[: len(name) - len(suffix)]
            return key if _KEY.fullmatch(key) else None
    return None


def key_of(root: Path) -> str:
    return per_root("checkpoints", root).name


def read(key: str) -> Kept:
    """What is kept under ``key``."""
    kept = Kept(key, None)
    review, grouped = _json(kept.review_file), _json(kept.groups_file)
    hunks, groups = review.get("hunks"), grouped.get("groups")
    kept.pending = len(hunks) if isinstance(hunks, list) else 0
    kept.groups = len(groups) if isinstance(groups, list) else 0
    kept.last_session = last_session(kept)
    kept.worktrees = worktrees(kept.worktrees_dir, measure=True)
    repositories = [w.repository for w in kept.worktrees]
    kept.root = _root(kept, review.get("root"), grouped.get("root"), *repositories)
    if (kept.store / "HEAD").is_file():
        try:
            kept.turns = plumbing.turn_refs(kept.store)
            kept.held = plumbing.held_refs(kept.store)
        except StoreError as exc:
            kept.problem = str(exc)
    kept.size = plumbing.disk_usage(kept.store) + sum(_size(p) for p in kept.files)
    kept.size += sum(w.size for w in kept.worktrees)
    return kept


def last_session(kept: Kept) -> str | None:
    """The session of the root's last turn (``review.finding.turn_names`` writes it)."""
    last = _json(kept.last_file).get("lastSession")
    return last if isinstance(last, str) else None


def root_of(kept: Kept) -> Path | None:
    repositories = [w.repository for w in worktrees(kept.worktrees_dir)]
    review, groups = _json(kept.review_file).get("root"), _json(kept.groups_file).get("root")
    return _root(kept, review, groups, *repositories)


def worktrees(folder: Path, measure: bool = False) -> list[KeptWorktree]:
    """The worktrees in one repository's folder (``measure``: with their size and age, a walk
    of each, no git run: 66 ms for 20,000 files with their metadata cached, ``du -s`` 38 ms)."""
    try:
        homes = sorted(e.path for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
    found = []
    for home in map(Path, homes):
        meta = _json(home / WORKTREE_FILE)
        session, repository = meta.get("session_key"), meta.get("repository")
        worktree = KeptWorktree(
            session if isinstance(session, str) else home.name,
            home,
            repository if isinstance(repository, str) else None,
        )
        if measure:
            size, changed = _usage(home)
            worktree = KeptWorktree(worktree.session, home, worktree.repository, size, changed)
        found.append(worktree)
    return found


def worktrees_of(session: str) -> list[KeptWorktree]:
    """The worktrees kept under ``session``'s key, in every repository (not measured)."""
    try:
        folders = [Path(e.path) for e in os.scandir(state_dir() / "worktrees") if e.is_dir()]
    except OSError:
        return []
    return [w for folder in folders for w in worktrees(folder) if w.session == session]


def everything() -> list[Kept]:
    return [read(key) for key in all_keys()]


def remember(root: Path) -> None:
    """Write down, in the root's store if it has one, which root it belongs to."""
    store = state_dir() / "checkpoints" / key_of(root)
    if not (store / "HEAD").is_file():
        return
    path = store / ROOT_FILE
    try:
        if not path.is_file() or path.read_text(encoding="utf-8") != str(root):
            path.write_text(str(root), encoding="utf-8")
    except OSError as exc:
        plumbing.log.info("could not write %s: %s", path, exc)


def _root(kept: Kept, *named: object) -> Path | None:
    """``named``: the roots the review files and worktrees name."""
    candidates: list[str] = []
    with contextlib.suppress(OSError):
        candidates.append((kept.store / ROOT_FILE).read_text(encoding="utf-8").strip())
    try:
        lent = (kept.store / "objects" / "info" / "alternates").read_text(encoding="utf-8")
        candidates += [str(Path(line).parent.parent) for line in lent.splitlines() if line]
    except OSError:
        pass
    candidates += [r for r in named if isinstance(r, str)]
    for candidate in candidates:
        if candidate and os.path.isabs(candidate) and key_of(Path(candidate)) == kept.key:
            return Path(candidate)
    return None


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _usage(top: Path) -> tuple[int, float | None]:
    """Bytes ``top`` takes on disk (what ``du`` counts, symlinks not followed) and when anything
    in it last changed: one ``lstat`` per entry (``scandir`` knows which are folders)."""
    total, newest = 0, None
    folders = [top]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += st.st_blocks * 512
                newest = st.st_mtime if newest is None else max(newest, st.st_mtime)
                if entry.is_dir(follow_symlinks=False):
                    folders.append(Path(entry.path))
    return total, newest


def _size(path: Path) -> int:
    try:
        return path.lstat().st_blocks * 512
    except OSError:
        return 0
