"""Live news of changes in a workspace while a turn runs, so what an agent changes reaches the
open buffers and review as it happens, not only when its tool call ends.

A batch of file events only says "look now": what changed is then found by comparing
checkpoints (``services.git.checkpoints``), which honour ``.gitignore`` and the size limit. So the
watcher needs no precise filter; it watches, each on its own (not recursively), the directories
that hold checkpointed files. Ignored trees such as ``node_modules`` or ``build`` then cost no
watch at all, and a directory the agent creates is covered by the look when its tool call ends.

Built on ``watchfiles`` (inotify, FSEvents, ReadDirectoryChangesW), imported only when a turn
first needs it. When it is missing or the system refuses the watches, live looks are off for the
turn and say why in the log; the looks when tool calls and turns end still find everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from acp_editor.log import get_logger

log = get_logger(__name__)

QUIET_MS = 20
"""A batch is handed on once the workspace has been quiet this long... (the turn's end in a big
workspace waits about this long for the watch to catch up: 150 -> 20 ms took a later turn at
100,000 files from +296 ms to +100 ms, bench/scale.py; looks stay one at a time per session, so
more batches during a long command cost no more than one look running and one waiting)"""
LONGEST_MS = 1000
"""...or once it has been collecting this long (a command that writes without pause)."""
MOST_DIRECTORIES = 20_000
"""More directories than this are not watched live (each is one kernel watch)."""
LOSSY_AT = 8192
"""A batch this large may have lost events (the kernel queue holds 16,384 by default and
watchfiles does not say when it overflowed): the watch no longer counts as complete."""
ADDED = 1
"""``watchfiles.Change.added`` (the module is imported only when a watch starts)."""


PRELOAD = ("watchfiles", "anyio._backends._asyncio")
"""What the first watch imports: ``watchfiles``, and the asyncio backend its ``awatch`` loads
through ``anyio`` on first use (in the event loop: a 28 ms stall)."""


async def preload() -> None:
    """Import what a watch needs now, in a worker thread, before a turn needs it: as the first
    turn began, the imports held up that turn's first updates (bench/run.py's paced phase)."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            await asyncio.to_thread(importlib.import_module, name)


