"""Sending a prompt and knowing when the agent's work on it is over, in both protocol versions.

v1: the ``session/prompt`` response ends the turn and carries its ``stopReason``.
v2: the response only says the agent inserted the prompt into the conversation (schema 1.25:
with the ``messageId`` of that user message, which the agent's echo of it carries too); the work
ends with a ``state_update`` of state ``idle`` (and a ``stopReason``) that comes after it. A
prompt sent while the agent works is queued by the agent and ends with the same ``idle``, or a
later one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.link.connection import AgentConnection


@dataclass(eq=False)
class _Waiter:
    future: asyncio.Future[str | None]
    accepted: bool = False
    """The agent answered the prompt: an ``idle`` from now on ends its work."""

    def accept(self) -> None:
        self.accepted = True


@dataclass
class Foreground:
    """One session's prompts waiting for the agent to go idle (v2)."""

    _waiting: list[_Waiter] = field(default_factory=list)

    def expect(self) -> _Waiter:
        waiter = _Waiter(asyncio.get_running_loop().create_future())
        self._waiting.append(waiter)
        return waiter

    def idle(self, stop_reason: str | None) -> None:
        """The agent reported ``idle``: the work of every prompt it accepted is over. A prompt
        not answered yet is not: that ``idle`` ended work from before it."""
        for waiter in self._waiting:
            if waiter.accepted and not waiter.future.done():
                waiter.future.set_result(stop_reason)

    def fail(self, error: Exception) -> None:
        """The agent is gone: no ``idle`` will come."""
        for waiter in self._waiting:
            if not waiter.future.done():
                waiter.future.set_exception(error)

    def forget(self, waiter: _Waiter) -> None:
        self._waiting.remove(waiter)
        if waiter.future.done() and not waiter.future.cancelled():
            waiter.future.exception()  # read, so asyncio does not log an unread one


def idle_reason(update: Any) -> tuple[bool, str | None]:
    """Whether a ``session/update`` reports the agent idle, and its stop reason."""
    if type(update) is not dict or update.get("sessionUpdate") != "state_update":
        return False, None
    if update.get("state") != "idle":
        return False, None
    reason = update.get("stopReason")
    return True, reason if isinstance(reason, str) else None


async def send_prompt(
    connection: AgentConnection,
    foreground: Foreground,
    params: dict[str, Any],
    timeout: float | None,
    *,
    inserted: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """``session/prompt``, returning the ``PromptResponse`` of the turn's end (for v2, one made
    from the ``idle`` that ended it: ``{"stopReason": ...}``). ``inserted`` is told the
    ``messageId`` a v2 answer names, once the answer is read."""
    if connection.protocol_version < 2:
        result = await connection.call(acp.SESSION_PROMPT, params, timeout=timeout)
        return acp.obj(result, "session/prompt result")
    waiter = foreground.expect()
    try:
        result = await connection.call(
            acp.SESSION_PROMPT, params, timeout=timeout, answered=waiter.accept
        )
        answer = acp.obj(result, "session/prompt result")
        if "stopReason" in answer:  # answered the v1 way: the turn is over already
            return answer
        message_id = answer.get("messageId")
        if inserted is not None and isinstance(message_id, str):
            inserted(message_id)
        stop_reason = await asyncio.wait_for(asyncio.shield(waiter.future), timeout)
        return {"stopReason": stop_reason or "end_turn"}
    finally:
        foreground.forget(waiter)
