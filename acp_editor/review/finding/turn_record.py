"""Which files each turn changed, kept beside its checkpoints: what undoing a turn may put back.

Undoing turn N of a session puts back the files changed since the checkpoint before it. When
other sessions ran turns meanwhile, some of those files are theirs: the record says, per turn,
the files found changed and given to the session (``changed``) and those it may have changed
with another ("either": ``shared``), so an undo leaves the other sessions' files as they are.
An undo is recorded too (``undone``): what it put back is, for every other session's turn that
began before it, another session's change, so undoing that turn does not revert it (it is not
a turn: without this, the undone change came back with the other session's undo), and so is
the user's rejection of a session's change (``rejected``, kept as an undo of turn 0).
It is kept per root in the state directory (checkpoints outlive the sidecar, so does this): a
turn of an earlier run is undone the same way. A turn without a record (before there was one)
puts back everything, as undo always did.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp_editor.log import get_logger
from acp_editor.storage import per_root, write_atomically

log = get_logger(__name__)

KEPT = 500
"""Turns kept per root, the newest: an undo reaches back a few turns, rarely more."""


@dataclass
class TurnEntry:
    session: str
    turn: int
    began: float
    ended: float | None = None
    """None while it runs (or its run ended before it did)."""
    changed: set[str] = field(default_factory=set)
    shared: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "turn": self.turn,
            "began": self.began,
            "ended": self.ended,
            "changed": sorted(self.changed),
            "shared": sorted(self.shared),
        }


@dataclass
class UndoEntry:
    """An undo of one of ``session``'s turns, ``at`` a time, and the files it put back."""

    session: str
    turn: int
    at: float
    paths: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "turn": self.turn,
            "at": self.at,
            "paths": sorted(self.paths),
        }


@dataclass(frozen=True)
class UndoScope:
    """What a turn's undo may put back of the files changed since its checkpoint."""

    mine: frozenset[str]
    """Files the session's turns since changed (alone or maybe with another)."""
    shared: frozenset[str]
    """Files another session changed (or may have) too: putting them back undoes that too."""
    others: frozenset[str]
    """Files other sessions changed meanwhile (their turns, their undos): left as they are
    unless the session's turns changed them too."""

    began: float = 0.0
    """When the turn began: what was recorded since is what its undo takes away."""

    def keeps(self, path: str) -> bool:
        return path in self.others and path not in self.mine