class DirectoryWatch:
    """Calls ``on_change`` after each batch of file events in ``directories`` until stopped, and
    keeps the paths of those events for ``take`` (where a look must look)."""

    def __init__(
        self, directories: list[Path], on_change: Callable[[], None], catch_up: bool = True
    ) -> None:
        self.directories = directories
        self._on_change = on_change
        self.catch_up = catch_up
        """Call ``on_change`` once the watches are in place (changes made before them are not
        known otherwise); False when a checkpoint taken after the watches began covers them."""
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.failed: str | None = None
        """Why live looks are off, else None."""
        self.ready = asyncio.Event()
        """Set once the watches are in place (or failed: then ``take`` says "look everywhere")."""
        self._paths: set[Path] = set()
        self._seen_all = not catch_up
        """Whether a look everywhere has been made since the watches were in place (the first
        ``take`` says "everywhere" unless a checkpoint after them covers it)."""
        self.complete = True
        """Whether every directory that may hold a file of the workspace is watched: False once
        a directory appeared (its files are not watched) or a watched one was removed or made
        again (its watch is gone). ``take`` still says where changes were seen (a new
        directory's path covers what it holds), but only a complete watch can tell that
        nothing changed anywhere else."""
        self._watched = frozenset(directories)
        self._marks: Path | None = None
        """A private directory watched with the others: a file made there is told after every
        event before it (one kernel queue), which is how ``caught_up`` knows."""
        self._waiting: dict[str, asyncio.Future[None]] = {}
        self._numbers = itertools.count(1)

    def start(self) -> None:
        if len(self.directories) > MOST_DIRECTORIES:
            self._fail(f"{len(self.directories)} directories are too many to watch")
            return
        self._task = asyncio.ensure_future(self._run())

    def hand_to(self, on_change: Callable[[], None]) -> None:
        """A watch made before anyone wanted its news (``review.finding.ahead``: a big
        workspace's, at ``initialized``) is handed to the session whose turn takes it: the one
        time its listener changes. What it saw meanwhile is kept for ``take``."""
        self._on_change = on_change

    def take_ok(self) -> bool:
        """Whether ``take`` can say where files changed (the watch runs, in place)."""
        return self.failed is None and not self._stop.is_set()

    def covered(self) -> None:
        """A look everywhere is about to start: what the watch saw so far is in it."""
        self._paths.clear()
        self._seen_all = self.ready.is_set()

    def take(self) -> set[Path] | None:
        """The paths files changed at since the last ``take`` (a new folder's path stands for
        everything in it), or None when they are not known (no watch in place: look
        everywhere)."""
        if self.failed is not None or not self.ready.is_set() or self._stop.is_set():
            return None
        taken, self._paths = self._paths, set()
        if not self._seen_all:  # changes made before the watches were in place: not known
            self._seen_all = True
            return None
        return taken

    def give_back(self, paths: set[Path]) -> None:
        """Paths taken for a look that did not happen: the next ``take`` has them again."""
        self._paths.update(paths)

    async def _run(self) -> None:
        try:  # in a worker thread: the first import takes a while, follow-along must not wait
            module = await asyncio.to_thread(importlib.import_module, "watchfiles")
        except ImportError:
            self._fail("watchfiles is not installed")
            return
        existing = [d for d in self.directories if d.is_dir()]
        try:
            self._marks = Path(tempfile.mkdtemp(prefix="acp-editor-watch-"))
        except OSError as exc:
            log.info("no marks for the watch: %s", exc)
        marks = [self._marks] if self._marks is not None else []
        batches = module.awatch(
            *existing,
            *marks,
            watch_filter=None,  # checkpoints decide what counts
            debounce=LONGEST_MS,
            step=QUIET_MS,
            stop_event=self._stop,
            recursive=False,
            ignore_permission_denied=True,
        )
        try:
            batch = asyncio.ensure_future(anext(batches))
            # Its first step puts the watches in place (before it first waits); then one look
            # finds whatever changed between the turn's checkpoint and now.
            await asyncio.sleep(0)
            self.ready.set()
            if self.catch_up:
                self._on_change()
            while True:
                changes = await batch
                if self._stop.is_set():  # stopped meanwhile: nobody wants to hear of it
                    await batches.aclose()
                    break
                if await self._took(changes):
                    self._on_change()
                batch = asyncio.ensure_future(anext(batches))
        except StopAsyncIteration:
            if not self._stop.is_set():
                self._fail("the watch ended")
        except (OSError, RuntimeError) as exc:
            self._fail(str(exc))

    async def _took(self, changes: set[tuple[int, str]]) -> bool:
        """Keep a batch's paths; whether it holds any but our marks."""
        if len(changes) >= LOSSY_AT:
            self.complete = False
        marks = str(self._marks) if self._marks is not None else None
        paths: set[Path] = set()
        added: list[str] = []
        came: list[asyncio.Future[None]] = []
        for kind, raw in changes:
            if marks is not None and os.path.dirname(raw) == marks:
                waiting = self._waiting.pop(raw, None)
                if waiting is not None:
                    came.append(waiting)
                continue
            path = Path(raw)
            paths.add(path)
            if path in self._watched:
                self.complete = False  # removed or made again: its watch is gone
            elif kind == ADDED:
                added.append(raw)
        if added and self.complete and await asyncio.to_thread(_any_directory, added):
            self.complete = False
        self._paths.update(paths)
        for waiting in came:  # only now: whoever waits for a mark reads what came before it
            if not waiting.done():
                waiting.set_result(None)
        return bool(paths)

    async def caught_up(self, timeout: float) -> bool:
        """Wait until every file event that happened before this call has been taken in (a
        mark made now comes back through the same kernel queue after them); False when the
        watch cannot say within ``timeout`` seconds."""
        if not self.take_ok() or self._marks is None or not self.ready.is_set():
            return False
        mark = self._marks / str(next(self._numbers))
        seen = self._waiting[str(mark)] = asyncio.get_running_loop().create_future()
        try:
            await asyncio.to_thread(mark.touch)
            await asyncio.wait_for(seen, timeout)
        except (OSError, TimeoutError):
            return False
        finally:
            self._waiting.pop(str(mark), None)
            with contextlib.suppress(OSError):
                mark.unlink()
        return self.take_ok()

    def _fail(self, why: str) -> None:
        self.failed = why
        self.ready.set()
        log.info("live looks are off (%s): changes are found when tool calls end", why)

    async def stop(self) -> None:
        self._stop.set()
        if self._marks is not None:
            shutil.rmtree(self._marks, ignore_errors=True)
        task = self._task
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), QUIET_MS * 4 / 1000 + 1)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _any_directory(paths: list[str]) -> bool:
    return any(os.path.isdir(p) for p in paths)
