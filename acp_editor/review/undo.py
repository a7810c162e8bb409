"""Undoing a turn: every file of a session's roots put back as it was before the turn, but
those only other sessions changed since (``review.finding.turn_record``).

The turn watch (``review.finding.turns``) keeps a checkpoint before each turn under the session's
name (``review.finding.turn_names``); undoing a turn compares that checkpoint with the disk now,
asks (through the editor side) with the plan of what would change, and carries it out: the disk
first, then the open buffers, merged so their unsaved edits are kept. Checkpoints outlive the
sidecar, so a turn of an earlier run can be undone too (the session of the workspace's last turn
is remembered per root).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.errors import RpcError
from acp_editor.review.finding.disk_text import decode, read_text
from acp_editor.review.finding.turn_names import last_session, turn_name
from acp_editor.review.queue.anchor import locate
from acp_editor.services.git.checkpoints import CheckpointError

if TYPE_CHECKING:
    from acp_editor.review.finding.turns import TurnWatch
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.review_queue import ReviewQueue


@dataclass(frozen=True)
class Restore:
    """One file of a restore: its text before the turn (None: it did not exist) and now."""

    path: Path
    before: str | None
    now: str | None
    shared: bool = False
    """Another session changed the file too since (or may have: turns of both ran when it
    changed): putting it back takes that session's change out as well."""
    root: Path | None = None
    """The session's root the file is in (the record of what the undo put back is per root)."""
    since: float | None = None
    """When the turn began (None: not recorded): pending hunks of the file recorded since are
    of changes the undo takes away; those recorded before stay, found in the restored text."""


class TurnUndo:
    """Undo for the turns one ``TurnWatch`` checkpoints (its stores, its turn numbers)."""

    def __init__(self, watch: TurnWatch) -> None:
        self.watch = watch

    async def undoable(self, current: str | None, roots: Sequence[str]) -> str:
        """The session a turn is undone in when the editor names none: ``current`` when it has
        a checkpointed turn, else the session of the last turn checkpointed in ``roots`` (after a
        restart: the session of the run before, whose checkpoints outlive it)."""
        if current is not None and await self.watch.last_turn(current, roots):
            return current
        last = await last_session(roots)
        if last is None:
            raise CheckpointError("no turn of this session has a checkpoint yet")
        return last

    async def plan(
        self, session_id: str, number: int | None, roots: Sequence[str]
    ) -> tuple[int, list[Restore]]:
        """What putting every file of the roots back as before turn ``number`` (None: the
        session's last) would change."""
        if number is None:
            number = await self.watch.last_turn(session_id, roots)
            if number < 1:
                raise CheckpointError("no turn of this session has a checkpoint yet")
        return number, await self._plan(session_id, number, roots)

    async def _plan(self, session_id: str, number: int, roots: Sequence[str]) -> list[Restore]:
        if self.watch.running(session_id):
            raise CheckpointError("a turn is running: cancel it or wait for it to end first")
        plan: list[Restore] = []
        found = False
        for raw in dict.fromkeys(roots):
            root = await asyncio.to_thread(Path(raw).resolve)
            store = self.watch.store(root)
            base = await store.named(turn_name(session_id, number))
            if base is None:
                continue  # a root the turn did not have (a folder added since)
            found = True
            now = await store.snapshot()
            scope = await self.watch.record.scope(root, session_id, number)
            for change in await store.changes(base, now):
                if scope is not None and scope.keeps(str(change.path)):
                    continue  # only other sessions changed it since: theirs to undo
                raw_before = await store.read(base, change.path)
                before = decode(raw_before) if raw_before is not None else None
                if raw_before is not None and before is None:
                    continue  # not text: left as it is
                shared = scope is not None and str(change.path) in scope.shared
                now_text = await read_text(change.path)
                since = scope.began if scope is not None else None
                plan.append(Restore(change.path, before, now_text, shared, root, since))
        if not found:
            raise CheckpointError(f"there is no checkpoint before turn {number}")
        return plan

    async def restore(self, plan: list[Restore], session_id: str, number: int) -> None:
        """Carry out the plan of undoing ``session_id``'s turn ``number``: the disk first, then
        whatever holds the files open (merged, so unsaved edits in them are kept); what it put
        back is recorded, so undoing another session's turn leaves it as it is."""
        documents = self.watch.documents
        by_root: dict[Path, list[str]] = {}
        for step in plan:
            if not await self._removed(step, number):
                await asyncio.to_thread(_put, step.path, step.before)
            self.watch.written(step.path, step.before)
            await documents.disk_changed(step.path, step.now, step.before)
            if step.root is not None:
                by_root.setdefault(step.root, []).append(str(step.path))
        for root, paths in by_root.items():
            await self.watch.record.undone(root, session_id, number, paths)
        self._withdraw(plan, f"undone: restored to before turn {number}")

    def _withdraw(self, plan: list[Restore], message: str) -> None:
        """The pending hunks of the files put back whose change the undo took away (whichever
        session's) are withdrawn; those of changes from before the turn stay pending, placed
        in the restored text, which held them: where their lines are not found as they were
        (another session's pending change fell on them, or its pending deletion took the
        file), found by them when decided. A held
        write's hunks wait for the user as they did."""
        queue = self.watch.queue
        told: list[ReviewHunk] = []
        for step in plan:
            for hunk in queue.of_path(str(step.path)):
                if hunk.state != "pending" or not hunk.applied:
                    continue
                at = _place(hunk, step)
                if at is not None:
                    hunk.hint, hunk.exact, hunk.lost = at, True, False
                elif _before_turn(hunk, step):  # the restored text held it, changed since
                    hunk.exact, hunk.lost = False, False
                else:
                    hunk.state, hunk.message, hunk.reported = "rejected", message, True
                    told.extend(_bring_back(queue, hunk.supersedes, step))
                told.append(hunk)
            if step.before is None:
                queue.tracking.known.pop(str(step.path), None)
            else:
                queue.tracking.known[str(step.path)] = step.before  # where the kept ones are
        if told:
            queue.on_change(told)

    async def _removed(self, step: Restore, number: int) -> bool:
        """A file the turn created goes through the documents, so a buffer of it goes too (a
        deleted file's buffer is otherwise left as it is, its text read back as the file's);
        one holding unsaved lines of the user's besides the agent's keeps just those, as a
        rejection of the creation leaves it. Typed within the agent's lines: left holding it
        all (False)."""
        if step.before is not None or step.now is None:
            return False
        try:
            held = await self.watch.documents.read_text(step.path)
        except RpcError:
            held = None  # gone already: nothing holds it
        keep = ""
        if held is not None and held != step.now:
            from acp_editor.text.merge import merge3  # loaded at the first undo, not at start

            users = merge3(step.now, held, "")  # the agent's text taken out of the buffer's
            if users.conflicts:
                return False
            keep = users.text
        label = f"Undo turn {number}: remove {step.path.name}"
        await self.watch.documents.remove(step.path, label=label, keep=keep)
        return True


