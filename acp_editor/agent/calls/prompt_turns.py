"""A prompt's turn, from the user's prompt to the turn's end.

On v1 a prompt sent while a turn runs waits its turn here (``agent.calls.prompt_queue``), shown as
``queued``; on v2 the agent queues it itself and it joins the running turn. A turn begins with
the session's roots checkpointed (review's share, ``AgentReview.begin_turn``) and ends, once the
agent has answered, with what it changed put in review; then the next waiting prompt goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from acp_editor.agent import run_state
from acp_editor.agent.calls import prompt_queue
from acp_editor.agent.prompting import send_prompt
from acp_editor.errors import AuthRequired, RpcError

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.link.connection import AgentConnection
    from acp_editor.agent.serving.requests import AgentRequests
    from acp_editor.agent.sessions import Session, Waiting
    from acp_editor.review.owner import AgentReview


class PromptTurns:
    def __init__(
        self,
        connection: AgentConnection,
        requests: AgentRequests,
        review: AgentReview,
        config: AgentConfig,
        version: Callable[[], int],
        cancel: Callable[[str], Awaitable[None]],
        is_open: Callable[[str], bool],
        sign_in: Callable[[Session], Awaitable[None]],
    ) -> None:
        self.connection = connection
        self.requests = requests
        self.review = review
        self.config = config
        self._version = version
        self._cancel = cancel
        self._is_open = is_open
        self._sign_in = sign_in
        """Signs in when the agent answers a prompt of the session with "authentication
        required", and makes the session ready to take it again."""

    async def prompt(
        self,
        session: Session,
        blocks: list[dict[str, Any]],
        sent: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> dict[str, Any]:
        """Send a prompt and wait for the turn to end; the agent's ``PromptResponse``. What the
        turn changed is in review before this returns. ``sent`` learns what the prompt says
        when it goes (the prompt history keeps that): never for one withdrawn first."""
        waiting: Waiting | None = None
        if self._version() < 2 and prompt_queue.busy(session):
            waiting, changes = prompt_queue.enqueue(session, blocks)
            self.requests.emit(session, changes)
            if not await waiting.go:
                return {"stopReason": "cancelled"}  # withdrawn before its turn
            blocks = waiting.blocks  # as edited meanwhile
        if sent is not None:
            sent(blocks)
        queued = session.prompts > 0 and self._version() >= 2
        note = self.review.unreported_rejections(session.id)
        if note is not None and self.config.tell_agent_rejections:
            blocks = [{"type": "text", "text": note}, *blocks]
        session.starting += 1
        try:
            number = None if queued else await self.review.begin_turn(session.id, session.roots)
            if waiting is not None:
                index = waiting.index
                changes = session.state.start_queued(index, blocks, number)
            else:
                index = session.state.entry_count()
                changes = session.state.add_user_prompt(blocks, number, queued=queued)
            session.prompts += 1
            self.requests.emit(session, changes + run_state.changes(session))
        finally:
            session.starting -= 1
            if waiting is not None:
                prompt_queue.started(session, waiting)
        return await self._send(session, blocks, index)

    async def _send(
        self, session: Session, blocks: list[dict[str, Any]], index: int
    ) -> dict[str, Any]:
        """The prompt whose user message is entry ``index``, sent."""
        params = {"sessionId": session.id, "prompt": blocks}
        stop_reason: str | None = None
        usage: Any = None
        try:
            result = await self._signed_in(session, params, index)
            reason = result.get("stopReason")
            stop_reason = reason if isinstance(reason, str) else None
            usage = result.get("usage")  # the turn's tokens (schema 1.25), shown with its end
            return result
        except asyncio.CancelledError:
            # Whoever waited for the turn gave up: the agent must stop too.
            await asyncio.shield(self._cancel(session.id))
            raise
        finally:
            session.prompts -= 1
            if session.prompts == 0:
                session.cancelling = False
                ended = run_state.changes(session, stop_reason, usage)
                self.requests.emit(session, session.state.settle_prompts() + ended)
                roots = session.roots if self._is_open(session.id) else []  # closed meanwhile
                await asyncio.shield(self.review.end_turn(session.id, roots))
                prompt_queue.next_turn(session)

    async def _signed_in(
        self, session: Session, params: dict[str, Any], index: int
    ) -> dict[str, Any]:
        """The prompt; when the agent answers that it needs a sign-in first (claude-agent-acp
        creates sessions signed out and refuses the first prompt), the user signs in and the
        same prompt goes once more: the waiting prompt goes on. A v2 answer naming the user
        message it inserted gives entry ``index`` that id."""
        timeout = self.config.prompt_timeout

        def inserted(message_id: str) -> None:
            self.requests.emit(session, session.state.prompt_inserted(index, message_id))

        try:
            return await send_prompt(
                self.connection, session.foreground, params, timeout, inserted=inserted
            )
        except RpcError as exc:
            if exc.code != AuthRequired.CODE:
                raise
        await self._sign_in(session)
        return await send_prompt(
            self.connection, session.foreground, params, timeout, inserted=inserted
        )

    def edit(self, session: Session, index: int, blocks: list[dict[str, Any]]) -> None:
        self.requests.emit(session, prompt_queue.edit(session, index, blocks))

    def withdraw(self, session: Session, index: int) -> None:
        self.requests.emit(session, prompt_queue.withdraw(session, index))

    def withdraw_all(self, session: Session) -> None:
        self.requests.emit(session, prompt_queue.withdraw_all(session))
