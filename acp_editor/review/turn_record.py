"""Which files each turn changed, kept beside its checkpoints: what undoing a turn may put back.

Undoing turn N of a session puts back the files changed since the checkpoint before it. When
other sessions ran turns meanwhile, some of those files are theirs: the record says, per turn,
the files found changed and given to the session (``changed``) and those it may have changed
with another ("either": ``shared``), so an undo leaves the other sessions' files as they are.
It is kept per root in the state directory (checkpoints outlive the sidecar, so does this): a
turn of an earlier run is undone the same way. A turn without a record (before there was one)
puts back everything, as undo always did.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp_editor.log import get_logger
from acp_editor.storage import per_root, write_atomically

log = get_logger("review.turn_record")

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


@dataclass(frozen=True)
class UndoScope:
    """What a turn's undo may put back of the files changed since its checkpoint."""

    mine: frozenset[str]
    """Files the session's turns since changed (alone or maybe with another)."""
    shared: frozenset[str]
    """Files another session changed (or may have) too: putting them back undoes that too."""
    others: frozenset[str]
    """Files only other sessions changed meanwhile: left as they are."""

    def keeps(self, path: str) -> bool:
        return path in self.others and path not in self.mine


class TurnRecord:
    """The record of every root a turn watch checkpoints (loaded once per root)."""

    def __init__(self) -> None:
        self._roots: dict[Path, dict[tuple[str, int], TurnEntry]] = {}

    async def _entries(self, root: Path) -> dict[tuple[str, int], TurnEntry]:
        entries = self._roots.get(root)
        if entries is None:
            loaded = await asyncio.to_thread(_load, root)
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
        try:
            await asyncio.to_thread(_save, root, entries)
        except OSError as exc:
            log.warning("which files turn %s changed is not kept: %s", turn, exc)

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
        return UndoScope(frozenset(mine), frozenset(shared | (mine & others)), frozenset(others))


def _path(root: Path) -> Path:
    return per_root("turn-paths", root, ".json")


def _load(root: Path) -> dict[tuple[str, int], TurnEntry]:
    try:
        data = json.loads(_path(root).read_text(encoding="utf-8"))
        entries = [_entry(item) for item in data["turns"]]
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the record of which files turns changed in %s is unreadable: %s", root, exc)
        return {}
    return {(e.session, e.turn): e for e in entries}


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


def _save(root: Path, entries: dict[tuple[str, int], TurnEntry]) -> None:
    """Merged with the file as it is now (another sidecar of the same root writes it too); this
    run's entries win, the oldest go past ``KEPT``."""
    merged = {**_load(root), **{k: e for k, e in entries.items() if e.ended is not None}}
    kept = sorted(merged.values(), key=lambda e: e.began)[-KEPT:]
    body = {"version": 1, "turns": [e.to_json() for e in kept]}
    write_atomically(_path(root), json.dumps(body))
