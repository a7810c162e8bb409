"""Where agent changes enter the review queue.

* Writes the agent asks for (``fs/write_text_file``) pass through ``ReviewingDocuments``: held
  until decided in ``before-write`` mode, recorded as applied hunks in ``after-write`` mode.
* Everything else an agent changes (its own edit tools, its commands) is found by comparing turn
  checkpoints (``review.finding.turns``): when a tool call ends (``observe``), and live while the
  turn runs, whenever files change in the directories the turn's checkpoint holds (``watch``).
  Writes that went through us are told to the watch, so they are not counted twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.tool_call import is_finished, is_read_only, paths_named
from acp_editor.review.finding.disk_text import read_text
from acp_editor.services.watcher import DirectoryWatch
from acp_editor.text.merge import merge3

if TYPE_CHECKING:
    from acp_editor.review.finding.ahead import Ahead
    from acp_editor.review.finding.turns import Attribute, TurnWatch
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.services.documents import DocumentSource
    from acp_editor.session.state import SessionView

log = get_logger(__name__)

CATCH_UP_S = 1.0
"""The longest the turn's end waits for the file watch to take in the turn's last events
(about its quiet step, ``services.watcher.QUIET_MS``); then it looks everywhere."""
LATE_S = 1.0
"""Changes found this soon after a tool call that may change files ended, while no other runs,
are that call's (its last writes reach the file watch a moment after it reports its end)."""


class Isolated:
    """The folders of sessions that run in a worktree of their own (``services.worktrees``):
    what is written there is not the user's workspace, so it is not reviewed as it happens;
    it comes back as review when the user asks (``review.worktree_return``)."""

    def __init__(self) -> None:
        self.folders: set[Path] = set()

    def holds(self, path: str | Path) -> bool:
        """Whether ``path`` is in one of the folders (both as given and resolved)."""
        if not self.folders:
            return False
        where = Path(path)
        return any(where.is_relative_to(f) for f in self.folders) or any(
            where.resolve().is_relative_to(f) for f in self.folders
        )


