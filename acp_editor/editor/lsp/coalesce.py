"""Coalescing session changes into about one notification per frame.

A fast agent streams hundreds of chunks a second; one ``acp/sessionChanged`` per chunk would flood
the editor's UI thread. So a session's changes go out at most once per ``FRAME`` seconds, in
order: the first change after a quiet frame at once (a lone update is not held back), the ones
that follow it within the frame together when the frame ends. Anything else sent for a session
(a follow jump, a diff, a permission request) first flushes that session's buffer, so an editor
never sees a later event before the state it refers to.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

FRAME = 0.016


class Coalescer:
    def __init__(
        self,
        send: Callable[[str, list[dict[str, Any]]], None],
        *,
        frame: float = FRAME,
    ) -> None:
        self._send = send
        self._frame = frame
        self._buffers: dict[str, list[dict[str, Any]]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._sent_at: dict[str, float] = {}

    def add(self, session_id: str, changes: list[dict[str, Any]]) -> None:
        if not changes:
            return
        self._buffers.setdefault(session_id, []).extend(changes)
        if session_id in self._timers:
            return  # the frame's end sends them
        due = self._sent_at.get(session_id, float("-inf")) + self._frame
        if time.monotonic() >= due:
            self.flush(session_id)
        else:
            loop = asyncio.get_running_loop()  # its clock is time.monotonic()
            self._timers[session_id] = loop.call_at(due, self.flush, session_id)

    def flush(self, session_id: str) -> None:
        timer = self._timers.pop(session_id, None)
        if timer is not None:
            timer.cancel()
        changes = self._buffers.pop(session_id, None)
        if changes:
            self._sent_at[session_id] = time.monotonic()
            self._send(session_id, changes)

    def flush_all(self) -> None:
        for session_id in list(self._buffers):
            self.flush(session_id)
