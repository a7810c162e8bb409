"""When to look at the disk for what an agent changed, and whose a change found is.

Everything an agent changes without us (its own edit tools, its commands) is found by
comparing turn checkpoints (``review.finding.turns``): when a tool call that may change files
ends (``observe``), and live while the turn runs, whenever the file watch sees files change in
the directories the turn's checkpoint holds (``watch``).

One ``SessionLooks`` per session keeps what that takes: its running tool calls, the one that
ended last, its file watch, the look under way. ``Looks`` is an agent's: it makes a session's
on first use and holds what they share (the turn watch, watches made ready ahead of any turn,
the looks still running, which ``settle`` waits for).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from acp_editor.protocol.tool_call import is_finished, is_read_only, paths_named
from acp_editor.services.watcher import DirectoryWatch

if TYPE_CHECKING:
    from pathlib import Path

    from acp_editor.review.finding.ahead import Ahead
    from acp_editor.review.finding.turns import Attribute, TurnWatch
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.session.state import SessionView

CATCH_UP_S = 1.0
"""The longest the turn's end waits for the file watch to take in the turn's last events
(about its quiet step, ``services.watcher.QUIET_MS``); then it looks everywhere."""
LATE_S = 1.0
"""Changes found this soon after a tool call that may change files ended, while no other runs,
are that call's (its last writes reach the file watch a moment after it reports its end)."""


