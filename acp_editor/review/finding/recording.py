"""What a look at the disk found, put in review: a hunk per file, or a group for a burst.

The turn watch (``review.finding.turns``) finds which files changed since its last look; this
decides what each becomes. A file we wrote ourselves and that is still as we left it is skipped (it
was reviewed when we wrote it); open buffers take the change first (review places its hunks in the
text the editor holds); many files at once become one group (``review.queue.bulk``), which later
looks of the same turn can still join.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.log import get_logger
from acp_editor.review.finding.disk_text import decode, read_text
from acp_editor.review.queue.grouping import Held, arrange, regroup
from acp_editor.review.queue.groups import folder_of, relative
from acp_editor.services.git.checkpoints import Change

if TYPE_CHECKING:
    from acp_editor.review.queue.grouping import Unit
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.services.documents import DocumentSource
    from acp_editor.services.git.checkpoints import CheckpointStore

log = get_logger(__name__)

Found = Callable[[str, str | None, str, str | None, str | None], None]
"""(session, tool call or None, path, before, after): a change found on disk."""
Who = tuple[str, str | None, tuple[str, ...]]
"""(session, tool call or None, every session it may be of when not certain, else ())."""
_NOTHING = object()


class ChangeRecorder:
    """Records one agent's found changes in its review queue, turn by turn."""

    def __init__(
        self, queue: ReviewQueue, documents: DocumentSource, on_found: Found | None = None
    ) -> None:
        self.queue = queue
        self.documents = documents
        """Where open buffers take a change found on disk before review records it."""
        self._singles: dict[str, dict[Path, Change]] = {}
        """Session -> the files reviewed one by one this turn (what each was before): the
        first files of a burst, found before it was seen as one."""
        self._bursts: dict[str, set[str]] = {}
        """Session -> the groups this turn made (a burst found over several looks, which may
        go to different tool calls as they start and end, stays one group)."""
        self._written: dict[str, tuple[asyncio.Future[str | None], str | None]] = {}
        """Path -> what the disk held right after we wrote it (read in a worker thread), and
        the text we gave the file (an editor that saves after our edits puts that on disk a
        moment later): what the next look must not count as a change of the agent's."""
        self.on_found = on_found
        """Told each change found, before it goes to review (the front end's diff previews)."""
        self._created: set[str] = set()
        """Files found created since a turn began with no other running (``_gone_again``)."""

    def new_turn(self, session_id: str, alone: bool = True) -> None:
        """A turn begins from a new checkpoint: what we wrote before is in it now (unless other
        sessions' turns run: a look of theirs may not have reached it yet)."""
        self._singles.pop(session_id, None)
        self._bursts.pop(session_id, None)
        if alone:
            self._written.clear()
            self._created.clear()

    def written(self, path: Path, text: str | None) -> None:
        """A change we made ourselves during a turn (see ``TurnWatch.written``)."""
        self._written[str(path)] = (asyncio.ensure_future(read_text(path)), text)

    async def record(
        self,
        store: CheckpointStore,
        seen: str,
        changes: list[Change],
        session_id: str,
        call: str | None,
        shared: tuple[str, ...] = (),
    ) -> list[Change]:
        """Put a look's changes in review: a hunk per file, or groups for bursts (``shared``:
        every session they may be of, when not certain: ``review.finding.attribution``). A burst may
        be found over several looks (live looks while its command runs): more of a burst this turn
        already has a group for joins it however few, files reviewed one by one before the burst was
        seen as one join the group that forms, and its groups are those of the burst seen whole so
        far, whatever part of it each look saw (``groups.arrange``). A burst's looks may go to
        different tool calls (one ends, the next starts): it stays one group."""
        earlier = self._earlier(session_id)
        ids = self._bursts.get(session_id, set())
        look = _BurstLook(store.root, changes, earlier)
        if ids:
            look.hold(self.queue.bulk.held(ids, store.root, look.folders()))
        now, holders = look.now, look.holders

        def alone(path: Path) -> bool:
            return (
                (path in now or path not in holders) and path not in earlier and self._single(path)
            )

        pool = changes + [c for p, c in earlier.items() if p not in now]
        # The burst's files grouped before are looked at again with what is new (each folder
        # of theirs counted, not listed): seen whole, it may be other groups than a look
        # part-way took it for (``groups.arrange``).
        left, new = regroup(store.root, pool, look.held, alone)
        staying: dict[ReviewGroup, list[Unit]] = {}
        for change in left:
            if change.path in now and change.path in holders and not alone(change.path):
                staying.setdefault(holders[change.path], []).append(change)
        stay = {c.path for more in staying.values() for c in more if isinstance(c, Change)}
        single = [c for c in left if c.path in now and c.path not in stay]
        who = (session_id, call, shared)
        found = [c for c in single if await self._review(store, seen, c, who)]
        self._remember(session_id, found)
        bursts = arrange(new, look.groups, lambda change: holders.get(change.path))
        bursts += [(group, Path(group.folder), more) for group, more in staying.items()]
        for group, folder, members in bursts:
            files = [c for c in members if isinstance(c, Change)]
            taken = [earlier[c.path] for c in files if c.path in earlier]
            fresh = [c for c in files if c.path in now]
            moved = look.moved(members, group)
            if group is not None and Path(group.folder) == folder and not (taken or fresh or moved):
                continue  # nothing new for a group that stays as it is
            self.queue.into_group([str(c.path) for c in taken])
            await self._group(store, seen, (group, folder), taken, fresh, who, moved)
            found += fresh
        return found

    def _earlier(self, session_id: str) -> dict[Path, Change]:
        """Files reviewed one by one this turn that may still join a group."""
        recent = self._singles.get(session_id, {})
        return {
            path: change
            for path, change in recent.items()
            if self.queue.in_burst(str(path), session_id)
        }

    def _remember(self, session_id: str, found: list[Change]) -> None:
        recent = self._singles.setdefault(session_id, {})
        for change in found:
            first = recent.get(change.path)
            recent[change.path] = (
                change
                if first is None
                else Change(change.path, change.status, first.old, change.new, first.old_mode)
            )

    def _single(self, path: Path) -> bool:
        """Reviewed a hunk per file however many files changed with it: a file with pending
        hunks (a new change folds into them), one we wrote (it may be ours still)."""
        return str(path) in self._written or bool(self.queue.of_path(str(path)))

    async def _group(
        self,
        store: CheckpointStore,
        seen: str,
        where: tuple[ReviewGroup | None, Path],
        earlier: list[Change],
        changes: list[Change],
        who: Who,
        moved: dict[Path, ReviewGroup],
    ) -> None:
        """Many files at once: one review item (new, or more of the group ``where`` names, with
        ``moved``: files of the burst's other groups), and only the open buffers among them
        read."""
        into, folder = where
        session_id, tool_call_id, shared = who
        group = await self.queue.bulk.record(
            session_id,
            tool_call_id,
            store.root,
            folder,
            earlier + changes,
            seen,
            into,
            shared,
            moved,
        )
        self._bursts.setdefault(session_id, set()).add(group.group_id)
        documents = self.documents
        held = documents.held_paths()
        for change in changes:
            if str(change.path) in held:
                raw = await store.read(seen, change.path) if change.status != "added" else None
                before = decode(raw) if raw is not None else None
                after = await read_text(change.path)
                if (raw is None or before is not None) and (after is not None or not change.new):
                    await documents.disk_changed(change.path, before, after)

    async def _review(
        self,
        store: CheckpointStore,
        seen: str,
        change: Change,
        who: Who,
    ) -> bool:
        session_id, tool_call_id, shared = who
        if self._gone_again(change):
            return False
        after = None if change.status == "deleted" else await read_text(change.path)
        if change.status != "deleted" and after is None:
            return _not_text(change)
        pending = self._written.pop(str(change.path), None)
        ours: object = await pending[0] if pending is not None else _NOTHING
        if ours == after or (pending is not None and after is not None and pending[1] == after):
            return False  # our own write, still as we left it (or as the editor saved it)
        before: str | None
        if ours is None or isinstance(ours, str):
            before = ours  # the agent changed what we wrote: only its part is new
        else:
            # Not there before: no git run to ask (a command that creates thousands of files).
            raw = await store.read(seen, change.path) if change.status != "added" else None
            before = decode(raw) if raw is not None else None
            if raw is not None and before is None:
                return _not_text(change)
        # Open buffers first: review places its hunks in the text the editor holds.
        await self.documents.disk_changed(change.path, before, after)
        if self.on_found is not None:
            self.on_found(session_id, tool_call_id, str(change.path), before, after)
        self.queue.record_applied(
            session_id, tool_call_id, change.path, before, after, found_on_disk=True, shared=shared
        )
        return True

    def _gone_again(self, change: Change) -> bool:
        """A file created during the running turns and deleted again (an atomic write's temporary
        file, found between its write and its rename): nothing to review, its creation is
        withdrawn. One created in an earlier turn and left pending is deleted as any file is."""
        path = str(change.path)
        if change.status == "added":
            self._created.add(path)
            return False
        if change.status != "deleted" or path not in self._created:
            return False
        self._created.discard(path)
        self._written.pop(path, None)
        return self.queue.withdraw_creation(change.path)


