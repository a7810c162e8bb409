"""The files of the workspace roots, listed as git sees them, and kept fresh while they are used.

A root that is a repository's top folder is listed by its own git: the files it tracks
(``ls-files --cached``: 30 ms at 100,000 files) and, in a second run side by side, the others it
does not ignore (``--others --exclude-standard``: a walk, about what ``git status`` costs). A
folder that is not a repository is listed the second way against an empty repository of ours
(so its ``.gitignore`` files still count). Without git, a plain walk (``.git`` left out).

Nothing is listed before the first ``@`` is typed; the tracked files answer it as soon as they
are in, and the walk joins them when it ends (``complete``). A listing is used as it is for
``FRESH_S`` and then listed again in the background while the old one still answers: the cost
follows the typing, never the size of the workspace between uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from acp_editor.log import get_logger
from acp_editor.services.git import environment
from acp_editor.services.workspace_files.match import PathTable
from acp_editor.storage import state_dir

log = get_logger(__name__)

FRESH_S = 2.0
"""How long a listing answers before the next search lists the root again (in the background)."""
FIRST_WAIT_S = 0.5
"""The longest the first search waits for a root's tracked files (they take 30 ms at 100,000
files); a slower listing answers the next keystroke."""
PARTLY_S = 0.05
"""A folder that is not a repository is walked whole before git says anything it does not
track, and the walk takes 118 ms at 100,000 files: what it has given after this long answers a
first search meanwhile (``complete`` false), as a repository's tracked files do."""
WALK_LIMIT = 200_000
"""A plain walk (no git) stops here: a completion list, not an inventory."""


@dataclass
class Found:
    """A search's answer: paths best first, and whether every root's listing was whole."""

    paths: list[Path]
    complete: bool


@dataclass
class _Root:
    root: Path
    table: PathTable | None = None
    complete: bool = False
    listed_at: float = -math.inf
    """When the last listing started (``time.monotonic()``); never: minus infinity, not 0, which
    a machine up for less than ``fresh_s`` would take for a fresh listing."""
    listing: asyncio.Task[None] | None = None
    listed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the first search may answer: the tracked files are in, or the listing ended."""


class WorkspaceFiles:
    """Completion of workspace files for every root the editor has open."""

    def __init__(self, fresh_s: float = FRESH_S) -> None:
        self.fresh_s = fresh_s
        self._roots: dict[Path, _Root] = {}

    async def find(self, roots: Sequence[str], query: str, limit: int) -> Found:
        """Up to ``limit`` files of ``roots`` matching ``query`` (see ``match``), best first."""
        found: list[Path] = []
        complete = True
        for raw in dict.fromkeys(roots):
            state = self._root(Path(raw))
            self._refresh(state)
            if state.table is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(state.listed.wait(), FIRST_WAIT_S)
            table = state.table
            complete = complete and state.complete and table is not None
            if table is not None:
                found += [state.root / p for p in table.best(query, limit)]
        if len(roots) > 1:  # the best of each root, then by the same rule across them
            found.sort(key=lambda p: len(str(p)))
        return Found(found[:limit], complete)

    async def settle(self) -> None:
        """Wait for the listings under way (the next search answers from them)."""
        tasks = [s.listing for s in self._roots.values() if s.listing is not None]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        tasks = [s.listing for s in self._roots.values() if s.listing is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _root(self, root: Path) -> _Root:
        state = self._roots.get(root)
        if state is None:
            state = self._roots[root] = _Root(root)
        return state

    def _refresh(self, state: _Root) -> None:
        busy = state.listing is not None and not state.listing.done()
        if busy or time.monotonic() - state.listed_at < self.fresh_s:
            return
        state.listed_at = time.monotonic()
        state.listing = asyncio.ensure_future(self._list(state))

    async def _list(self, state: _Root) -> None:
        root = state.root
        try:
            if shutil.which("git") is None:
                state.table = PathTable(await asyncio.to_thread(_walk, root))
            else:
                await self._list_with_git(state)
            state.complete = True
        except (OSError, _GitFailed) as exc:
            log.info("could not list the files of %s: %s", root, exc)
        finally:
            state.listed.set()

    async def _list_with_git(self, state: _Root) -> None:
        root = state.root
        own = await asyncio.to_thread((root / ".git").exists)

        def partly(listed: list[str]) -> None:
            if state.table is None:  # a first listing of a folder without tracked files
                state.table = PathTable(listed)
                state.listed.set()

        others = asyncio.ensure_future(_others(root, own, None if own else partly))
        try:
            tracked = await _git(root, None, "ls-files", "-z", "--cached") if own else []
            if own and state.table is None:  # a first listing: tracked files answer meanwhile
                state.table = PathTable(tracked)
                state.listed.set()
            new = await others
        finally:
            others.cancel()
        state.table = PathTable(list(dict.fromkeys(tracked + new)))


class _GitFailed(Exception):
    pass


async def _others(root: Path, own: bool, partly: Partly | None = None) -> list[str]:
    empty = None if own else await asyncio.to_thread(_empty_repository)
    args = ("ls-files", "-z", "--others", "--exclude-standard")
    return await _git(root, empty, *args, partly=partly)


Partly = Callable[[list[str]], None]
"""Told, once, what a long listing has given so far (``PARTLY_S`` after it began)."""


async def _git(
    root: Path, git_dir: Path | None, *args: str, partly: Partly | None = None
) -> list[str]:
    work_tree = root if git_dir is not None else None  # our empty repository's
    env = environment.for_repository(system_config=False, git_dir=git_dir, work_tree=work_tree)
    proc = await asyncio.create_subprocess_exec(
        "git",
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=root,
        env=env,
    )
    if partly is None:
        out, err = await proc.communicate()
    else:
        out, err = await _read_partly(proc, partly)
    if proc.returncode != 0:
        raise _GitFailed(err.decode(errors="replace").strip())
    return _names(out)


async def _read_partly(proc: asyncio.subprocess.Process, partly: Partly) -> tuple[bytes, bytes]:
    """Read a listing as git writes it; ``PARTLY_S`` in, tell ``partly`` the names so far."""
    assert proc.stdout is not None and proc.stderr is not None
    errors = asyncio.ensure_future(proc.stderr.read())
    loop = asyncio.get_running_loop()
    due: float | None = loop.time() + PARTLY_S
    chunks: list[bytes] = []
    while chunk := await proc.stdout.read(1 << 16):
        chunks.append(chunk)
        if due is not None and loop.time() >= due:
            due = None
            so_far = b"".join(chunks)
            partly(_names(so_far[: so_far.rfind(b"\0") + 1]))
    await proc.wait()
    return b"".join(chunks), await errors


def _names(out: bytes) -> list[str]:
    return [os.fsdecode(p) for p in out.split(b"\0") if p]


def _empty_repository() -> Path:
    """An empty repository of ours: git lists a folder that is not a repository against it."""
    where = state_dir() / "empty-repository"
    if not (where / "HEAD").exists():
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        subprocess.run(
            ["git", "init", "--quiet", "--bare", str(where)], check=True, capture_output=True
        )
    return where


def _walk(root: Path) -> list[str]:
    found: list[str] = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != ".git"]
        base = os.path.relpath(folder, root)
        found += [f if base == "." else f"{base}/{f}" for f in files]
        if len(found) >= WALK_LIMIT:
            break
    return found[:WALK_LIMIT]
