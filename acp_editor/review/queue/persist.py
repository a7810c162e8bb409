"""Pending review survives a restart of the sidecar or the editor.

The applied hunks nobody has decided yet are written, after every change of the queue, to a file
per workspace root in the state directory (next to the turn checkpoints), and taken back into the
queue as soon as that root is known again (``review.owner.Review.open``: the editor side opens
it when the editor has said its workspace, before any agent starts). Held hunks are not kept:
they belong to a write a running agent is waiting for, and end with it. A hunk's anchor finds it
again in whatever the file holds by then, or refuses (see ``review.queue.anchor``): nothing is
guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor import jsonio
from acp_editor.log import get_logger
from acp_editor.review.queue.anchor import Anchor
from acp_editor.storage import per_root, write_atomically

if TYPE_CHECKING:
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.review_queue import ReviewQueue

log = get_logger(__name__)

VERSION = 1


def store_path(root: Path) -> Path:
    return per_root("review", root, ".json")


def groups_path(hunks: Path) -> Path:
    """Groups of bulk changes are kept next to the hunks, in a file of their own: tens of
    thousands of files are written again when a group changes, not with every hunk."""
    return hunks.with_name(hunks.stem + "-groups.json")


def to_json(hunk: ReviewHunk) -> dict[str, Any]:
    a = hunk.anchor
    return {
        "sessionId": hunk.session_id,
        "toolCallId": hunk.tool_call_id,
        "path": hunk.path,
        "hint": hunk.hint,
        "fileChange": hunk.file_change,
        "foundOnDisk": hunk.found_on_disk,
        "made": hunk.made,
        **({"sessions": list(hunk.sessions)} if hunk.sessions else {}),
        "anchor": {
            "old": list(a.old_lines),
            "new": list(a.new_lines),
            "before": list(a.before),
            "after": list(a.after),
            "hint": a.hint,
            "oldHint": a.old_hint,
        },
    }


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a list of strings")
    return tuple(value)


def from_json(data: Any) -> dict[str, Any]:
    """The keyword arguments of ``ReviewQueue.adopt`` for one stored hunk (``ValueError`` when
    the entry is not one we wrote)."""
    a = data["anchor"]
    anchor = Anchor(
        _strings(a["old"]),
        _strings(a["new"]),
        _strings(a["before"]),
        _strings(a["after"]),
        int(a["hint"]),
        int(a["oldHint"]) if a.get("oldHint") is not None else None,
    )
    return {
        "session_id": str(data["sessionId"]),
        "tool_call_id": data["toolCallId"] if isinstance(data.get("toolCallId"), str) else None,
        "path": str(data["path"]),
        "anchor": anchor,
        "hint": int(data["hint"]),
        "file_change": data.get("fileChange")
        if data.get("fileChange") in ("created", "deleted")
        else None,
        "found_on_disk": data.get("foundOnDisk") is True,
        "sessions": _strings(data.get("sessions", [])),
        # When it was made, so undoing a turn of an earlier run keeps what came before the
        # turn (a file written before this was kept counts from its reload).
        **({"made": float(data["made"])} if isinstance(data.get("made"), int | float) else {}),
    }


class PendingReview:
    """The pending review of one workspace root, on disk."""

    def __init__(self, root: Path, path: Path | None = None) -> None:
        self.root = root
        self.path = path or store_path(root)
        self._dirty = False
        self._groups_dirty = False
        self._writer: asyncio.Task[None] | None = None

    async def load_into(self, queue: ReviewQueue) -> list[ReviewHunk]:
        """Take the stored hunks back into ``queue`` (those under this root only)."""
        return queue.adopt(await self.stored())

    async def stored(self) -> list[dict[str, Any]]:
        """The stored hunks under this root, as ``ReviewQueue.adopt`` takes them."""
        try:
            raw = await asyncio.to_thread(self.path.read_text, encoding="utf-8")
            data = json.loads(raw)
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("pending review in %s could not be read: %s", self.path, exc)
            return []
        entries = data.get("hunks") if isinstance(data, dict) else None
        kept = []
        for entry in entries if isinstance(entries, list) else []:
            try:
                fields = from_json(entry)
            except (KeyError, TypeError, ValueError) as exc:
                log.warning("a stored review hunk was skipped: %s", exc)
                continue
            if Path(fields["path"]).is_relative_to(self.root):
                kept.append(fields)
        return kept

    async def stored_groups(self) -> list[dict[str, Any]]:
        """The stored groups under this root, as ``BulkReview.adopt`` takes them."""
        try:
            raw = await asyncio.to_thread(groups_path(self.path).read_text, encoding="utf-8")
            data = json.loads(raw)
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("pending review groups could not be read: %s", exc)
            return []
        entries = data.get("groups") if isinstance(data, dict) else None
        return [
            entry
            for entry in (entries if isinstance(entries, list) else [])
            if isinstance(entry, dict) and Path(str(entry.get("root"))).is_relative_to(self.root)
        ]

    def changed(self, queue: ReviewQueue, groups: bool = False) -> None:
        """The queue (its hunks, else its groups) changed: write it soon (one write for a burst
        of changes)."""
        if groups:
            self._groups_dirty = True
        else:
            self._dirty = True
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write(queue))

    async def _write(self, queue: ReviewQueue) -> None:
        while self._dirty or self._groups_dirty:
            if self._dirty:
                self._dirty = False
                pending = [
                    to_json(h) for h in queue.hunks.values() if h.state == "pending" and h.applied
                ]
                body = json.dumps({"version": VERSION, "root": str(self.root), "hunks": pending})
                await self._put(self.path, body)
            if self._groups_dirty:
                self._groups_dirty = False
                groups = [g.to_json() for g in queue.bulk.pending()]
                # orjson: a burst's groups are written again as each look adds to them (20,000
                # files: 2 ms, json.dumps 16 ms, on the event loop)
                kept = {"version": VERSION, "root": str(self.root), "groups": groups}
                await self._put(groups_path(self.path), jsonio.dumps(kept).decode())

    async def _put(self, path: Path, body: str) -> None:
        try:
            await asyncio.to_thread(write_atomically, path, body)
        except OSError as exc:
            log.warning("pending review could not be kept in %s: %s", path, exc)

    async def flush(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