def _before_turn(hunk: ReviewHunk, step: Restore) -> bool:
    return step.since is not None and hunk.made < step.since


def _place(hunk: ReviewHunk, step: Restore) -> int | None:
    """Where a pending hunk of the file starts in its restored text; None: the undo took its
    change away (recorded since the turn began), or its lines are not there as they were."""
    if not _before_turn(hunk, step):
        return None
    if step.before is None:  # the file is gone again: as a deletion from before left it
        return 0 if hunk.file_change == "deleted" else None
    return locate(step.before, hunk.block, hunk.anchor, hunk.hint)


def _bring_back(
    queue: ReviewQueue, superseded: Sequence[ReviewHunk], step: Restore
) -> list[ReviewHunk]:
    """The hunks of changes from before the turn that a withdrawn hunk held (it changed their
    lines again), pending again (in the restored text, which held them); a hunk of the turn
    itself brings back those it held in turn."""
    back: list[ReviewHunk] = []
    for hunk in superseded:
        if hunk.state != "superseded":
            continue  # brought back already (held by two hunks of one write), or decided
        if step.since is None:
            continue  # when the turn began is not known: what came before it neither
        if hunk.made >= step.since:
            back.extend(_bring_back(queue, hunk.supersedes, step))
            continue
        queue.revive(hunk, _place(hunk, step))  # unplaced: found by its lines when decided
        back.append(hunk)
    return back


def _put(path: Path, text: str | None) -> None:
    """Put a file back (or away) at once: a reader never sees it half written."""
    if text is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.acp-restore-{os.getpid()}")
    tmp.write_bytes(text.encode("utf-8"))
    with contextlib.suppress(OSError):
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))  # the file keeps its mode
    os.replace(tmp, path)
