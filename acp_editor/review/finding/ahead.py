"""A big workspace made ready for its first turn before the first prompt (issue 36).

A turn's checkpoint is cheap once a file watch kept between turns says where files changed
(``review.finding.intake``); the first turn had none, so its prompt waited for a look everywhere
(the first checkpoint, seeded from the repository's index: about a ``git status``), and its tool
calls' looks went everywhere while the watch of every folder was being set up (2 s more at 100,000
files, bench/scale_lsp.py). ``Ahead`` does that work when the workspace is known (``initialized``),
in the background: a watch of every folder (listed from the repository's index, borrowed by the
checkpoint store), then the first checkpoint; the watch is kept where a look everywhere is slow
(``TurnWatch.big``). A folder that is no repository is left alone: its first checkpoint reads every
file (13 s at 100,000 files), which only a turn is worth. The first session's turn there takes the
watch over (``take``) as if kept from its turn before.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.log import get_logger
from acp_editor.review.finding.turns import FIRST_WAIT_S
from acp_editor.services.git.checkpoints import CheckpointError
from acp_editor.services.watcher import DirectoryWatch

if TYPE_CHECKING:
    from collections.abc import Callable

    from acp_editor.review.finding.turns import TurnWatch

log = get_logger(__name__)


class Ahead:
    """File watches made ready before any turn, one per root, until a session takes one."""

    def __init__(self, turns: TurnWatch) -> None:
        self.turns = turns
        self._ready: dict[Path, DirectoryWatch] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self, root: Path) -> None:
        """Prepare ``root`` in the background (once; ``close`` ends it)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._prepare(root))

    async def _prepare(self, root: Path) -> None:
        try:
            await self.prepare(await asyncio.to_thread(root.resolve))
        except (CheckpointError, OSError) as exc:
            log.info("%s not made ready ahead of a turn: %s", root, exc)

    async def prepare(self, root: Path) -> None:
        """A watch of every folder of ``root``, then its first checkpoint (what changed before
        the watch was in place is in it); the watch is kept where a look everywhere is slow.
        Given up as soon as a turn has begun: that turn looks and watches for itself."""
        folders = await self.turns.folders_ahead(root)
        if not folders or self.turns.begun():
            return  # not a repository: its first checkpoint reads every file, left to a turn
        watch = DirectoryWatch(folders, lambda: None)
        watch.start()
        kept = False
        try:
            await watch.ready.wait()
            watch.covered()  # the look below takes in all the watch saw so far
            tree = await self.turns.ahead(root)
            kept = tree is not None and watch.failed is None and self.turns.big([str(root)])
        finally:
            if kept:
                self._ready[root] = watch
            else:
                await watch.stop()

    async def take(self, roots: list[str], on_change: Callable[[], None]) -> DirectoryWatch | None:
        """The watch made ready for a session's only root, now the session's (None: none),
        telling ``on_change`` from now on, once what is being prepared is done: a turn waits
        for it at most ``FIRST_WAIT_S``, as for a first checkpoint (it does the turn's own
        work: the checkpoint, the watch)."""
        task = self._task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=FIRST_WAIT_S)  # never cancelled from here
        if len(roots) != 1 or not self._ready:
            return None
        watch = self._ready.pop(Path(roots[0]), None)
        if watch is None:
            watch = self._ready.pop(await asyncio.to_thread(Path(roots[0]).resolve), None)
        if watch is None or not watch.take_ok():
            return None
        watch.hand_to(on_change)
        return watch

    async def close(self) -> None:
        """Stop what is being prepared and the watches nobody took."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        watches, self._ready = list(self._ready.values()), {}
        for watch in watches:
            await watch.stop()
