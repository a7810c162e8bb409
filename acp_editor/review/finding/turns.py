"""Every change an agent makes during a turn becomes review, whoever wrote it.

Before each prompt turn the session's roots are checkpointed (``services.git.checkpoints``). When a
tool call ends, and when the turn ends, a new checkpoint is compared with the last one: each file
that changed (by the agent's own edit tools, by a command it ran, by anything) becomes applied
hunks in the review queue, attributed to the tool call that just ended, else to the turn.
Changes that went through us (``fs/write_text_file``, the queue's own reverts) were reviewed
already: they are told here (``written``) and not counted twice. When several sessions run
turns, one look finds a change for all of them, and ``review.finding.attribution`` says whose it is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.log import get_logger
from acp_editor.review.finding.attribution import by_owner, claims_of
from acp_editor.review.finding.recording import ChangeRecorder, Found
from acp_editor.review.finding.turn_names import last_number, remember_last, turn_name
from acp_editor.review.finding.turn_record import TurnRecord
from acp_editor.review.finding.watch_folders import other_directories, repository_folders
from acp_editor.services.git.checkpoints import Change, CheckpointError, CheckpointStore

if TYPE_CHECKING:
    from acp_editor.review.finding.attribution import Claims
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.services.documents import DocumentSource

log = get_logger(__name__)

StoreFor = Callable[[Path], CheckpointStore]
Attribute = Callable[[], str | None]
"""Who a look's changes go to, asked when they are found: a tool call's id, None for the turn."""
FIRST_WAIT_S = 2.0
"""The longest a prompt waits for the first checkpoint of a folder (every file hashed: 13 s for
100,000 files that are not a repository); then it goes, and the checkpoint goes on."""
BIG_S = 0.1
"""A look everywhere this slow (a 100,000-file workspace: about what git status takes there)
is worth avoiding: looks start from the file watch's paths instead, and the watch is kept
between turns so the next turn's checkpoint starts from them too."""


@dataclass
class TurnCheckpoints:
    """One prompt turn of one session: the checkpoints it started from and has seen since."""

    session_id: str
    number: int
    base: dict[Path, str] = field(default_factory=dict)
    """Root -> the checkpoint before the turn."""
    claims: Claims | None = None
    """What the session's tool calls name, when other sessions run turns too."""
    pending: dict[Path, tuple[asyncio.Task[str], int]] = field(default_factory=dict)
    """Root -> a first checkpoint still being taken after the prompt went, and when it went."""


