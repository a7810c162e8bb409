"""The groups of bulk changes (``review.queue.groups``): made, decided, and rejected on disk.

Rejecting a group puts back exactly its files, each as it was before the group: the bytes (and
mode) of the checkpoint before for files changed or deleted, nothing for files created (removed,
with the folders that held only them). A file is put back only while it still holds what the
group found (its blob id, computed here the way git does): the user, the agent or a later
command may have changed it since, and that is never overwritten. Open buffers among the files
are brought in line through the document source (merged, unsaved edits kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.log import get_logger
from acp_editor.review.queue.groups import GroupFile, ReviewGroup
from acp_editor.services.documents import umask
from acp_editor.services.git.checkpoints import Change, CheckpointError, CheckpointStore

if TYPE_CHECKING:
    from acp_editor.services.documents import DocumentSource

log = get_logger(__name__)

HELD = "held"
"""Checkpoint names (``refs/acp/held/TREE``) of the trees pending groups need."""
_WRITE_BATCH = 8 * 1024 * 1024
"""Bytes of restored files written per worker-thread hop."""

Shown = Callable[[list[ReviewGroup]], None]
Written = Callable[[Path, "str | None"], None]


class BulkReview:
    """Every group of the review queue, by id."""

    def __init__(
        self,
        documents: DocumentSource,
        written: Written,
        on_change: Shown | None = None,
        store_for: Callable[[Path], CheckpointStore] = CheckpointStore,
    ) -> None:
        self.documents = documents
        self.written = written
        """Told of every file a decision rewrote (the turn's watch must not count it)."""
        self.groups: dict[str, ReviewGroup] = {}
        self.on_change: Shown = on_change or (lambda _groups: None)
        """Told of groups made or changed (the owner's: one event to the front end)."""
        self._ids = itertools.count(1)
        self._run = secrets.token_hex(2)
        """Group ids differ from one run to the next: an editor that kept a group of the run
        before (decided, say) never takes a new one for it."""
        self._stores: dict[str, CheckpointStore] = {}
        self.store_for = store_for
        """The store of a root: the turn watch's (groups name its checkpoints), through its
        very object: one lock per index (a store made twice for a root let a group's snapshot
        interleave with a look's)."""

    def store(self, root: str) -> CheckpointStore:
        store = self._stores.get(root)
        if store is None:
            store = self._stores[root] = self.store_for(Path(root))
        return store

    async def record(
        self,
        session_id: str,
        tool_call_id: str | None,
        root: Path,
        folder: Path,
        changes: list[Change],
        tree: str,
        into: ReviewGroup | None = None,
        shared: tuple[str, ...] = (),
        moved: dict[Path, ReviewGroup] | None = None,
    ) -> ReviewGroup:
        """A look found ``changes`` (since checkpoint ``tree``) in ``folder``: a new group, or
        more of ``into`` (which moves to ``folder``); ``shared``: every session they may be of,
        when not certain; ``moved``: files of the same burst's other groups that are this
        one's now (``groups.arrange``)."""
        group = into
        if group is None:
            group_id = f"g{self._run}-{next(self._ids)}"
            group = ReviewGroup(group_id, session_id, tool_call_id, str(root), str(folder))
            self.groups[group.group_id] = group
        group.folder = str(folder)
        others: dict[ReviewGroup, list[Path]] = {}
        for path, other in (moved or {}).items():
            if other is not group:
                others.setdefault(other, []).append(path)
        for other, paths in others.items():
            group.take(other, paths)
            if not other.files:  # nothing left to decide: its files are the other's now
                other.state, other.message = "accepted", f"its files are in {group.group_id} now"
        if shared:
            group.sessions = sorted({*group.sessions, *shared})
        if tree not in group.trees:
            await self.store(group.root).keep(f"{HELD}/{tree}", tree)
        group.add(changes, tree)
        self.on_change([group, *others])
        return group

    def held(self, ids: set[str], root: Path, folders: Iterable[Path]) -> list[ReviewGroup]:
        """The pending groups ``ids`` in ``root`` (with files) that a look's changes in
        ``folders`` may join or regroup: the groups whose folder holds one of them, and the
        groups inside those (the burst seen whole there)."""
        above = {str(p) for folder in folders for p in (folder, *folder.parents)}
        burst = [g for g in self.pending() if g.group_id in ids and g.root == str(root)]
        over = {g.folder for g in burst if g.folder in above}
        return [g for g in burst if g.files and not over.isdisjoint(_up(Path(g.folder)))]

    def adopt(self, stored: list[dict[str, Any]]) -> list[ReviewGroup]:
        """Groups an earlier run left pending, with new ids."""
        made = []
        for data in stored:
            try:
                group = ReviewGroup.from_json(f"g{self._run}-{next(self._ids)}", data)
            except (KeyError, TypeError, ValueError) as exc:
                log.warning("a stored review group was skipped: %s", exc)
                continue
            self.groups[group.group_id] = group
            made.append(group)
        if made:
            self.on_change(made)
        return made

    def pending(self) -> list[ReviewGroup]:
        return [g for g in self.groups.values() if g.state == "pending"]

    async def decide(self, groups: list[ReviewGroup], accept: bool) -> list[dict[str, Any]]:
        results: list[dict[str, Any]] = []
        for group in groups:
            if group.state == "pending":
                if accept:
                    group.state, group.message = "accepted", None
                else:
                    await self._reject(group)
                if group.state != "pending":
                    await self._release(group)
            result: dict[str, Any] = {"groupId": group.group_id, "state": group.state}
            if group.state == "pending" and group.message:
                result["error"] = group.message
            results.append(result)
        if groups:
            self.on_change(groups)
        return results

    async def _reject(self, group: ReviewGroup) -> None:
        try:
            left = await self._restore(group)
        except (CheckpointError, OSError) as exc:
            group.message = f"the files could not be put back: {exc}"
            return
        if left:  # the others are back: what stays pending is what was left
            group.keep_only(left)
            group.message = (
                f"{len(left):,} of its files changed since, so they were left as they are"
                if len(left) > 1
                else "one of its files changed since, so it was left as it is"
            )
            return
        group.state, group.message = "rejected", None

    async def _restore(self, group: ReviewGroup) -> list[str]:
        """Put the group's files back; returns those left (changed since)."""
        root = Path(group.root)
        now = await asyncio.to_thread(_blob_ids, root, list(group.files))
        todo = {rel: f for rel, f in group.files.items() if now[rel] == f.after}
        left = [rel for rel in group.files if rel not in todo]
        held = self.documents.held_paths()
        texts = {rel: await _text(root / rel) for rel in todo if str(root / rel) in held}
        gone = [rel for rel, f in todo.items() if f.before is None]
        await asyncio.to_thread(_remove, root, gone)
        back = {rel: f for rel, f in todo.items() if f.before is not None}
        await self._write_back(root, back)
        for rel in todo:
            self.written(root / rel, None)  # what the disk holds now is ours
        for rel, text in texts.items():
            restored = await _text(root / rel) if rel in back else None
            await self.documents.disk_changed(root / rel, text, restored)
        return left

    async def _write_back(self, root: Path, files: dict[str, GroupFile]) -> None:
        by_blob: dict[str, list[str]] = {}
        for rel, entry in files.items():
            if entry.before is not None:
                by_blob.setdefault(entry.before, []).append(rel)
        batch: list[tuple[Path, bytes, str | None]] = []
        size = 0
        async for blob, data in self.store(str(root)).blobs(list(by_blob)):
            if data is None:
                raise CheckpointError(f"the checkpoint no longer holds {blob}")
            for rel in by_blob[blob]:
                batch.append((root / rel, data, files[rel].mode))
            size += len(data)
            if size >= _WRITE_BATCH:
                await asyncio.to_thread(_put_all, batch)
                batch, size = [], 0
        await asyncio.to_thread(_put_all, batch)

    async def _release(self, group: ReviewGroup) -> None:
        """The group is decided: its trees need not be kept for it any more."""
        needed = {t for g in self.pending() if g.root == group.root for t in g.trees}
        for tree in group.trees - needed:
            try:
                await self.store(group.root).drop(f"{HELD}/{tree}")
            except CheckpointError as exc:
                log.info("could not release checkpoint %s: %s", tree, exc)


def _up(folder: Path) -> list[str]:
    """A folder and those above it, as text."""
    return [str(folder), *map(str, folder.parents)]


def _blob_id(path: Path) -> str | None:
    """The id git gives what ``path`` holds now (None: nothing; "" for what is not a file)."""
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            data = os.fsencode(os.readlink(path))
        elif stat.S_ISREG(info.st_mode):
            data = path.read_bytes()
        else:
            return ""
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _blob_ids(root: Path, rels: list[str]) -> dict[str, str | None]:
    return {rel: _blob_id(root / rel) for rel in rels}


def _remove(root: Path, rels: list[str]) -> None:
    """Remove created files, then the folders they leave empty (up to the root, never it)."""
    parents: set[Path] = set()
    for rel in rels:
        path = root / rel
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        parents.update(p for p in path.parents if p != root and p.is_relative_to(root))
    for folder in sorted(parents, key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):  # not empty: something else lives there
            folder.rmdir()


def _put_all(batch: list[tuple[Path, bytes, str | None]]) -> None:
    mask = umask()
    for path, data, mode in batch:
        path.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            path.symlink_to(os.fsdecode(data))
            continue
        tmp = path.with_name(f".{path.name}.acp-restore-{os.getpid()}")
        tmp.write_bytes(data)
        os.chmod(tmp, (0o777 if mode == "100755" else 0o666) & ~mask)
        os.replace(tmp, path)


async def _text(path: Path) -> str | None:
    try:
        raw = await asyncio.to_thread(path.read_bytes)
        return raw.decode("utf-8") if b"\0" not in raw else None
    except (OSError, UnicodeDecodeError):
        return None
