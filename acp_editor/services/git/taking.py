"""Taking a checkpoint: a tree of every file of the root as it is now, through the store's index
or, for a few files a file watch named, grafted onto the last one (``tree_graft``)."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

from acp_editor.log import get_logger
from acp_editor.services.git.blob_pack import PACKED_FROM, prepack
from acp_editor.services.git.repository_index import borrow_index, give_back
from acp_editor.services.git.store import CheckpointError, PrivateStore
from acp_editor.services.git.store_setup import copy_excludes
from acp_editor.services.git.tree_graft import graft
from acp_editor.storage import below

log = get_logger(__name__)

MOST_PATHSPECS = 2000
"""More changed paths than this: one walk of everything (a command's thousands of files)."""
MOST_GRAFTED = 64
"""More changed files than this: the checkpoint goes through the index (``tree_graft``)."""
_BEHIND: dict[Path, set[bytes]] = {}
"""Store -> files checkpoints took without its index since it was last written: the next
update through the index takes them too. Per store, not per object: several may share one."""
_LAST: dict[Path, str] = {}
"""Store -> the last checkpoint any object took of it in this process (a graft starts from
it, or the index makes the checkpoint)."""
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""The id git gives a tree with nothing in it."""


class Taking(PrivateStore):
    """A store's checkpoints taken (``snapshot``), and what its index knows of them."""

    async def snapshot(self, paths: set[Path] | None = None) -> str:
        """The id of a tree holding every file of the root as it is now. ``paths``: the only
        places files may have changed since the last snapshot (a file, or a folder for all it
        holds), so only they are looked at (what a file watch reported); None: everywhere."""
        async with self._lock:
            await self._ensure()
            await asyncio.to_thread(copy_excludes, self.store, self.root)
            if not (self.store / "acp-index").exists():
                await self._seed()
                paths = None
            where = self._pathspecs(paths) if self._tree is not None else None
            if where == []:
                return self._tree or ""  # nothing changed since the last one
            grafted = await self._graft(paths) if where is not None else None
            if grafted is not None:
                self._tree = _LAST[self.store] = grafted
                return grafted
            behind = set(_BEHIND.get(self.store, ()))
            listed = await self._listed(where) + b"".join(p + b"\0" for p in behind)
            update, drop, files = await asyncio.to_thread(self._sort, listed)
            if drop:  # first: a file that is a folder now leaves before what is in it comes
                await self._git("update-index", "--force-remove", "-z", "--stdin", stdin=drop)
            if update:
                many = len(files) >= PACKED_FROM
                packed = many and await asyncio.to_thread(
                    prepack, self.root, files, self.size_limit, self._env()
                )
                # Packed ahead, update-index finds each blob stored (it still reads and stats
                # every file itself); if fast-import failed, every file "big": a pack all the same.
                big = ["-c", "core.bigFileThreshold=1"] if many and not packed else []
                await self._git(
                    *big, "update-index", "--add", "--remove", "-z", "--stdin", stdin=update
                )
            self._tree = (await self._git("write-tree")).decode().strip()
            _BEHIND.get(self.store, set()).difference_update(behind)
            _LAST[self.store] = self._tree
            return self._tree

    async def _graft(self, paths: set[Path] | None) -> str | None:
        """The checkpoint made from the last one and ``paths``, which must be a few files
        (``services.git.tree_graft``), when no other object changed the store since; else None."""
        if not paths or len(paths) > MOST_GRAFTED or self._tree is None:
            return None
        if _LAST.get(self.store, self._tree) != self._tree:
            return None  # another object's checkpoint came after ours: the index knows it
        own = below(self.root)
        names = []
        for path in paths:
            if own is not None and path.is_relative_to(own):
                continue
            if path == self.root:
                return None
            if path.is_relative_to(self.root):  # a path elsewhere is not this store's
                names.append(os.fsencode(path.relative_to(self.root)))
        if not names:
            return self._tree
        try:
            made = await graft(self._git, self.root, self._tree, names, self.size_limit)
        except CheckpointError as exc:
            log.info("a checkpoint of %d file(s) goes through the index: %s", len(names), exc)
            return None
        if made is None:
            return None
        _BEHIND.setdefault(self.store, set()).update(made[1])
        return made[0]

    async def seed(self) -> bool:
        """The first checkpoint's index made ready without taking the checkpoint (a
        repository's, borrowed: ``_seed``): whether the store has an index now, whose files
        ``git ls-files`` can list before any checkpoint is taken."""
        async with self._lock:
            await self._ensure()
            await asyncio.to_thread(copy_excludes, self.store, self.root)
            if not (self.store / "acp-index").exists():
                await self._seed()
            return (self.store / "acp-index").exists()

    async def _listed(self, where: list[str] | None) -> bytes:
        """The paths that may differ from the index (everywhere, or at ``where`` only): files
        changed or gone (``diff-files``), and new ones (``ls-files --others``), asked at once.
        ``ls-files --modified`` stats every file of the index whatever pathspec it is given
        (135 ms at 100,000 files against 13 ms for one path), and one git doing both walks
        one after the other took 215 ms there against about 85 ms for the two side by side."""
        specs = ["--", *where] if where is not None else []
        changed, others = await asyncio.gather(
            self._changed(specs),
            self._git("ls-files", "-z", "--others", "--exclude-standard", *specs),
        )
        return changed + others

    async def _changed(self, specs: list[str]) -> bytes:
        try:
            return await self._git("diff-files", "-z", "--name-only", "--no-renames", *specs)
        except CheckpointError:
            # diff-files gives up on a file that shrinks while it reads it (an agent writing
            # it right then); ls-files counts that file as changed and goes on.
            return await self._git("ls-files", "-z", "--modified", "--deleted", *specs)

    def _pathspecs(self, paths: set[Path] | None) -> list[str] | None:
        """``paths`` as pathspecs below the root (literal: names are not patterns), or None
        when the look must be everywhere: not known, or so many that a walk costs less."""
        if paths is None:
            return None
        found: set[str] = set()
        for path in paths:
            if path == self.root:
                return None
            if path.is_relative_to(self.root):  # a name is a name, never a pattern
                found.add(":(literal)" + path.relative_to(self.root).as_posix())
        if len(found) > MOST_PATHSPECS:
            return None
        return sorted(found)

    async def _seed(self) -> None:
        """Start from the repository's own index (see the module docstring), when it is safe."""
        try:
            why = await borrow_index(self.root, self.store, self._git)
        except (OSError, CheckpointError) as exc:
            why = str(exc)
        if why is not None:
            log.info("the first checkpoint of %s reads every file: %s", self.root, why)
            await asyncio.to_thread(give_back, self.store)

    def _sort(self, listed: bytes) -> tuple[bytes, bytes, list[bytes]]:
        """Paths to add or remove, paths to drop although they exist (too large, or no longer a
        plain file), and the regular files among the first (the blobs the update stores)."""
        root = os.fsencode(self.root) + b"/"  # bytes all along: no Path made for each name
        own = below(self.root)  # the state directory (excluded, but an older index holds it)
        ours = os.fsencode(own) + b"/" if own is not None else None
        update: list[bytes] = []
        drop: list[bytes] = []
        files: list[bytes] = []
        for raw in dict.fromkeys(p for p in listed.split(b"\0") if p):
            if ours is not None and raw.startswith(ours):
                continue
            try:
                info = os.lstat(root + raw)
            except OSError:
                update.append(raw)  # gone: --remove drops it
                continue
            if info.st_size > self.size_limit:
                drop.append(raw)
            elif stat.S_ISREG(info.st_mode):
                update.append(raw)
                files.append(raw)
            else:
                (update if stat.S_ISLNK(info.st_mode) else drop).append(raw)
        return b"".join(p + b"\0" for p in update), b"".join(p + b"\0" for p in drop), files

    def started(self) -> bool:
        """Whether a first checkpoint was taken (the next ones read only what changed)."""
        return (self.store / "acp-index").exists()

    async def stamped_since(self, when_ns: int) -> list[Path]:
        """Files the last checkpoint took with a modification time from ``when_ns`` on
        (nanoseconds since the epoch): what changed while a slow first checkpoint was taken."""
        out = await self._git("ls-files", "-z", "--debug")
        found = []
        parts = out.split(b"\0")
        name = parts[0]
        for block in parts[1:]:
            lines = block.split(b"\n")  # ctime, mtime, dev/ino, uid/gid, size; then a name
            stamp = lines[1].split(b":", 1)[1].strip().split(b":") if len(lines) > 1 else []
            known = len(stamp) == 2 and all(p.isdigit() for p in stamp)
            if known and int(stamp[0]) * 10**9 + int(stamp[1]) >= when_ns:
                found.append(self.root / os.fsdecode(name))
            name = lines[-1]
        return found
