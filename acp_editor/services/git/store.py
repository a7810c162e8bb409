"""A checkpoint store: our private git object store of one workspace root, made once however
many ask at once, and git run against it; names that keep checkpoints from being pruned.

What the store does with that is by role: taking a checkpoint (``taking``), reading one and
comparing two (``reading``); ``checkpoints.CheckpointStore`` is both.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from acp_editor.services.git import environment, store_setup
from acp_editor.storage import per_root

SIZE_LIMIT = 4 * 1024 * 1024
"""Larger files are not kept in checkpoints (their changes are not reviewed)."""


class CheckpointError(Exception):
    """git failed, or is missing: checkpoints are off for this workspace."""


def store_for(root: Path) -> Path:
    return per_root("checkpoints", root)


class PrivateStore:
    """The store of one workspace root and the git runs against it (see the module
    docstring)."""

    def __init__(self, root: Path, store: Path | None = None, size_limit: int = SIZE_LIMIT):
        self.root = root.resolve()
        self.store = store or store_for(self.root)
        self.size_limit = size_limit
        self._ready = False
        self._lock = asyncio.Lock()  # one index: snapshots must not interleave
        self._making = asyncio.Lock()  # not _lock: a snapshot holds that when it makes the store
        self._tree: str | None = None
        """The last snapshot's tree (what the index holds), while this object knows it."""

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
