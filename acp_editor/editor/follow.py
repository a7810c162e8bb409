"""Follow-along policy: where the agent works, shown at most a few times a second.

Agents report locations in bursts (every streamed update of an edit carries them). Showing each
would make the editor flicker and steal the user's attention, so jumps are rate-limited with the
latest winning, and within one tool call's stream of locations in one file the view never moves
backwards (a stale update must not yank the cursor up).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

MIN_INTERVAL = 0.25
"""Seconds between two jumps: at most four a second."""


@dataclass(frozen=True)
class Jump:
    session_id: str
    path: str
    line: int | None
    """ACP line (1-based; 0 and None are handled by the positions module)."""
    reason: str
    tool_call_id: str | None = None


class FollowPolicy:
    """Decides which jumps to show; ``send`` shows one (it must not raise)."""

    def __init__(
        self,
        send: Callable[[Jump], None],
        *,
        enabled: bool = True,
        min_interval: float = MIN_INTERVAL,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self._send = send
        self.enabled = enabled
        self._interval = min_interval
        self._loop = loop
        self._last_sent = float("-inf")
        self._pending: Jump | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._furthest: dict[tuple[str, str], int] = {}  # (tool call, path) -> furthest line

    def offer(self, jump: Jump) -> None:
        if not self.enabled:
            return
        if jump.tool_call_id is not None and jump.line is not None:
            key = (jump.tool_call_id, jump.path)
            furthest = self._furthest.get(key)
            if furthest is not None and jump.line < furthest:
                return
            self._furthest[key] = jump.line
        loop = self._loop or asyncio.get_running_loop()
        now = loop.time()
        if now - self._last_sent >= self._interval and self._timer is None:
            self._emit(jump, now)
            return
        self._pending = jump  # the latest wins
        if self._timer is None:
            self._timer = loop.call_at(self._last_sent + self._interval, self._flush)

    def _flush(self) -> None:
        self._timer = None
        jump, self._pending = self._pending, None
        if jump is not None and self.enabled:
            self._emit(jump, (self._loop or asyncio.get_running_loop()).time())

    def _emit(self, jump: Jump, now: float) -> None:
        self._last_sent = now
        self._send(jump)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        if not enabled:
            self._pending = None

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