class TurnRecord:
    """The record of every root a turn watch checkpoints (loaded once per root)."""

    def __init__(self) -> None:
        self._roots: dict[Path, dict[tuple[str, int], TurnEntry]] = {}
        self._undos: dict[Path, list[UndoEntry]] = {}

    async def _entries(self, root: Path) -> dict[tuple[str, int], TurnEntry]:
        entries = self._roots.get(root)
        if entries is None:
            loaded, undos = await asyncio.to_thread(_load, root)
            self._undos.setdefault(root, undos)
            entries = self._roots.setdefault(root, loaded)
        return entries

    async def began(self, root: Path, session: str, turn: int) -> None:
        (await self._entries(root))[(session, turn)] = TurnEntry(session, turn, time.time())

    def changed(self, root: Path, session: str, turn: int, paths: list[str], shared: bool) -> None:
        entry = self._roots.get(root, {}).get((session, turn))
        if entry is not None:
            (entry.shared if shared else entry.changed).update(paths)

    async def ended(self, root: Path, session: str, turn: int) -> None:
        """The turn is over: its entry is kept on disk (with what other runs wrote meanwhile)."""
        entries = await self._entries(root)
        entry = entries.get((session, turn))
        if entry is None:
            return
        entry.ended = time.time()
        await self._save(root, f"which files turn {turn} changed")

    async def undone(self, root: Path, session: str, turn: int, paths: list[str]) -> None:
        """``session``'s turn ``turn`` was undone: ``paths`` are back as before it. For the
        other sessions' turns running or begun before now, that is another session's change."""
        await self._entries(root)
        self._undos[root].append(UndoEntry(session, turn, time.time(), set(paths)))
        await self._save(root, f"what the undo of turn {turn} put back")

    async def rejected(self, session: str, paths: list[str], roots: Iterable[Path] = ()) -> None:
        """The user rejected ``session``'s changes of ``paths``: like an undo, a change to the
        files for every other session's turn begun before now, so undoing such a turn leaves
        them as the rejection left them."""
        await self.outside_turns(session, paths, "what a rejection put back", roots)

    async def outside_turns(
        self, session: str, paths: list[str], what: str, roots: Iterable[Path] = ()
    ) -> None:
        """``paths`` changed for ``session`` outside its turns (its changes rejected, its
        worktree's changes brought back): for every other session's turn begun before now,
        another session's change, left as it is by that turn's undo. Recorded in each root
        this run keeps a record of, and in ``roots`` (turns of an earlier run began there)."""
        for root in roots:
            await self._entries(root)  # loaded: kept with its record on disk
        for root in list(self._roots):
            inside = [p for p in paths if Path(p).is_relative_to(root)]
            if inside:
                self._undos[root].append(UndoEntry(session, 0, time.time(), set(inside)))
                await self._save(root, what)

    async def _save(self, root: Path, what: str) -> None:
        try:
            await asyncio.to_thread(_save, root, self._roots[root], self._undos[root])
        except OSError as exc:
            log.warning("%s is not kept: %s", what, exc)

    def forget(self, session: str) -> None:
        """A deleted session: its entries go (``services.retention`` drops them on disk; this
        run must not write them back at the next turn's end)."""
        for entries in self._roots.values():
            for key in [k for k in entries if k[0] == session]:
                del entries[key]

    async def scope(self, root: Path, session: str, turn: int) -> UndoScope | None:
        """What undoing ``turn`` may put back in ``root``; None: no record of it (all of it)."""
        entries = await self._entries(root)
        first = entries.get((session, turn))
        if first is None:
            return None
        mine: set[str] = set()
        shared: set[str] = set()
        others: set[str] = set()
        for entry in entries.values():
            if entry.session == session and entry.turn >= turn:
                mine |= entry.changed | entry.shared
                shared |= entry.shared
            elif entry.session != session and (entry.ended or time.time()) >= first.began:
                others |= entry.changed | entry.shared
        for undo in self._undos.get(root, []):
            if undo.session != session and undo.at >= first.began:
                others |= undo.paths
        shared |= mine & others
        return UndoScope(frozenset(mine), frozenset(shared), frozenset(others), first.began)


def _path(root: Path) -> Path:
    return per_root("turn-paths", root, ".json")


def _load(root: Path) -> tuple[dict[tuple[str, int], TurnEntry], list[UndoEntry]]:
    try:
        data = json.loads(_path(root).read_text(encoding="utf-8"))
        entries = [_entry(item) for item in data["turns"]]
        undos = [_undo(item) for item in data.get("undos", [])]  # none before there were
    except FileNotFoundError:
        return {}, []
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("the record of which files turns changed in %s is unreadable: %s", root, exc)
        return {}, []
    return {(e.session, e.turn): e for e in entries}, undos


def _entry(item: Any) -> TurnEntry:
    ended = item["ended"]
    return TurnEntry(
        str(item["session"]),
        int(item["turn"]),
        float(item["began"]),
        float(ended) if ended is not None else None,
        {str(p) for p in item["changed"]},
        {str(p) for p in item["shared"]},
    )


def _undo(item: Any) -> UndoEntry:
    return UndoEntry(
        str(item["session"]), int(item["turn"]), float(item["at"]), {str(p) for p in item["paths"]}
    )


def _save(root: Path, entries: dict[tuple[str, int], TurnEntry], undos: list[UndoEntry]) -> None:
    """Merged with the file as it is now (another sidecar of the same root writes it too); this
    run's entries win, the oldest go past ``KEPT``."""
    on_disk, undone = _load(root)
    merged = {**on_disk, **{k: e for k, e in entries.items() if e.ended is not None}}
    kept = sorted(merged.values(), key=lambda e: e.began)[-KEPT:]
    every = {(u.session, u.turn, u.at): u for u in [*undone, *undos]}
    kept_undos = sorted(every.values(), key=lambda u: u.at)[-KEPT:]
    body = {
        "version": 1,
        "turns": [e.to_json() for e in kept],
        "undos": [u.to_json() for u in kept_undos],
    }
    write_atomically(_path(root), json.dumps(body))
