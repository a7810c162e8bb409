"""Pruning what is kept (``policy`` says what undo still needs), in the background or asked
for; removing everything kept for a root; forgetting a deleted session's checkpoints.

A pass takes each store in turn, under a lock of its own (``plumbing.locked``: another sidecar
pruning it is left alone), at most once a day. It deletes the refs of turns undo no longer
needs, then packs the refs left and what is still reachable, and removes what is not (objects
younger than a day stay: ``plumbing.EXPIRY``). Bookkeeping lives in ``<state>/retention/``:
``KEY.lock``, ``KEY.pruned`` (its time: the last pass; its text: the turns kept then) and
``KEY.missing`` (its time: when the root was first found gone).

A gone root's things go whole: its store, its files, its sessions' worktrees. A worktree whose
repository is there is never touched here (it holds work not brought back yet), nor is a
deleted session's: the user discards it.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from acp_editor.services.retention import inventory, plumbing, policy
from acp_editor.services.retention.inventory import Kept
from acp_editor.services.retention.plumbing import StoreError, TurnRef, log, session_ref
from acp_editor.storage import state_dir, write_atomically

START_DELAY = 30.0
"""Seconds after the server starts before the first pass: the editor and the agent first."""


@dataclass(frozen=True)
class Removal:
    """Something removed (or that would be, in a dry run)."""

    key: str
    root: Path | None
    what: str
    freed: int | None
    """Bytes freed on disk; None when not known (a dry run of pruning)."""


def prune_all(
    roots: Sequence[Path] = (),
    *,
    limits: policy.Limits | None = None,
    now: float | None = None,
    force: bool = False,
    dry_run: bool = False,
    stop: threading.Event | None = None,
) -> list[Removal]:
    """One pass over everything kept. ``roots``: the roots in use (their stores learn their
    root); ``force``: even a store pruned less than a day ago; ``stop``: end after the store
    at hand."""
    for root in roots:
        inventory.remember(root)
    done: list[Removal] = []
    for key in inventory.all_keys():
        if stop is not None and stop.is_set():
            break
        try:
            done += _pass(key, limits or policy.Limits(), now or time.time(), force, dry_run)
        except (OSError, StoreError) as exc:
            log.warning("could not prune what is kept for %s: %s", key, exc)
    return done


def _pass(key: str, limits: policy.Limits, now: float, force: bool, dry_run: bool) -> list[Removal]:
    with plumbing.locked(_marker(key, "lock")) as ours:
        if not ours:
            log.info("another acp-editor is pruning %s", key)
            return []
        if not force and now - _mtime(_marker(key, "pruned")) < limits.every:
            return []
        kept = inventory.read(key)
        if policy.fate(kept, _missing_since(kept, now, dry_run), now, limits) == "remove":
            return [_remove(kept, dry_run, "its folder is gone" if kept.root else "unused")]
        return _prune(kept, limits, now, dry_run)


def _prune(kept: Kept, limits: policy.Limits, now: float, dry_run: bool) -> list[Removal]:
    """Drop the turns undo no longer needs, then pack and prune objects when anything
    changed since the last pass (``KEY.pruned`` says how many turns it left)."""
    if not (kept.store / "HEAD").is_file() or kept.problem is not None:
        return []
    gone = policy.doomed(kept.turns, kept.last_session, now, limits)
    if dry_run:
        return [Removal(kept.key, kept.root, plural_turns(gone), None)] if gone else []
    before = plumbing.disk_usage(kept.store)
    plumbing.delete(kept.store, gone)
    pruned = _marker(kept.key, "pruned")
    changed = _text(pruned) != f"{len(kept.turns)}\n"  # turns added or deleted since
    dropped = set(gone)
    left = [t for t in kept.turns if t not in dropped]
    pruned.write_text(f"{len(left)}\n", encoding="utf-8")  # first: a failing store waits a day
    if gone or changed or plumbing.loose_objects(kept.store) > 0:
        plumbing.pack_refs(kept.store, left)
        plumbing.pack_and_prune(kept.store)
    freed = before - plumbing.disk_usage(kept.store)
    if not gone and freed <= 0:
        return []
    what = "objects no checkpoint needs, the rest packed"
    return [Removal(kept.key, kept.root, f"{plural_turns(gone)}, {what}" if gone else what, freed)]


def remove(key: str, dry_run: bool = False, why: str = "asked") -> Removal | None:
    """Everything kept under ``key``; None when another acp-editor is pruning it."""
    with plumbing.locked(_marker(key, "lock")) as ours:
        return _remove(inventory.read(key), dry_run, why) if ours else None


def _remove(kept: Kept, dry_run: bool, why: str) -> Removal:
    parts = [plural_turns(kept.turns)]
    if kept.pending:
        parts.append(plural(kept.pending, "pending review hunk"))
    if kept.groups:
        parts.append(plural(kept.groups, "pending review group"))
    if kept.last_session is not None:
        parts.append("its last session")
    if kept.paths_file.exists():
        parts.append("which files its turns changed")
    if kept.worktrees:
        sessions = ", ".join(w.session for w in kept.worktrees)
        parts.append(f"{plural(len(kept.worktrees), 'session worktree')} ({sessions})")
    if not dry_run:
        for folder in (kept.store, kept.worktrees_dir):
            if folder.is_symlink():
                folder.unlink()  # the link, never what it points to
            elif folder.is_dir():
                shutil.rmtree(folder)
        for path in (*kept.files, _marker(kept.key, "pruned")):
            path.unlink(missing_ok=True)
        _marker(kept.key, "missing").unlink(missing_ok=True)
    return Removal(kept.key, kept.root, f"everything ({why}): {', '.join(parts)}", kept.size)


def forget_session(session_id: str, dry_run: bool = False) -> list[Removal]:
    """Drop a session's checkpoints in every store (the session was deleted), the note that it
    was a root's last session and which files its turns changed. Its objects go with the next
    pass. Its worktree stays (``inventory.worktrees_of``): work not brought back goes only when
    the user discards it."""
    ref = session_ref(session_id)
    if ref == plumbing.HELD:
        log.warning("session %r is named like held review groups: its refs stay", session_id)
        return []
    done = []
    for key in inventory.all_keys():
        try:
            done += _forget(Kept(key, None), session_id, ref, dry_run)
        except (OSError, StoreError) as exc:
            log.warning("the checkpoints of session %s stay in %s: %s", session_id, key, exc)
    return done


def _forget(kept: Kept, session_id: str, ref: str, dry_run: bool) -> list[Removal]:
    turns = _session_turns(kept.store, ref)
    last = inventory.last_session(kept) == session_id
    record = _paths_record(kept.paths_file)
    turns_of = record.get("turns")
    entries = turns_of if isinstance(turns_of, list) else []
    others = [e for e in entries if not (isinstance(e, dict) and e.get("session") == session_id)]
    its = len(entries) - len(others)
    if not turns and not last and not its:
        return []
    if not dry_run:
        plumbing.delete(kept.store, turns)
        if last:
            kept.last_file.unlink(missing_ok=True)
        if its and others:
            write_atomically(kept.paths_file, json.dumps({**record, "turns": others}))
        elif its:
            kept.paths_file.unlink(missing_ok=True)
    # A turn's record goes with its checkpoint: named only when none of its checkpoints is left.
    dropped = (
        plural_turns(turns)
        if turns or not its
        else f"which files {plural(its, 'turn')} of it changed"
    )
    parts = [dropped, *(["the note it was the last session"] if last else [])]
    return [Removal(kept.key, inventory.root_of(kept), ", ".join(parts), None)]


def _paths_record(path: Path) -> dict[str, object]:
    """``review.finding.turn_record``'s file, ``{"version": 1, "turns": [{"session": ID,
    ...}]}``, read as JSON here: retention sits below review."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _session_turns(store: Path, ref: str) -> list[TurnRef]:
    """Its turns in ``store``, without a git run where it has none (most stores)."""
    if not (store / "HEAD").is_file():
        return []
    packed = _text(store / "packed-refs")
    if not (store / "refs" / "acp" / ref).is_dir() and f" refs/acp/{ref}/" not in packed:
        return []
    return plumbing.turn_refs(store, ref)