class ReviewingDocuments:
    """A ``DocumentSource`` that puts the agent's writes through the review queue."""

    def __init__(
        self,
        inner: DocumentSource,
        queue: ReviewQueue,
        turns: TurnWatch,
        isolated: Isolated | None = None,
        ahead: Ahead | None = None,
    ) -> None:
        self.inner = inner
        self.ahead = ahead
        """Watches made ready before the first turn (``review.finding.ahead``): a session's first
        turn takes one over as if kept from its turn before."""
        self.queue = queue
        self.turns = turns
        self.isolated = isolated or Isolated()
        """Folders of sessions' own worktrees: written as asked, reviewed when brought back."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ended: dict[str, str | Attribute] = {}
        """Session -> what the next look is attributed to: the last tool call that ended, or
        (a live look) who runs when the changes are found."""
        self._last_finished: dict[str, str] = {}
        """Session -> the tool call that finished last."""
        self._changer: dict[str, tuple[str, float]] = {}
        """Session -> the last tool call that may change files to finish, and when."""
        self._live_waiting: set[str] = set()
        """Sessions whose files changed while no tool call ran: looked at when one starts."""
        self._lookers: dict[str, asyncio.Task[Any]] = {}
        self._running: dict[str, dict[str, None]] = {}
        """Session -> its tool calls not finished yet, oldest first: live finds go to the last
        (a dict used as an ordered set: O(1) with the thousands an agent may leave open)."""
        self._states: dict[str, SessionView] = {}
        self._watches: dict[str, DirectoryWatch] = {}
        self._starting: dict[str, object] = {}
        """Session -> the token of the watch being set up (gone: unwatched meanwhile)."""
        self._start_tasks: set[asyncio.Task[None]] = set()
        """Watches set up in the background. ``settle`` does not wait for them: a big
        workspace's watch may be ready only after the turn that started it, for the next."""
        self._stopping: set[asyncio.Future[None]] = set()
        """Watches of ended turns still winding down (awaited on ``close``)."""
        queue.on_written = turns.written

    async def read_text(self, path: Path) -> str:
        return await self.inner.read_text(path)

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
        base: str | None = None,
    ) -> str | None:
        if self.queue.mode == "off" or self.isolated.holds(path):
            return await self.inner.write_text(
                path, text, session_id=session_id, tool_call_id=tool_call_id, base=base
            )
        await self._disk_first(session_id, tool_call_id, path, text)
        old = await self._current(path)
        if self.queue.mode == "before-write":
            held = _merged(base, old, text)
            self.turns.wrote(session_id, path)
            await self.queue.hold_write(session_id, tool_call_id, path, old, held)
            return None  # what was accepted of it is in the file now
        written = await self.inner.write_text(
            path, text, session_id=session_id, tool_call_id=tool_call_id, base=base
        )
        new = text if written is None else written  # the agent's change, merged into unsaved text
        self.queue.record_applied(session_id, tool_call_id, path, old, new)
        self.turns.written(path, new)  # reviewed already: the turn watch must not count it
        self.turns.wrote(session_id, path)  # its turn changed it: undoing the turn puts it back
        return written

    async def _disk_first(
        self, session_id: str, tool_call_id: str | None, path: Path, text: str
    ) -> None:
        """An agent that wrote the disk itself and then asks us to write the same text
        (opencode): the change is the disk's, taken in by a look now, or by the one already
        bringing it into the open buffer (looks are one at a time): one ``workspace/applyEdit``
        and one hunk, and the write below finds the buffer holding it. Without this it went to
        the buffer twice, the second edit computed from the text before the first; or, made from
        the disk's text, it changed nothing there and the look took the change for ours."""
        if self.turns.running(session_id) and await read_text(path) == text:
            await self.turns.look(session_id, tool_call_id, {path})

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        await self.inner.disk_changed(path, before, after)

    def held_paths(self) -> frozenset[str]:
        return self.inner.held_paths()

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        await self.inner.remove(path, label=label, keep=keep)

    async def _current(self, path: Path) -> str | None:
        try:
            return await self.inner.read_text(path)
        except RpcError:
            return None

    def observe(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """Session changes, as they arrive: a tool call that ended may have changed files.

        One of a read-only kind is not looked after: a flood of reads and searches kept git
        busy (a look every 55 ms, two git runs each, in bench/run.py's tool-call-heavy mix). A
        file one did change anyway is still found, by the live look while it runs or the next
        look, at the latest the turn's end."""
        if self.queue.mode == "off":
            return
        self._states[state.session_id] = state  # what its tool calls name (``named``)
        running = self._running.get(state.session_id)
        if running is None:
            running = self._running[state.session_id] = {}
        for change in changes:  # once per update of a flood
            if change.get("type") != "tool_call":
                continue
            call_id = change["toolCallId"]
            if call_id in running and "status" not in change["set"]:
                continue  # still running, as far as this change says
            call = state.peek_tool_call(call_id)
            if call is None or is_finished(call):
                running.pop(call_id, None)
                if call is not None and "status" in change.get("set", {}):
                    self._last_finished[state.session_id] = call_id
                    if not is_read_only(call):
                        now = asyncio.get_running_loop().time()
                        self._changer[state.session_id] = (call_id, now)
                        self._look_soon(state.session_id, call_id)
            elif call_id not in running:
                running[call_id] = None
                if state.session_id in self._live_waiting:
                    self._look_live(state.session_id)

    # -- live looks while a turn runs -----------------------------------------------------------

    async def watch(self, session_id: str) -> None:
        """Look whenever files change, until ``unwatch``: changes reach open buffers and review
        while the command that makes them still runs. A watch kept from the turn before
        (``end_turn``) goes on."""
        # A new turn: what the last one left running or finished says nothing about this one.
        self._running.pop(session_id, None)
        self._last_finished.pop(session_id, None)
        self._changer.pop(session_id, None)
        kept = self._watches.get(session_id)
        if kept is not None and kept.take_ok():
            return
        await self.unwatch(session_id)
        token = self._starting[session_id] = object()
        big = self.turns.big(self.turns.roots(session_id))
        if self.turns.pending(session_id) or big:
            # The prompt does not wait: for a first checkpoint still being taken, or for the
            # walk a big workspace's watch of every directory needs (looks go everywhere until
            # the watch is ready).
            starting = asyncio.ensure_future(self._start_watch(session_id, big, token))
            self._start_tasks.add(starting)
            starting.add_done_callback(self._start_tasks.discard)
            return
        await self._start_watch(session_id, big, token)

    async def _start_watch(self, session_id: str, everywhere: bool, token: object) -> None:
        """A watch of the directories that hold files of the turn's checkpoint; ``everywhere``:
        of every directory where such a file may appear (``complete``: a look the watch starts
        may then stand for a look everywhere at the turn's end)."""
        directories = await self.turns.directories(session_id, everywhere)
        if self._starting.get(session_id) is not token:
            return  # unwatched (or a newer watch asked for) meanwhile
        del self._starting[session_id]
        if not directories or not (everywhere or self.turns.running(session_id)):
            return  # a small workspace's watch ends with its turn
        watch = DirectoryWatch(directories, lambda: self._look_live(session_id))
        watch.complete = everywhere
        self._watches[session_id] = watch
        watch.start()

    async def adopt(self, session_id: str, roots: list[str]) -> None:
        """A session's turn without a watch of its own takes over one made ready before any
        turn (``review.finding.ahead``), waiting a moment for one still being made."""
        if self.ahead is None or session_id in self._watches:
            return
        watch = await self.ahead.take(roots)
        if watch is not None and session_id not in self._watches:
            watch.on_change = lambda: self._look_live(session_id)
            self._watches[session_id] = watch
        elif watch is not None:
            await watch.stop()

    def begin_paths(self, session_id: str, roots: list[str]) -> set[Path] | None:
        """Where files changed since the last turn, when a watch kept between turns can say
        (a big workspace: ``TurnWatch.big``); else None (look everywhere)."""
        watch = self._watches.get(session_id)
        return watch.take() if watch is not None and self.turns.big(roots) else None

    async def end_turn(self, session_id: str, roots: list[str]) -> set[Path] | None:
        """The turn is over: stop the watch, or keep it until the next turn in a big workspace,
        where what it sees meanwhile spares that turn's checkpoint a look everywhere. Where the
        turn's last look must look: None for everywhere; in a big workspace, what the watch
        saw, once it has taken in every event of the turn (``caught_up``) and still watches
        every directory (a new one's files are not watched: then everywhere, and a new watch
        for the next turn)."""
        self._live_waiting.discard(session_id)
        watch = self._watches.get(session_id)
        if not self.turns.big(roots):
            await self.unwatch(session_id)
            return None
        if watch is None:
            return None
        if watch.complete and await watch.caught_up(CATCH_UP_S) and watch.complete:
            return watch.take()
        if watch.complete:
            watch.covered()  # the turn's end looks everywhere next
        else:
            await self.unwatch(session_id)
        return None

    def late(self, session_id: str, roots: list[str]) -> str | None:
        """Who the turn's last look goes to in a big workspace: the tool call that ended a
        moment ago (``just_ended``), whose last writes the watch may not have told yet (its
        end did not look everywhere)."""
        return self.just_ended(session_id) if self.turns.big(roots) else None

    async def unwatch(self, session_id: str) -> None:
        """Stop looking live (the turn is over; its last looks may still run and attribute).
        The watch winds down in the background (watchfiles takes a step, ~140 ms, to notice):
        the turn's end does not wait for it, and it calls nobody any more."""
        self._live_waiting.discard(session_id)
        self._starting.pop(session_id, None)
        watch = self._watches.pop(session_id, None)
        if watch is not None:
            stopping = asyncio.ensure_future(watch.stop())
            self._stopping.add(stopping)
            stopping.add_done_callback(self._stopping.discard)

    async def close(self) -> None:
        self._starting.clear()  # watches still being set up are not started
        if self._start_tasks:
            await asyncio.gather(*list(self._start_tasks), return_exceptions=True)
        for session_id in list(self._watches):
            await self.unwatch(session_id)
        if self._stopping:
            await asyncio.gather(*list(self._stopping), return_exceptions=True)

    def _look_soon(self, session_id: str, call_id: str) -> None:
        """One look at a time per session: tool calls that end while one runs share the next
        (attributed to the last of them), so a burst of tool calls costs a few looks, not one
        git run each."""
        self._ended[session_id] = call_id
        self._start_looking(session_id)

    def _look_live(self, session_id: str) -> None:
        """Files changed while the turn runs. Between tool calls the look waits for the next
        one to start (the change is most likely its own, announced a moment late) or for the
        turn's end. A live look never takes the place of a tool call's end."""
        if not self.turns.running(session_id):
            return  # between turns: what the watch saw waits for the next one (begin_paths)
        if not self._running.get(session_id):
            late = self.just_ended(session_id)
            if late is not None:  # its last writes, reported a moment after it ended
                self._ended.setdefault(session_id, late)
                self._start_looking(session_id)
                return
            self._live_waiting.add(session_id)
            return
        self._live_waiting.discard(session_id)
        self._ended.setdefault(session_id, self._running_then(session_id))
        self._start_looking(session_id)

    def _start_looking(self, session_id: str) -> None:
        looker = self._lookers.get(session_id)
        if looker is None or looker.done():
            self._lookers[session_id] = self._spawn(self._looks(session_id))

    def _running_then(self, session_id: str) -> Attribute:
        """Who a live look's changes go to, decided once they are found: the tool call running
        then (the last one started, when several are), else one that finished meanwhile, else
        the turn. Agents announce a tool call before it changes anything, so a change found
        while the call runs is the call's."""
        finished_before = self._last_finished.get(session_id)

        def attribute() -> str | None:
            running = self._running.get(session_id)
            if running:
                return next(reversed(running))
            finished = self._last_finished.get(session_id)
            return finished if finished != finished_before else None

        return attribute

    def just_ended(self, session_id: str) -> str | None:
        """The tool call that may change files which ended a moment ago (``LATE_S``), if one
        did: changes the file watch reports now are most likely its last writes."""
        call, when = self._changer.get(session_id, ("", 0.0))
        return call if call and asyncio.get_running_loop().time() - when <= LATE_S else None

    # -- who a change is of, when several sessions run turns (``review.finding.attribution``)
    # ------------

    def current(self, session_id: str) -> str | None:
        """The tool call a change found now goes to: the last one running, else one that may
        change files and ended a moment ago (its last writes)."""
        running = self._running.get(session_id)
        return next(reversed(running)) if running else self.just_ended(session_id)

    def named(self, session_id: str, also: str | None) -> frozenset[str]:
        """Every path the session's running tool calls name (and ``also``, the tool call a look
        of its goes to; and the one that ended a moment ago)."""
        state = self._states.get(session_id)
        if state is None:
            return frozenset()
        calls = [*self._running.get(session_id, {}), also, self.just_ended(session_id)]
        found: set[str] = set()
        for call_id in dict.fromkeys(c for c in calls if c is not None):
            call = state.peek_tool_call(call_id)
            if call is not None:
                found.update(paths_named(call))
        return frozenset(found)

    async def _looks(self, session_id: str) -> None:
        while session_id in self._ended and self.turns.running(session_id):
            call = self._ended.pop(session_id)
            watch = self._watches.get(session_id)
            # Where the watch saw changes, when it can say (else everywhere). A tool call's end
            # with no change seen yet looks everywhere in a small workspace: its writes may not
            # have reached the watch yet, and they are its own. In a big one it waits for the
            # watch: what it tells within LATE_S goes to the call (``_look_live``).
            paths = watch.take() if watch is not None else None
            if not paths and not callable(call):
                if paths is not None and self.turns.big(self.turns.roots(session_id)):
                    continue
                paths = None
            await self.turns.look(session_id, call, paths)
            if paths and watch is not None and not self.turns.running(session_id):
                # The turn ended meanwhile and its end may have looked without them (a look
                # that waited for it is skipped): the next turn's checkpoint looks there.
                watch.give_back(paths)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def settle(self) -> None:
        """Wait for pending looks (tests, and before answering a snapshot)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _merged(base: str | None, held: str | None, text: str) -> str:
    """What a held write proposes for text the agent never saw (``held``, an unsaved buffer):
    its change merged in, when that is clean; else its whole text, so each hunk, those that
    would take the user's lines away included, waits for the user's decision."""
    if base is None or held is None or base == held:
        return text
    merged = merge3(base, held, text)
    return text if merged.conflicts else merged.text