class _BurstLook:
    """One look's files, and what the turn's burst grouped before it (``hold``): which group
    holds each file the look found, and the rest of the groups' files, counted by folder (a
    look costs what it found, not what the burst found before it)."""

    def __init__(self, root: Path, changes: list[Change], earlier: dict[Path, Change]) -> None:
        self.root = root
        self.now = {c.path for c in changes}
        self.earlier = earlier
        self.groups: list[ReviewGroup] = []
        self.holders: dict[Path, ReviewGroup] = {}
        """A file the look found (or reviewed one by one earlier) -> the group holding it."""
        self.held: list[Held] = []
        """The groups' other files, by folder."""

    def folders(self) -> list[Path]:
        """The folders of the files found."""
        return [Path(*parts) for parts in {path.parts[:-1] for path in self.now}]

    def hold(self, groups: list[ReviewGroup]) -> None:
        """The burst's ``groups`` the look may join or regroup (``BulkReview.held``)."""
        self.groups = groups
        by_folder: dict[str, list[ReviewGroup]] = {}
        for group in groups:
            for name in group.folders():
                by_folder.setdefault(name, []).append(group)
        found: dict[tuple[ReviewGroup, str], int] = {}
        base = str(self.root).rstrip("/") + "/"
        for path in {*self.now, *self.earlier}:
            if not str(path).startswith(base):
                continue  # reviewed one by one in another root
            rel = relative(path, str(self.root))
            name = folder_of(rel)
            holder = next((g for g in by_folder.get(name, ()) if rel in g.files), None)
            if holder is not None:
                self.holders[path] = holder
                found[holder, name] = found.get((holder, name), 0) + 1
        for group in groups:
            for name in group.folders():
                count = group.in_folder(name) - found.get((group, name), 0)
                if count:
                    self.held.append(Held(group, self.root / name, name, count))

    def moved(self, members: list[Unit], group: ReviewGroup | None) -> dict[Path, ReviewGroup]:
        """The files among ``members`` that other groups hold, each with its group."""
        moved: dict[Path, ReviewGroup] = {}
        listed: dict[ReviewGroup, set[str]] = {}
        for unit in members:
            if isinstance(unit, Held):
                if unit.group is not group:
                    listed.setdefault(unit.group, set()).add(unit.name)
                continue
            holder = self.holders.get(unit.path)
            if holder is not None and holder is not group:
                moved[unit.path] = holder
        for other, names in listed.items():
            for rel in other.files_in(names):
                path = self.root / rel
                if path not in self.now and path not in self.earlier:
                    moved[path] = other
        return moved


def _not_text(change: Change) -> bool:
    log.info("%s changed, but it is not text: not reviewed", change.path)
    return False