async def keep_pruned(
    roots: Callable[[], Sequence[str]], delay: float = START_DELAY, every: float = policy.DAY
) -> None:
    """Prune ``delay`` seconds from now, then every ``every`` seconds, in a worker thread (a
    pass runs git for minutes at worst); cancelled, it stops after the store at hand."""
    stop = threading.Event()
    try:
        while True:
            await asyncio.sleep(delay)
            await asyncio.to_thread(_background_pass, list(roots()), stop)
            delay = every
    finally:
        stop.set()


def _background_pass(roots: list[str], stop: threading.Event) -> None:
    resolved = [Path(r).resolve() for r in roots if r]
    for removal in prune_all(resolved, stop=stop):
        log.info("kept data of %s: removed %s", removal.root or removal.key, removal.what)


def _missing_since(kept: Kept, now: float, dry_run: bool) -> float | None:
    """When the root was first found gone (marked now if it just was); None while it is
    there, or not known."""
    marker = _marker(kept.key, "missing")
    if kept.exists is not False:
        if kept.exists and not dry_run:
            marker.unlink(missing_ok=True)
        return None
    if marker.exists():
        return _mtime(marker)
    if not dry_run:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    return now


def _marker(key: str, kind: str) -> Path:
    return state_dir() / "retention" / f"{key}.{kind}"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def plural_turns(turns: Sequence[TurnRef]) -> str:
    sessions = len({t.session for t in turns})
    return f"{plural(len(turns), 'turn')} of {plural(sessions, 'session')}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"
