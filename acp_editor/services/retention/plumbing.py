"""git against one checkpoint store, from a worker thread or the command line: the turn refs
with their times, deleting refs, packing and pruning objects; and the lock two sidecars take
before they prune one store.

Every run has a deadline and the store's isolation (``services.git.environment``): our store as
``GIT_DIR`` and its own index, neither the system's nor the user's git settings, no work tree
(the root may be gone). A turn's time is its ref file's (``update-ref`` writes it when the turn
is checkpointed) until a pass packs the refs (a file each takes a block on disk: 4 KB, most of a
pruned store); then it is in the store's ``acp-times``. A packed ref without a time there counts
as new as ``packed-refs``: kept rather than dropped too early.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from acp_editor.log import get_logger
from acp_editor.services.git import environment

log = get_logger(__name__)

HELD = "held"
"""``refs/acp/held/...``: the trees of pending review groups. Never pruned, never deleted."""
EXPIRY = "1.day.ago"
"""Objects younger than this are never removed. A checkpoint being written right now has its
objects on disk before the ref that names it; a running turn compares with checkpoints it took
and nobody names (each look's): a day is longer than any turn, so neither is ever touched."""
TIMES = "acp-times"
"""In a store: the time of each turn whose ref is packed (``{ref: seconds since the epoch}``)."""
TIMEOUT = 60.0
MAINTENANCE_TIMEOUT = 900.0
"""Packing a store of a very large workspace may take minutes; it runs in the background."""

_TURN = re.compile(r"refs/acp/(?P<session>[^/]+)/turn-(?P<number>[0-9]+)")


class StoreError(Exception):
    """git failed on a store, took too long, or is missing."""


@dataclass(frozen=True)
class TurnRef:
    """One checkpointed turn: ``refs/acp/<session>/turn-<number>`` naming a tree."""

    ref: str
    session: str
    """The session as its refs name it (``session_ref``)."""
    number: int
    tree: str
    when: float
    """When it was checkpointed (seconds since the epoch)."""


def session_ref(session_id: str) -> str:
    """A session id as one part of a ref name: what ``review.finding.turn_names`` names turns by."""
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in session_id) or "session"
    return name if name != HELD else f"{HELD}_"  # refs/acp/held/ names pending groups' trees


def env(store: Path) -> dict[str, str]:
    # Its own index: the blobs and trees it names count as reachable.
    return environment.for_store(store, store / "acp-index")


def git(store: Path, *args: str, stdin: bytes | None = None, timeout: float = TIMEOUT) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args],
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            cwd=store,
            env=env(store),
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StoreError(f"git {args[0]} in {store}: {exc}") from exc
    if done.returncode != 0:
        err = done.stderr.decode(errors="replace").strip()
        raise StoreError(f"git {args[0]} in {store} failed: {err}")
    return done.stdout


def turn_refs(store: Path, session: str | None = None) -> list[TurnRef]:
    """The store's turns (of one session: ``session`` as ``session_ref`` gives it), oldest
    first; never a held group's."""
    prefix = f"refs/acp/{session}/" if session is not None else "refs/acp/"
    out = git(store, "for-each-ref", "--format=%(refname) %(objectname)", prefix).decode()
    packed = _mtime(store / "packed-refs")
    times = _times(store)
    found = []
    for line in out.splitlines():
        ref, _, tree = line.partition(" ")
        match = _TURN.fullmatch(ref)
        if match is None or match["session"] == HELD:
            continue
        when = _mtime(store / ref) or times.get(ref) or packed or time.time()
        found.append(TurnRef(ref, match["session"], int(match["number"]), tree, when))
    return sorted(found, key=lambda t: (t.when, t.session, t.number))


def pack_refs(store: Path, turns: list[TurnRef]) -> None:
    """All refs into ``packed-refs``, the times of ``turns`` (every turn left) kept first."""
    times = store / TIMES
    tmp = times.with_name(f"{TIMES}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({t.ref: t.when for t in turns}), encoding="utf-8")
    os.replace(tmp, times)
    git(store, "pack-refs", "--all", "--prune")


def _times(store: Path) -> dict[str, float]:
    try:
        data = json.loads((store / TIMES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float)}


def held_refs(store: Path) -> int:
    return len(git(store, "for-each-ref", "--format=%(refname)", f"refs/acp/{HELD}/").split())


def delete(store: Path, turns: list[TurnRef]) -> None:
    """Delete the refs of ``turns`` in one transaction, each only if it still names the tree
    it named when listed."""
    lines = "".join(f"delete {t.ref} {t.tree}\n" for t in turns if _deletable(t.ref))
    if lines:
        git(store, "update-ref", "--stdin", stdin=lines.encode())


def _deletable(ref: str) -> bool:
    match = _TURN.fullmatch(ref)
    return match is not None and match["session"] != HELD


def loose_objects(store: Path) -> int:
    for line in git(store, "count-objects", "-v").decode().splitlines():
        name, _, value = line.partition(": ")
        if name == "count":
            return int(value)
    return 0


def pack_and_prune(store: Path) -> None:
    """What ``git gc`` does to objects, with our expiry and only our own objects: what is
    reachable goes into one pack (``-l``: never the objects borrowed from the user's
    repository), what is not and older than ``EXPIRY`` goes (a packed one only when its pack is
    that old: writing an object that exists freshens its pack). A loose copy of an object the
    user's repository holds in a pack goes too (git's ``prune-packed``): it is read from there,
    as every object it already had is from the first checkpoint on (git writes none of those).

    The store calls every file big (a checkpoint then writes one pack, fast), which turns
    deltas off; here git's default comes back, so the versions of a file a session keeps
    changing are kept as deltas of each other (bench/retention.py: 4.0 -> 0.7 MB), on one
    core (a turn may be running)."""
    git(
        store,
        "-c",
        "core.bigFileThreshold=512m",
        "-c",
        "pack.threads=1",
        "repack",
        "-d",
        "-l",
        "-A",
        f"--unpack-unreachable={EXPIRY}",
        "-q",
        timeout=MAINTENANCE_TIMEOUT,
    )
    git(store, "prune", f"--expire={EXPIRY}", timeout=MAINTENANCE_TIMEOUT)


def disk_usage(path: Path) -> int:
    """Bytes ``path`` takes on disk (what ``du`` counts), symlinks not followed."""
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(folder, name)).st_blocks * 512
    return total


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


@contextlib.contextmanager
def locked(lock: Path) -> Iterator[bool]:
    """Hold ``lock`` (True), or say another process holds it (False) without waiting. The
    kernel lets go when the process ends, however it ends: a crash leaves no stale lock."""
    lock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)