class Tasks:
    """Looks and watches being set up, for every session of an agent: ``settle`` waits for
    the looks, ``close`` for all."""

    def __init__(self) -> None:
        self.looks: set[asyncio.Task[Any]] = set()
        self.starting: set[asyncio.Task[None]] = set()
        """Watches set up in the background. ``settle`` does not wait for them: a big
        workspace's watch may be ready only after the turn that started it, for the next."""
        self.stopping: set[asyncio.Future[None]] = set()
        """Watches of ended turns still winding down (awaited on ``close``)."""

    def look(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        _kept(self.looks, task)
        return task

    def start(self, coro: Coroutine[Any, Any, None]) -> None:
        _kept(self.starting, asyncio.ensure_future(coro))

    def stop(self, watch: DirectoryWatch) -> None:
        _kept(self.stopping, asyncio.ensure_future(watch.stop()))

    async def settle(self) -> None:
        while self.looks:
            await asyncio.gather(*list(self.looks), return_exceptions=True)


def _kept(into: set[Any], task: asyncio.Future[Any]) -> None:
    """Held until done (the loop keeps only a weak reference to a task)."""
    into.add(task)
    task.add_done_callback(into.discard)


class SessionLooks:
    """One session's looks at the disk, and what says whose a change is (``Claims``)."""

    def __init__(
        self, session_id: str, turns: TurnWatch, tasks: Tasks, ahead: Ahead | None = None
    ) -> None:
        self.session_id = session_id
        self.turns = turns
        self.tasks = tasks
        self.ahead = ahead
        """Watches made ready before the first turn (``review.finding.ahead``): the session's
        first turn takes one over as if kept from its turn before."""
        self.state: SessionView | None = None
        """The session as last seen: what its tool calls name (``named``)."""
        self.running: dict[str, None] = {}
        """Its tool calls not finished yet, oldest first: live finds go to the last (a dict
        used as an ordered set: O(1) with the thousands an agent may leave open)."""
        self.last_finished: str | None = None
        self.changer: tuple[str, float] | None = None
        """The last tool call that may change files to finish, and when."""
        self.next_for: str | Attribute | None = None
        """What the next look is attributed to: the last tool call that ended, or (a live
        look) who runs when the changes are found."""
        self.live_waiting = False
        """Files changed while no tool call ran: looked at when one starts."""
        self.looker: asyncio.Task[Any] | None = None
        self.watch_of_turn: DirectoryWatch | None = None
        self.starting: object | None = None
        """The token of the watch being set up (None: unwatched meanwhile)."""

    @property
    def roots(self) -> list[str]:
        return self.turns.roots(self.session_id)

    def observe(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """Session changes, as they arrive: a tool call that ended may have changed files.

        One of a read-only kind is not looked after: a flood of reads and searches kept git
        busy (a look every 55 ms, two git runs each, in bench/run.py's tool-call-heavy mix). A
        file one did change anyway is still found, by the live look while it runs or the next
        look, at the latest the turn's end."""
        self.state = state
        running = self.running
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
                    self.last_finished = call_id
                    if not is_read_only(call):
                        self.changer = (call_id, asyncio.get_running_loop().time())
                        self.next_for = call_id  # looks at tool calls' ends share the next
                        self._start_looking()
            elif call_id not in running:
                running[call_id] = None
                if self.live_waiting:
                    self._look_live()

    # -- the turn's file watch ------------------------------------------------------------------

    async def watch(self) -> None:
        """Look whenever files change, until ``unwatch``: changes reach open buffers and review
        while the command that makes them still runs. A watch kept from the turn before
        (``end_turn``) goes on."""
        # A new turn: what the last one left running or finished says nothing about this one.
        self.running, self.last_finished, self.changer = {}, None, None
        kept = self.watch_of_turn
        if kept is not None and kept.take_ok():
            return
        self.unwatch()
        token = self.starting = object()
        big = self.turns.big(self.roots)
        if self.turns.pending(self.session_id) or big:
            # The prompt does not wait: for a first checkpoint still being taken, or for the
            # walk a big workspace's watch of every directory needs (looks go everywhere until
            # the watch is ready).
            self.tasks.start(self._start_watch(big, token))
            return
        await self._start_watch(big, token)

    async def _start_watch(self, everywhere: bool, token: object) -> None:
        """A watch of the directories that hold files of the turn's checkpoint; ``everywhere``:
        of every directory where such a file may appear (``complete``: a look the watch starts
        may then stand for a look everywhere at the turn's end)."""
        directories = await self.turns.directories(self.session_id, everywhere)
        if self.starting is not token:
            return  # unwatched (or a newer watch asked for) meanwhile
        self.starting = None
        if not directories or not (everywhere or self.turns.running(self.session_id)):
            return  # a small workspace's watch ends with its turn
        watch = DirectoryWatch(directories, self._look_live)
        watch.complete = everywhere
        self.watch_of_turn = watch
        watch.start()

    async def adopt(self, roots: list[str]) -> None:
        """A turn without a watch of its own takes over one made ready before any turn
        (``review.finding.ahead``), waiting a moment for one still being made."""
        if self.ahead is None or self.watch_of_turn is not None:
            return
        watch = await self.ahead.take(roots, self._look_live)
        if watch is not None and self.watch_of_turn is None:
            self.watch_of_turn = watch
        elif watch is not None:
            await watch.stop()

    def begin_paths(self, roots: list[str]) -> set[Path] | None:
        """Where files changed since the last turn, when a watch kept between turns can say
        (a big workspace: ``TurnWatch.big``); else None (look everywhere)."""
        watch = self.watch_of_turn
        return watch.take() if watch is not None and self.turns.big(roots) else None

    async def end_turn(self, roots: list[str]) -> set[Path] | None:
        """The turn is over: stop the watch, or keep it until the next turn in a big workspace,
        where what it sees meanwhile spares that turn's checkpoint a look everywhere. Where the
        turn's last look must look: None for everywhere; in a big workspace, what the watch
        saw, once it has taken in every event of the turn (``caught_up``) and still watches
        every directory (a new one's files are not watched: then everywhere, and a new watch
        for the next turn)."""
        self.live_waiting = False
        watch = self.watch_of_turn
        if not self.turns.big(roots):
            self.unwatch()
            return None
        if watch is None:
            return None
        if watch.complete and await watch.caught_up(CATCH_UP_S) and watch.complete:
            return watch.take()
        if watch.complete:
            watch.covered()  # the turn's end looks everywhere next
        else:
            self.unwatch()
        return None

    def late(self, roots: list[str]) -> str | None:
        """Who the turn's last look goes to in a big workspace: the tool call that ended a
        moment ago (``just_ended``), whose last writes the watch may not have told yet (its
        end did not look everywhere)."""
        return self.just_ended() if self.turns.big(roots) else None

    def unwatch(self) -> None:
        """Stop looking live (the turn is over; its last looks may still run and attribute).
        The watch winds down in the background (watchfiles takes a step, ~140 ms, to notice):
        the turn's end does not wait for it, and it calls nobody any more."""
        self.live_waiting = False
        self.starting = None
        watch, self.watch_of_turn = self.watch_of_turn, None
        if watch is not None:
            self.tasks.stop(watch)

    # -- looks ----------------------------------------------------------------------------------

    def _look_live(self) -> None:
        """Files changed while the turn runs. Between tool calls the look waits for the next
        one to start (the change is most likely its own, announced a moment late) or for the
        turn's end. A live look never takes the place of a tool call's end."""
        if not self.turns.running(self.session_id):
            return  # between turns: what the watch saw waits for the next one (begin_paths)
        if not self.running:
            late = self.just_ended()
            if late is not None:  # its last writes, reported a moment after it ended
                self.next_for = self.next_for or late
                self._start_looking()
                return
            self.live_waiting = True
            return
        self.live_waiting = False
        self.next_for = self.next_for or self._running_then()
        self._start_looking()

    def _start_looking(self) -> None:
        if self.looker is None or self.looker.done():
            self.looker = self.tasks.look(self._looks())

    def _running_then(self) -> Attribute:
        """Who a live look's changes go to, decided once they are found: the tool call running
        then (the last one started, when several are), else one that finished meanwhile, else
        the turn. Agents announce a tool call before it changes anything, so a change found
        while the call runs is the call's."""
        finished_before = self.last_finished

        def attribute() -> str | None:
            if self.running:
                return next(reversed(self.running))
            return self.last_finished if self.last_finished != finished_before else None

        return attribute

    async def _looks(self) -> None:
        """One look at a time per session: tool calls that end while one runs share the next
        (attributed to the last of them), so a burst of tool calls costs a few looks, not one
        git run each."""
        while self.next_for is not None and self.turns.running(self.session_id):
            call, self.next_for = self.next_for, None
            watch = self.watch_of_turn
            # Where the watch saw changes, when it can say (else everywhere). A tool call's end
            # with no change seen yet looks everywhere in a small workspace: its writes may not
            # have reached the watch yet, and they are its own. In a big one it waits for the
            # watch: what it tells within LATE_S goes to the call (``_look_live``).
            paths = watch.take() if watch is not None else None
            if not paths and not callable(call):
                if paths is not None and self.turns.big(self.roots):
                    continue
                paths = None
            await self.turns.look(self.session_id, call, paths)
            if paths and watch is not None and not self.turns.running(self.session_id):
                # The turn ended meanwhile and its end may have looked without them (a look
                # that waited for it is skipped): the next turn's checkpoint looks there.
                watch.give_back(paths)

    # -- whose a change is, when several sessions run turns (``review.finding.attribution``) ----

    def just_ended(self) -> str | None:
        """The tool call that may change files which ended a moment ago (``LATE_S``), if one
        did: changes the file watch reports now are most likely its last writes."""
        if self.changer is None:
            return None
        call, when = self.changer
        return call if asyncio.get_running_loop().time() - when <= LATE_S else None

    def current(self) -> str | None:
        """The tool call a change found now goes to: the last one running, else one that may
        change files and ended a moment ago (its last writes)."""
        return next(reversed(self.running)) if self.running else self.just_ended()

    def named(self, also: str | None) -> frozenset[str]:
        """Every path the session's running tool calls name (and ``also``, the tool call a look
        of its goes to; and the one that ended a moment ago)."""
        if self.state is None:
            return frozenset()
        calls = [*self.running, also, self.just_ended()]
        found: set[str] = set()
        for call_id in dict.fromkeys(c for c in calls if c is not None):
            call = self.state.peek_tool_call(call_id)
            if call is not None:
                found.update(paths_named(call))
        return frozenset(found)


class Looks:
    """An agent's sessions' looks (one ``SessionLooks`` each, made on first use)."""

    def __init__(self, turns: TurnWatch, queue: ReviewQueue, ahead: Ahead | None = None) -> None:
        self.turns = turns
        self.queue = queue
        """Read for its mode only: nothing is looked at while review is off."""
        self.ahead = ahead
        self.tasks = Tasks()
        self._sessions: dict[str, SessionLooks] = {}

    def session(self, session_id: str) -> SessionLooks:
        found = self._sessions.get(session_id)
        if found is None:
            found = SessionLooks(session_id, self.turns, self.tasks, self.ahead)
            self._sessions[session_id] = found
        return found

    def observe(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """Session changes, as they arrive (an observer of every session of the agent)."""
        if self.queue.mode != "off":
            self.session(state.session_id).observe(state, changes)

    def unwatch(self, session_id: str) -> None:
        found = self._sessions.get(session_id)
        if found is not None:
            found.unwatch()

    async def settle(self) -> None:
        """Wait for pending looks (tests, and before answering a snapshot)."""
        await self.tasks.settle()

    async def close(self) -> None:
        for found in self._sessions.values():
            found.starting = None  # watches still being set up are not started
        if self.tasks.starting:
            await asyncio.gather(*list(self.tasks.starting), return_exceptions=True)
        for found in self._sessions.values():
            found.unwatch()
        if self.tasks.stopping:
            await asyncio.gather(*list(self.tasks.stopping), return_exceptions=True)
