"""``acp-editor state``: what is kept for each workspace root, and ``state clean``: removing
it. Prints to stdout (a command of its own, never the language server) and asks nothing."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from acp_editor.services.retention import inventory, pruning
from acp_editor.services.retention.pruning import plural
from acp_editor.storage import state_dir

if TYPE_CHECKING:
    from acp_editor.services.retention.inventory import Kept
    from acp_editor.services.retention.pruning import Removal


def show(as_json: bool = False, out: TextIO = sys.stdout) -> int:
    found = inventory.everything()
    if as_json:
        out.write(json.dumps([_entry(k) for k in found], indent=2) + "\n")
        return 0
    total = sum(k.size for k in found)
    roots = f"{len(found)} workspace root{'' if len(found) == 1 else 's'}"
    out.write(f"{state_dir()}: {human(total)} kept for {roots}\n")
    for kept in found:
        out.write(f"\n{_where(kept.root, kept.key)}\n  {_summary(kept)}\n")
        if kept.problem:
            out.write(f"  (the store could not be read: {kept.problem})\n")
        for worktree in kept.worktrees:
            changed = f", last changed {_when(worktree.changed)}" if worktree.changed else ""
            out.write(
                f"  worktree of session {worktree.session}: {human(worktree.size)}{changed}"
                f" ({worktree.home / 'tree'})\n"
            )
    return 0


def _summary(kept: Kept) -> str:
    exists = {True: "exists", False: "folder gone", None: "folder unknown"}[kept.exists]
    turns = f"{plural(len(kept.sessions), 'session')}, {plural(len(kept.turns), 'turn')}"
    if kept.turns:
        turns += f" ({_when(kept.turns[0].when)} to {_when(kept.turns[-1].when)})"
    parts = [exists, human(kept.size), turns, plural(kept.pending, "pending review hunk")]
    if kept.groups:
        parts.append(plural(kept.groups, "pending review group"))
    paths = _size(kept.paths_file)  # the worktrees: a line each, below
    if paths is not None:
        parts.append(f"which files turns changed ({human(paths)})")
    return "; ".join(parts)


def _entry(kept: Kept) -> dict[str, Any]:
    def iso(t: float) -> str:
        return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")

    return {
        "key": kept.key,
        "root": str(kept.root) if kept.root is not None else None,
        "exists": kept.exists,
        "bytes": kept.size,
        "sessions": kept.sessions,
        "turns": len(kept.turns),
        "oldest": iso(kept.turns[0].when) if kept.turns else None,
        "newest": iso(kept.turns[-1].when) if kept.turns else None,
        "pendingReview": kept.pending,
        "pendingGroups": kept.groups,
        "heldTrees": kept.held,
        "lastSession": kept.last_session,
        "store": str(kept.store) if kept.store.is_dir() else None,
        "worktrees": [
            {
                "session": w.session,
                "path": str(w.home / "tree"),
                "bytes": w.size,
                "lastChanged": iso(w.changed) if w.changed else None,
            }
            for w in kept.worktrees
        ],
        "turnPathsBytes": _size(kept.paths_file),
    }


def _size(path: Path) -> int | None:
    """The size of a file kept (None: there is none)."""
    try:
        return path.stat().st_size
    except OSError:
        return None


@dataclass(frozen=True)
class Clean:
    """What ``state clean`` was asked to remove."""

    roots: Sequence[str] = ()
    all_missing: bool = False
    sessions: Sequence[str] = ()
    prune: bool = False
    everything: bool = False
    dry_run: bool = False


def clean(asked: Clean, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Remove what ``asked`` names, printing each removal; 1 when a root named has nothing
    kept (the rest is still done)."""
    chosen, unknown = _chosen(asked)
    done: list[Removal] = []
    for key, why in chosen.items():
        removal = pruning.remove(key, asked.dry_run, why)
        if removal is None:
            out.write(f"skipped {key}: another acp-editor is pruning it\n")
        else:
            done.append(removal)
    notes: list[str] = []
    for session in asked.sessions:
        done += pruning.forget_session(session, asked.dry_run)
        notes += [
            f"kept the worktree of session {session}: {w.home / 'tree'} (work not brought back "
            "goes only when you discard it: the editor's acp.discardWorktree)\n"
            for w in inventory.worktrees_of(session)
        ]
    if asked.prune:
        done += pruning.prune_all(force=True, dry_run=asked.dry_run)
    verb = "would remove" if asked.dry_run else "removed"
    for removal in done:
        size = f" ({human(removal.freed)})" if removal.freed else ""
        out.write(f"{verb} {_where(removal.root, removal.key)}: {removal.what}{size}\n")
    out.write(_total(done, asked.dry_run) + "\n")
    out.writelines(notes)
    for raw in unknown:
        err.write(f"acp-editor state clean: nothing is kept for {raw}\n")
    return 1 if unknown else 0


def _total(done: list[Removal], dry_run: bool) -> str:
    if not done:
        return "nothing to remove"
    total = human(sum(r.freed or 0 for r in done))
    if not any(r.freed is None for r in done):
        return f"{'would free' if dry_run else 'freed'} {total}"
    if dry_run:
        return f"would free {total}, and what packing the rest frees"
    return f"freed {total}; the objects only dropped turns held go with the next prune (--prune)"


def _chosen(asked: Clean) -> tuple[dict[str, str], list[str]]:
    """The keys to remove whole (with why), and the roots named that have nothing kept. A root
    is a folder, gone or not, or the name ``acp-editor state`` shows for one it cannot name."""
    keys = inventory.all_keys()
    if asked.everything:
        return dict.fromkeys(keys, "asked"), []
    chosen: dict[str, str] = {}
    unknown: list[str] = []
    for raw in asked.roots:
        key = inventory.key_of(Path(raw).expanduser().resolve())
        found = next((k for k in (key, raw) if k in keys), None)
        if found is not None:
            chosen[found] = "asked"
        else:
            unknown.append(raw)
    if asked.all_missing:
        gone = [k.key for k in inventory.everything() if k.exists is False]
        chosen.update({k: "its folder is gone" for k in gone if k not in chosen})
    return chosen, unknown


def _where(root: Path | None, key: str) -> str:
    return str(root) if root is not None else f"{key} (its folder unknown)"


def _when(t: float) -> str:
    return datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


def human(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"
