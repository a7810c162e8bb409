"""Live news of changes in a workspace while a turn runs, so what an agent changes reaches the
open buffers and review as it happens, not only when its tool call ends.

A batch of file events only says "look now": what changed is then found by comparing
checkpoints (``services.checkpoints``), which honour ``.gitignore`` and the size limit. So the
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
from collections.abc import Callable
from pathlib import Path

from acp_editor.log import get_logger

log = get_logger("services.watcher")

QUIET_MS = 150
"""A batch is handed on once the workspace has been quiet this long..."""
LONGEST_MS = 1000
"""...or once it has been collecting this long (a command that writes without pause)."""
MOST_DIRECTORIES = 20_000
"""More directories than this are not watched live (each is one kernel watch)."""


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
        self.on_change = on_change
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

    def start(self) -> None:
        if len(self.directories) > MOST_DIRECTORIES:
            self._fail(f"{len(self.directories)} directories are too many to watch")
            return
        self._task = asyncio.ensure_future(self._run())

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

    async def _run(self) -> None:
        try:  # in a worker thread: the first import takes a while, follow-along must not wait
            module = await asyncio.to_thread(importlib.import_module, "watchfiles")
        except ImportError:
            self._fail("watchfiles is not installed")
            return
        existing = [d for d in self.directories if d.is_dir()]
        batches = module.awatch(
            *existing,
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
                self.on_change()
            while True:
                changes = await batch
                if self._stop.is_set():  # stopped meanwhile: nobody wants to hear of it
                    await batches.aclose()
                    break
                self._paths.update(Path(path) for _kind, path in changes)
                self.on_change()
                batch = asyncio.ensure_future(anext(batches))
        except StopAsyncIteration:
            if not self._stop.is_set():
                self._fail("the watch ended")
        except (OSError, RuntimeError) as exc:
            self._fail(str(exc))

    def _fail(self, why: str) -> None:
        self.failed = why
        self.ready.set()
        log.info("live looks are off (%s): changes are found when tool calls end", why)

    async def stop(self) -> None:
        self._stop.set()
        task = self._task
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), QUIET_MS * 4 / 1000 + 1)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