class TurnWatch:
    def __init__(
        self,
        queue: ReviewQueue,
        store_for: StoreFor = CheckpointStore,
        documents: DocumentSource | None = None,
        record: TurnRecord | None = None,
        on_found: Found | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> None:
        self.queue = queue
        self.documents = documents or queue.documents
        """Where open buffers take a change found on disk before review records it (the editor
        side's documents: the one place a found change crosses to the editor before its event)."""
        self._store_for = store_for
        self._stores: dict[Path, CheckpointStore] = {}
        self._turns: dict[str, TurnCheckpoints] = {}
        self._numbers: dict[str, int] = {}
        self._full_s: dict[Path, float] = {}  # root -> how long its last look everywhere took
        self._early: set[Path] = set()  # roots of a look ahead of any turn still running
        self._seen: dict[Path, str] = {}  # root -> what any turn's last look there saw
        # (one for every turn running there: a change is found once, see ``attribution``)
        self._lock = asyncio.Lock()  # looks compare with "seen": one at a time
        self.record = record or TurnRecord()
        """Which files each turn changed (what undo may put back); the owner's, which records
        the user's rejections in it too, before any turn of this run."""
        self.disabled: str | None = None  # why checkpoints are off (git missing or failing)
        self.on_notice = on_notice
        """Told what the user should know of (changes that could not be reviewed)."""
        self.recorder = ChangeRecorder(queue, self.documents, on_found)
        """Told each change found (``on_found``), before it goes to review."""

    def store(self, root: Path) -> CheckpointStore:
        """The checkpoint store of ``root`` (one per root for the watch's life)."""
        store = self._stores.get(root)
        if store is None:
            store = self._stores[root] = self._store_for(root)
        return store

    def written(self, path: Path, text: str | None) -> None:
        """A change we made ourselves (already reviewed, or a review decision). What counts is
        what the disk holds now, which is not always ``text``: the editor's documents write the
        change to the disk's own text, without the buffer's unsaved edits; or ``text`` itself,
        once an editor that saves after our edits (Emacs's setup) has saved the buffer."""
        if not self._turns:
            return  # the next turn's checkpoint starts from what the disk holds then
        self.recorder.written(path, text)

    def big(self, roots: Sequence[str]) -> bool:
        """Whether a look everywhere costs enough in one of ``roots`` (``BIG_S``) that looks
        start from what the file watch saw instead, where they can."""
        return any(self._full_s.get(Path(r).resolve(), 0.0) >= BIG_S for r in roots)

    def running(self, session_id: str) -> bool:
        return session_id in self._turns

    def begun(self) -> bool:
        """Whether a turn has begun in this run (whose checkpoints a look ahead must not
        move: ``ahead``)."""
        return bool(self._turns or self._numbers)

    async def ahead(self, root: Path) -> str | None:
        """A look everywhere in ``root`` before any turn (``review.finding.ahead``): the store's
        index then holds every file as it is, so the first turn's checkpoint reads only where
        a watch saw changes since. The checkpoint, or None when checkpoints are off or a turn
        has begun."""
        if self.disabled is not None or self.queue.mode == "off":
            return None
        if self.begun():
            return None
        self._early.add(root)  # not under the lock: a turn's checkpoint goes on meanwhile
        try:
            return await self._snapshot(self.store(root), None)
        except CheckpointError as exc:
            self._disable(exc)
            return None
        finally:
            self._early.discard(root)

    async def folders_ahead(self, root: Path) -> list[Path] | None:
        """Before ``root``'s first checkpoint: every folder a file that counts is in or may
        appear in, from the repository's index (borrowed by the store) and the folders it has
        no file of; None when the store has no index to read them from (no repository)."""
        if self.disabled is not None or self.queue.mode == "off":
            return None
        if not await asyncio.to_thread((root / ".git" / "index").is_file):
            return None  # not a repository's top (no store is made for it)
        return await repository_folders(self.store(root), root)

    def roots(self, session_id: str) -> list[str]:
        """The roots of the session's running turn."""
        turn = self._turns.get(session_id)
        return [str(r) for r in turn.base] if turn is not None else []

    async def _snapshot(self, store: CheckpointStore, paths: set[Path] | None) -> str:
        """A checkpoint; a look everywhere is timed (``big``)."""
        if paths is not None:
            return await store.snapshot(paths)
        start = time.perf_counter()
        tree = await store.snapshot()
        self._full_s[store.root] = time.perf_counter() - start
        return tree

    async def begin(
        self,
        session_id: str,
        roots: list[str],
        paths: set[Path] | None = None,
        claims: Claims | None = None,
    ) -> TurnCheckpoints | None:
        """Checkpoint the session's roots before a turn; None when checkpoints are off.
        ``paths``: the only places files changed since the last checkpoint (what a file watch
        kept between turns saw), else None: everywhere. ``claims``: what the session's tool
        calls name (who a change is of, when other sessions run turns too)."""
        if self.disabled is not None or self.queue.mode == "off":
            return None
        turn = TurnCheckpoints(session_id, 0, claims=claims)
        try:
            number = await self._next_number(session_id, roots)
            turn.number = number
            for raw in dict.fromkeys(roots):
                root = await asyncio.to_thread(Path(raw).resolve)
                async with self._lock:  # one "seen" per root: no look in between
                    await self._checkpoint(turn, root, paths)
        except CheckpointError as exc:
            self._disable(exc)
            return None
        self._numbers[session_id] = number
        self._turns[session_id] = turn
        self.recorder.new_turn(session_id, alone=len(self._turns) == 1)
        return turn

    async def _checkpoint(self, turn: TurnCheckpoints, root: Path, paths: set[Path] | None) -> None:
        others = self._running_at(root)
        if not others:
            tree = await self._first_or_snapshot(turn, self.store(root), paths)
        else:
            # Other sessions' turns run here: what changed since their last look is theirs,
            # and the look that finds it is this turn's checkpoint.
            for other in others:
                await self._ready(other)
            tree = (await self._compare(root, paths, None, None))[0]
        if tree is not None:
            await self._based(turn, root, tree)

    def _running_at(self, root: Path) -> list[TurnCheckpoints]:
        return [t for t in self._turns.values() if root in t.base or root in t.pending]

    async def _first_or_snapshot(
        self, turn: TurnCheckpoints, store: CheckpointStore, paths: set[Path] | None
    ) -> str | None:
        """The turn's checkpoint of one root; None when it is the root's first and still being
        taken after ``FIRST_WAIT_S`` (a big folder that is not a repository hashes every file),
        or while a look ahead of any turn still runs there (the prompt waited for it already:
        ``review.finding.ahead``): the prompt goes meanwhile, and the turn's first look waits for it
        (``_ready``)."""
        early = store.root in self._early
        if store.started() and not early:
            return await self._snapshot(store, paths)
        task = asyncio.ensure_future(self._snapshot(store, None))
        done, _ = await asyncio.wait({task}, timeout=0 if early else FIRST_WAIT_S)
        if done:
            return task.result()
        log.info("the first checkpoint of %s goes on while the turn runs", store.root)
        turn.pending[store.root] = (task, time.time_ns())
        return None

    async def _based(self, turn: TurnCheckpoints, root: Path, tree: str) -> None:
        await self.store(root).keep(turn_name(turn.session_id, turn.number), tree)
        await asyncio.to_thread(remember_last, root, turn.session_id)
        await self.record.began(root, turn.session_id, turn.number)
        turn.base[root] = self._seen[root] = tree

    def pending(self, session_id: str) -> bool:
        """Whether the session's turn still waits for a first checkpoint."""
        turn = self._turns.get(session_id)
        return turn is not None and bool(turn.pending)

    async def _ready(self, turn: TurnCheckpoints) -> None:
        """First checkpoints still being taken are waited for. Files that changed after the
        prompt went and before the checkpoint read them are in it as they are now: their
        change cannot be reviewed, and the user is told which."""
        for root, (task, since) in list(turn.pending.items()):
            tree = await task
            if turn.pending.pop(root, None) is None:
                continue  # another look got it meanwhile
            await self._based(turn, root, tree)
            late = await self.store(root).stamped_since(since)
            if late and self.on_notice is not None:
                names = ", ".join(str(p.relative_to(root)) for p in late[:5])
                more = f" and {len(late) - 5} more" if len(late) > 5 else ""
                self.on_notice(
                    f"the first checkpoint of {root} was still being taken when the agent "
                    f"began: {len(late)} file(s) changed meanwhile, and what they held before "
                    f"is not known, so their changes are not in review: {names}{more}"
                )

    async def _next_number(self, session_id: str, roots: list[str]) -> int:
        """Turns are numbered per session; the numbers go on after a restart (a session loaded
        again keeps its checkpoints)."""
        return await self.last_turn(session_id, roots[:1]) + 1

    async def last_turn(self, session_id: str, roots: Sequence[str]) -> int:
        """The number of the session's last checkpointed turn (0: none yet). The store is read
        for a session this run has not checkpointed: one of an earlier run keeps its turns."""
        known = self._numbers.get(session_id)
        if known is not None:
            return known
        numbers = [0]
        for raw in dict.fromkeys(roots):
            root = await asyncio.to_thread(Path(raw).resolve)
            numbers.append(await last_number(self.store(root), session_id))
        return max(numbers)

    async def look(
        self,
        session_id: str,
        tool_call_id: str | Attribute | None,
        paths: set[Path] | None = None,
    ) -> list[Change]:
        """Find what changed since the last look and put it in review, attributed to
        ``tool_call_id``; a callable is asked once the new checkpoint is taken (a live look
        goes to whatever tool call runs by then). ``paths``: the only places files changed
        since the last look (what the file watch saw), else None: everywhere."""
        turn = self._turns.get(session_id)
        if turn is None:
            return []
        async with self._lock:
            found: list[Change] = []
            if self._turns.get(session_id) is not turn:
                # The turn ended while this look waited: its end looked after everything, and
                # a look now would only hold up the next turn's checkpoint (100-190 ms at
                # 100,000 files, bench/scale.py).
                return found
            try:
                await self._ready(turn)
                for root in list(turn.base):
                    found += (await self._compare(root, paths, session_id, tool_call_id))[1]
            except CheckpointError as exc:
                self._disable(exc)
            return found

    async def _compare(
        self,
        root: Path,
        paths: set[Path] | None,
        session_id: str | None,
        tool_call_id: str | Attribute | None,
    ) -> tuple[str, list[Change]]:
        """Compare the root with what the last look there saw, put what changed in review, each
        change given to its session (``attribution``): the new checkpoint, and what was put in
        review. Under the lock. ``session_id``: whose look it is (None: theirs all)."""
        store = self.store(root)
        seen = self._seen[root]
        now = await self._snapshot(store, paths)
        call = tool_call_id() if callable(tool_call_id) else tool_call_id
        changes = await store.changes(seen, now)
        running = [(t.session_id, t.claims) for t in self._running_at(root)] if changes else []
        claims = claims_of(session_id, call, running)
        found: list[Change] = []
        for (claim, shared), part in by_owner(changes, root, claims).items():
            found += await self.recorder.record(
                store, seen, part, claim.session_id, claim.call, shared
            )
            self._note(root, claim.session_id, shared, [str(c.path) for c in part])
        self._seen[root] = now
        return now, found

    def _note(self, root: Path, session_id: str, shared: tuple[str, ...], paths: list[str]) -> None:
        """The record of which files each turn changed (what undoing it may put back)."""
        for sid in shared or (session_id,):
            turn = self._turns.get(sid)
            if turn is not None:
                self.record.changed(root, sid, turn.number, paths, bool(shared))

    def wrote(self, session_id: str, path: Path) -> None:
        """The session's agent wrote ``path`` through us: its turn changed it all the same."""
        for root in [r for r in map(Path, self.roots(session_id)) if path.is_relative_to(r)]:
            self._note(root, session_id, (), [str(path)])

    async def directories(self, session_id: str, everywhere: bool = False) -> list[Path]:
        """The directories the running turn's checkpoints hold files in (where to watch);
        ``everywhere``: every other directory a file that counts may appear in too (empty ones,
        ones holding only ignored files), so that a watch of them all misses nothing."""
        turn = self._turns.get(session_id)
        found: list[Path] = []
        try:
            if turn is not None:
                await self._ready(turn)
            for root, base in list(turn.base.items()) if turn is not None else []:
                store = self.store(root)
                found += await store.directories(base)
                if everywhere:
                    found += await other_directories(store)
        except CheckpointError as exc:
            log.info("no directories to watch: %s", exc)
            return []
        return found

    async def end(
        self, session_id: str, late: str | None = None, paths: set[Path] | None = None
    ) -> list[Change]:
        """The turn is over: what is left becomes review, attributed to the turn, or to
        ``late``: the tool call that ended a moment ago, when the file watch may not have told
        its last writes yet (``ReviewingDocuments.late``). ``paths``: the only places files
        changed since the last look (a file watch that has taken in the whole turn), else
        None: everywhere."""
        found = await self.look(session_id, late, paths)
        turn = self._turns.pop(session_id, None)
        if turn is not None:
            for root in turn.base:
                await self.record.ended(root, session_id, turn.number)
        return found

    def _disable(self, exc: Exception) -> None:
        if self.disabled is None:
            log.warning("%s; changes agents make themselves are not reviewed", exc)
        self.disabled = str(exc)
