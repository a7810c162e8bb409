"""Follow-along: where the agent works, shown at most a few times a second.

Agents report locations in bursts (every streamed update of an edit carries them). Showing each
would make the editor flicker and steal the user's attention, so jumps are rate-limited with the
latest winning, and within one tool call's stream of locations in one file the view never moves
backwards (a stale update must not yank the cursor up). ``FollowPolicy`` decides (pure, no I/O);
``Follower`` shows what it lets through: ``acp/follow`` for rich editors, else
``window/showDocument`` without taking focus. With several sessions live, only the one in front
(the editor's current session) is followed, unless the editor asks for all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from lsprotocol import types as lsp

from acp_editor.editor.show.lineage import Lineage
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import location_to_lsp

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel

log = get_logger(__name__)

MIN_INTERVAL = 0.25
"""Seconds between two jumps: at most four a second."""

FURTHEST_KEPT = 256
"""(tool call, file) pairs whose furthest line is remembered: the latest ones."""

KEPT_COUNTS = 1024
"""Files whose line count is kept (by their time and size on disk) before the list starts over."""


class Jump(NamedTuple):  # a tuple: made for every location a flood of updates carries
    session_id: str
    path: str
    line: int | None
    """ACP line (1-based; 0 and None are handled by the positions module)."""
    reason: str
    tool_call_id: str | None = None


class _Lane:
    """One rate-limited stream of jumps: at most one per interval, the latest pending one wins."""

    __slots__ = ("last_sent", "pending", "timer")

    def __init__(self) -> None:
        self.last_sent = float("-inf")
        self.pending: Jump | None = None
        self.timer: asyncio.TimerHandle | None = None


class FollowPolicy:
    """Decides which jumps to show; ``send`` shows one (it must not raise)."""

    def __init__(
        self,
        send: Callable[[Jump], None],
        *,
        enabled: bool = True,
        min_interval: float = MIN_INTERVAL,
        loop: asyncio.AbstractEventLoop | None = None,
        root_of: Callable[[str], str] = str,
        front: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._send = send
        self._root_of = root_of
        """The session a subagent's work is followed as: its top parent's (it shares the
        parent's place in front and the parent's rate limit)."""
        self.enabled = enabled
        self._front = front
        """The session in front (the editor's current one): only its agent is followed, unless
        ``all_sessions``; None: any session's."""
        self.all_sessions = False
        """Every session's agent is followed, each session rate-limited on its own (a busy one
        in the background never holds back the one in front)."""
        self._interval = min_interval
        self._loop = loop
        self._lanes: dict[str, _Lane] = {}  # "" when one session is followed
        self._furthest: dict[tuple[str, str], int] = {}  # (tool call, path) -> furthest line

    def offer(self, jump: Jump) -> None:
        if not self.enabled:
            return
        followed_as = self._root_of(jump.session_id)
        if not self.all_sessions:
            front = self._front()
            if front is not None and followed_as != front:
                return  # a session in the background works where the user is not looking
        if jump.tool_call_id is not None and jump.line is not None:
            key = (jump.tool_call_id, jump.path)
            furthest = self._furthest.get(key)
            if furthest is not None and jump.line < furthest:
                return
            self._furthest[key] = jump.line
            if len(self._furthest) > FURTHEST_KEPT:  # the oldest call's goes: a flood's memory
                del self._furthest[next(iter(self._furthest))]
        name = followed_as if self.all_sessions else ""
        lane = self._lanes.get(name)
        if lane is None:
            lane = self._lanes[name] = _Lane()
        if lane.timer is not None:  # under a flood, nearly always: no clock read
            lane.pending = jump  # the latest wins
            return
        loop = self._loop or asyncio.get_running_loop()
        now = loop.time()
        if now - lane.last_sent >= self._interval:
            self._emit(lane, jump, now)
            return
        lane.pending = jump
        lane.timer = loop.call_at(lane.last_sent + self._interval, self._flush, lane)

    def _flush(self, lane: _Lane) -> None:
        lane.timer = None
        jump, lane.pending = lane.pending, None
        if jump is not None and self.enabled:
            self._emit(lane, jump, (self._loop or asyncio.get_running_loop()).time())

    def _emit(self, lane: _Lane, jump: Jump, now: float) -> None:
        lane.last_sent = now
        self._send(jump)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        if not enabled:
            for lane in self._lanes.values():
                lane.pending = None

    def close(self) -> None:
        for lane in self._lanes.values():
            if lane.timer is not None:
                lane.timer.cancel()
                lane.timer = None


class Follower:
    """Shows the jumps the policy lets through.

    ``read_text`` gives a file's text as the editor has it (to clamp a selection to its lines);
    ``before_send`` flushes the session's buffered changes so the editor never follows to a
    tool call it has not been told about; ``is_open``: whether the editor has a file open;
    ``front``: the session in front (``FollowPolicy``); ``agent_of``: a session's agent id, to
    label the mark with."""

    def __init__(
        self,
        channel: EditorChannel,
        read_text: Callable[[Path], Awaitable[str]],
        before_send: Callable[[str], None],
        lineage: Lineage | None = None,
        *,
        is_open: Callable[[Path], bool] = lambda path: False,
        front: Callable[[], str | None] = lambda: None,
        agent_of: Callable[[str], str] = lambda session_id: "default",
    ) -> None:
        self.channel = channel
        self.lineage = lineage or Lineage()
        self.read_text = read_text
        self.before_send = before_send
        self.is_open = is_open
        self._counts: dict[Path, tuple[tuple[int, int], int]] = {}
        """A file's line count by its time and size on disk: a jump into a file not open in the
        editor clamps without a read in a worker thread, which waits its turn on a busy machine
        (bench/sessions.py: the follow tail was that wait)."""
        self.policy = FollowPolicy(self._show, root_of=self.lineage.root_of, front=front)
        self.agent_of = agent_of

    @property
    def enabled(self) -> bool:
        return self.policy.enabled

    def set_enabled(self, enabled: bool) -> None:
        self.policy.set_enabled(enabled)

    def offer(self, jump: Jump) -> None:
        self.policy.offer(jump)

    def location(self, session_id: str, tool_call_id: str, locations: Any) -> None:
        """A tool call's new ``locations``: the first is where the work is."""
        if type(locations) is not list or not locations:
            return
        first = locations[0]
        path = first.get("path") if type(first) is dict else None
        if type(path) is str:
            line = first.get("line")
            line = line if type(line) is int else None  # not a bool, nor a float
            self.policy.offer(Jump(session_id, path, line, "location", tool_call_id))

    def close(self) -> None:
        self.policy.close()

    def _show(self, jump: Jump) -> None:
        # A directory is no place to show; checked here, for the few jumps the policy lets
        # through, not for every location a flood of updates carries.
        if not os.path.isdir(jump.path):
            self.channel.background(self._deliver(jump))

    async def _deliver(self, jump: Jump) -> None:
        line = jump.line
        if line is not None:
            # A location may name a line the file does not have (yet): an edit's location
            # counts lines after the edit, and it can arrive before the write. Editors differ
            # on out-of-range selections (Neovim reports an error), so clamp to the text now.
            count = await self._line_count(Path(jump.path))
            line = None if count == 0 else min(line, count) if count is not None else line
        target = location_to_lsp(
            {"path": jump.path, "line": line} if line is not None else {"path": jump.path}
        )
        if target is None:
            return
        uri, selection = target
        if self.channel.features.has(proto.FEATURE_FOLLOW):
            self.before_send(jump.session_id)
            params: dict[str, Any] = {
                "sessionId": jump.session_id,
                "agent": self.agent_of(jump.session_id),
                "uri": uri,
            }
            params["reason"] = jump.reason
            subagent = self.lineage.subagent(jump.session_id)
            if subagent is not None:
                params["subagent"] = subagent
            if jump.tool_call_id is not None:
                params["toolCallId"] = jump.tool_call_id
            if selection is not None:
                params["range"] = selection
            self.channel.notify(proto.ACP_FOLLOW, params)
        elif self.channel.features.show_document:
            await self._show_document(uri, selection)
        else:  # the editor cannot be moved: its log of this server says where the agent is
            where = f"{jump.path}:{line}" if line is not None else jump.path
            who = self.lineage.label(jump.session_id) or "the agent"
            self.channel.log_message(f"acp-editor: {who} is at {where} ({jump.reason})")

    async def _line_count(self, path: Path) -> int | None:
        """Lines of the file as an editor counts them (no extra line after a final newline)."""
        stamp: tuple[int, int] | None = None
        if not self.is_open(path):  # an open buffer's text is the editor's, not the disk's
            with contextlib.suppress(OSError):
                found = os.stat(path)  # microseconds: on the loop, no thread to wait for
                stamp = (found.st_mtime_ns, found.st_size)
            kept = self._counts.get(path)
            if stamp is not None and kept is not None and kept[0] == stamp:
                return kept[1]
        try:
            text = await self.read_text(path)
        except Exception:  # a file that cannot be read is shown without a selection
            return None
        count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if stamp is not None:
            if len(self._counts) >= KEPT_COUNTS:
                self._counts.clear()  # a long session's files: the next jumps count again
            self._counts[path] = (stamp, count)
        return count

    async def _show_document(self, uri: str, selection: Mapping[str, Any] | None) -> None:
        params: dict[str, Any] = {"uri": uri, "takeFocus": False}
        if selection is not None:
            params["selection"] = selection
        try:
            result = await self.channel.request(lsp.WINDOW_SHOW_DOCUMENT, params, timeout=10)
        except Exception as exc:  # an editor that fails to show a file must not stop the agent
            log.info("the editor could not show %s: %s", uri, exc)
            return
        if isinstance(result, dict) and result.get("success") is False:
            log.info("the editor did not show %s", uri)
