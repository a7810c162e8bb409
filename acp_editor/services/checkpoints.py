"""Checkpoints of a workspace: what every file held at a moment, to find what changed since and
to put it back.

Built on git plumbing against a private object store (under the user's state directory, one per
workspace root), never the user's repository: a temporary index and tree objects, so the user's
index, HEAD, refs and stash are never touched, and it works as well in a folder that is not a
git repository. ``.gitignore`` files are honoured (and the repository's ``.git/info/exclude``),
files over ``SIZE_LIMIT`` are left out, and the index keeps each file's stat data, so a checkpoint
after a few changes only reads the files that changed.

The first checkpoint of a repository's top folder starts from the repository's own index
(``services.repository_index``), so it costs about what ``git status`` costs there instead of
hashing every file. The borrowed blobs stay the repository's: a checkpoint of a file whose blob
the repository later prunes (content that was only ever staged, then dropped, and
garbage-collected) can no longer be read back, and says so. Many new files are packed at once
(``services.blob_pack``). A checkpoint of a few files a file watch named is made from the last
one without the index (``services.tree_graft``): the index's next update takes them in.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from acp_editor.log import get_logger
from acp_editor.services import store_setup
from acp_editor.services.blob_pack import PACKED_FROM, prepack
from acp_editor.services.git import environment
from acp_editor.services.repository_index import borrow_index, give_back
from acp_editor.services.tree_graft import graft
from acp_editor.storage import below, per_root

log = get_logger(__name__)

SIZE_LIMIT = 4 * 1024 * 1024
"""Larger files are not kept in checkpoints (their changes are not reviewed)."""
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

Status = Literal["added", "modified", "deleted"]
STATUS_LETTERS: dict[str, Status] = {"A": "added", "M": "modified", "D": "deleted", "T": "modified"}
"""What a letter of `git diff-tree --raw` says of a file (a type change counts as a change)."""


class CheckpointError(Exception):
    """git failed, or is missing: checkpoints are off for this workspace."""


@dataclass(frozen=True)
class Change:
    path: Path
    status: Status
    old: str | None = field(default=None, compare=False)
    """The blob the file had in the older checkpoint (None: it was not there)..."""
    new: str | None = field(default=None, compare=False)
    """...and in the newer one (None: it is gone)."""
    old_mode: str | None = field(default=None, compare=False)
    """Its mode in the older checkpoint (``100644``, ``100755``, ``120000`` for a symlink)."""


def store_for(root: Path) -> Path:
    return per_root("checkpoints", root)


class CheckpointStore:
    """Checkpoints of one workspace root (see the module docstring)."""

    def __init__(self, root: Path, store: Path | None = None, size_limit: int = SIZE_LIMIT):
        self.root = root.resolve()
        self.store = store or store_for(self.root)
        self.size_limit = size_limit
        self._ready = False
        self._lock = asyncio.Lock()  # one index: snapshots must not interleave
        self._making = asyncio.Lock()  # not _lock: a snapshot holds that when it makes the store
        self._tree: str | None = None
        """The last snapshot's tree (what the index holds), while this object knows it."""

    # -- git ------------------------------------------------------------------------------------

    def _env(self, with_work_tree: bool = True) -> dict[str, str]:
        work_tree = self.root if with_work_tree else None  # init refuses one
        index = self.store / "acp-index"
        return environment.for_store(self.store, index, work_tree=work_tree, keep_heap=True)

    async def _git(
        self, *args: str, stdin: bytes | None = None, ok: tuple[int, ...] = (0,)
    ) -> bytes:
        verb = args[2] if args[0] == "-c" else args[0]
        try:
            proc = await asyncio.create_subprocess_exec(
                "git",
                *args,
                stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=self.root,
                env=self._env(with_work_tree=verb != "init") | self._index_of(verb),
            )
        except FileNotFoundError as exc:
            raise CheckpointError("git is not installed: turn checkpoints are off") from exc
        out, err = await proc.communicate(stdin)
        if proc.returncode not in ok:
            raise CheckpointError(f"git {verb} failed: {err.decode(errors='replace').strip()}")
        return out

    def _index_of(self, verb: str) -> dict[str, str]:
        """``diff-tree`` compares two trees, yet reads the index whole first (for attributes
        its raw output never uses): 20-30 ms at 100,000 files, a third of a later turn's
        cost. It is given an index that does not exist (read as empty, never written)."""
        return {"GIT_INDEX_FILE": str(self.store / "acp-no-index")} if verb == "diff-tree" else {}

    async def git(self, *args: str, stdin: bytes | None = None) -> bytes:
        """Any git command against the store (its work tree the root): for the parts that keep
        and prune what the store holds."""
        await self._ensure()
        return await self._git(*args, stdin=stdin)

    async def _ensure(self) -> None:
        if self._ready:
            return
        async with self._making:  # sessions' first turns at once: one `git init`, not two
            if not self._ready:
                await self._make()

    async def _make(self) -> None:
        if shutil.which("git") is None:
            raise CheckpointError("git is not installed: turn checkpoints are off")
        if not (self.store / "HEAD").exists():
            self.store.mkdir(parents=True, exist_ok=True, mode=0o700)
            try:
                await self._git("init", "--quiet", "--bare", str(self.store))
            except CheckpointError:
                if not (self.store / "HEAD").exists():  # else another sidecar made it first
                    raise
        await asyncio.to_thread(store_setup.settle, self.store, self.root)
        self._ready = True

    # -- checkpoints ----------------------------------------------------------------------------

    async def snapshot(self, paths: set[Path] | None = None) -> str:
        """The id of a tree holding every file of the root as it is now. ``paths``: the only
        places files may have changed since the last snapshot (a file, or a folder for all it
        holds), so only they are looked at (what a file watch reported); None: everywhere."""
        async with self._lock:
            await self._ensure()
            await asyncio.to_thread(store_setup.copy_excludes, self.store, self.root)
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
        (``services.tree_graft``), when no other object changed the store since; else None."""
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
            await asyncio.to_thread(store_setup.copy_excludes, self.store, self.root)
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

    async def keep(self, name: str, tree: str) -> None:
        """Name a checkpoint (``refs/acp/NAME``) so nothing ever collects its objects."""
        await self._git("update-ref", f"refs/acp/{name}", tree)

    async def drop(self, name: str) -> None:
        """Forget a name (``keep``); what only it kept may be pruned."""
        await self._git("update-ref", "-d", f"refs/acp/{name}")

    async def named(self, name: str) -> str | None:
        await self._ensure()
        out = await self._git("rev-parse", "--verify", "--quiet", f"refs/acp/{name}", ok=(0, 1))
        return out.decode().strip() or None

    async def names(self, prefix: str) -> list[str]:
        """The names (``keep``) that start with ``prefix``."""
        await self._ensure()
        out = await self._git("for-each-ref", "--format=%(refname)", f"refs/acp/{prefix}")
        return [line.removeprefix("refs/acp/") for line in out.decode().splitlines() if line]

    async def changes(self, old: str, new: str) -> list[Change]:
        """What differs between two checkpoints, file by file."""
        if old == new:
            return []
        await self._ensure()
        out = await self._git("diff-tree", "-r", "-z", "--no-renames", "--raw", old, new)
        fields = out.split(b"\0")
        found = []
        # Each path made from one string: ``root / name`` parses both (a third of the time at
        # 20,000 files, bench/bulk.py).
        base = str(self.root).rstrip("/") + "/"
        for info, raw in zip(fields[0::2], fields[1::2], strict=False):
            # ":OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS"
            parts = info.decode().lstrip(":").split()
            kind = STATUS_LETTERS.get(parts[4][:1]) if len(parts) == 5 else None
            if kind is not None and raw:
                before = parts[2] if kind != "added" else None
                after = parts[3] if kind != "deleted" else None
                mode = parts[0] if kind != "added" else None
                found.append(Change(Path(base + os.fsdecode(raw)), kind, before, after, mode))
        return found

    async def directories(self, tree: str) -> list[Path]:
        """The root and every directory below it that holds a file of the checkpoint: where
        changes that matter can happen (ignored directories such as ``node_modules`` are not
        among them)."""
        await self._ensure()
        out = await self._git("ls-tree", "-r", "-d", "-z", "--name-only", tree)
        return [self.root, *(self.root / os.fsdecode(raw) for raw in out.split(b"\0") if raw)]

    async def blobs(self, ids: list[str]) -> AsyncIterator[tuple[str, bytes | None]]:
        """The contents of the blobs ``ids`` (None: missing), in order, one git run: read as
        they come, so thousands of files never sit in memory together."""
        await self._ensure()
        proc = await asyncio.create_subprocess_exec(
            "git",
            "cat-file",
            "--batch",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=self.root,
            env=self._env(),
            limit=1 << 20,
        )
        assert proc.stdin is not None and proc.stdout is not None
        feeding = asyncio.ensure_future(_feed(proc.stdin, "".join(f"{i}\n" for i in ids)))
        try:
            for blob in ids:
                header = (await proc.stdout.readline()).split()
                if len(header) != 3 or header[1] != b"blob":
                    yield blob, None
                    continue
                body = await proc.stdout.readexactly(int(header[2]) + 1)
                yield blob, body[:-1]
        finally:
            feeding.cancel()
            if proc.returncode is None:
                proc.kill()
            await proc.wait()

    async def read(self, tree: str, path: Path) -> bytes | None:
        """The content ``path`` had in a checkpoint, or None when it did not exist there."""
        rel = path.relative_to(self.root).as_posix()  # a resolved path below the root
        if "\n" in rel:  # --batch reads names a line each
            if not await self._git("ls-tree", "-z", tree, "--", rel):
                return None
            return await self._git("cat-file", "blob", f"{tree}:{rel}")
        # One git run either way: --batch says "missing" instead of failing.
        out = await self._git("cat-file", "--batch", stdin=f"{tree}:{rel}\n".encode())
        header, _, body = out.partition(b"\n")
        fields = header.split()
        if len(fields) != 3 or fields[1] != b"blob":
            return None  # missing, or not a file there (a directory)
        return body[: int(fields[2])]


async def _feed(stdin: asyncio.StreamWriter, lines: str) -> None:
    """Write a batch's questions while its answers are read (a full pipe would stall both)."""
    try:
        stdin.write(lines.encode())
        await stdin.drain()
        stdin.close()
    except (BrokenPipeError, ConnectionResetError):
        pass
