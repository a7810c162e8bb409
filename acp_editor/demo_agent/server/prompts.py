"""The scripted agent's prompt turns: one at a time on v1 (the answer ends the turn); on the v2
draft accepted at once and run from a queue between ``running`` and ``idle`` state updates.

A base of ``ScriptedAgent`` (``methods``), which sets the attributes declared here.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from acp_editor.demo_agent.scenarios.words import run_turn
from acp_editor.demo_agent.server.store import save_session
from acp_editor.demo_agent.turn.prompt_turn import AgentSession, Turn, now
from acp_editor.demo_agent.turn.v2 import state_update
from acp_editor.errors import ConnectionClosed, InvalidParams, InvalidRequest
from acp_editor.log import get_logger
from acp_editor.protocol import prompt
from acp_editor.protocol.acp import obj_or_empty

if TYPE_CHECKING:
    from acp_editor.agent.link.rpc import JsonRpcPeer
    from acp_editor.demo_agent.turn.capabilities import ClientCaps

log = get_logger(__name__)

CANCEL_GRACE = 5.0  # how long a new prompt waits for a cancelled turn to finish
CONTEXT_TOKENS = 1200
"""The input of every turn before the conversation: a system prompt and the tools' schemas."""


def prompt_text(blocks: Any) -> str:
    """The text of a prompt: text blocks verbatim, links and resources by their URI."""
    if not isinstance(blocks, list):
        raise InvalidParams("prompt must be an array of content blocks")
    parts: list[str] = []
    for block in blocks:
        if not isinstance(block, dict):
            raise InvalidParams("every prompt item must be a content block object")
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block.get("uri"), str):
            parts.append(block["uri"])
    return " ".join(parts)


@dataclass(frozen=True)
class Tuning:
    """Ways the tests bend the agent (``tests/agents/scripted.py``); the product's command line
    sets none of them, so the demo always behaves like a well-mannered agent."""

    fast: bool = False
    """No streaming delays: a turn takes as long as the client needs to read it."""
    wait_first: bool = False
    """Start every turn with the ``wait`` scenario, so there is always a turn to cancel."""
    answer_version: int | None = None
    """Answer ``initialize`` with this protocol version, whatever the client asked for."""
    mcp_transports: tuple[str, ...] | None = None
    """Advertise these MCP transports (v1 ``mcpCapabilities``, v2 ``session.mcp``; v1's stdio
    goes without saying, v2's does not) instead of the demo's own: MCP-over-ACP only, the one it
    uses (the ``look`` scenario)."""
    notice_at_new: bool = False
    """Send a notice right after ``session/new`` answered, before any prompt (an agent message
    instead to a client that did not advertise ``session.notices``)."""


AS_IS = Tuning()
"""The agent as the demo runs it: nothing bent."""


class PromptTurns:
    peer: JsonRpcPeer
    version: int
    caps: ClientCaps
    tuning: Tuning
    wait_seconds: float
    writes_itself: bool
    state_dir: str | None
    sessions: dict[str, AgentSession]
    children: dict[str, AgentSession]

    def _session(self, params: dict[str, Any], *, active: bool = True) -> AgentSession:
        raise NotImplementedError  # ScriptedAgent's

    async def check_login(self) -> None:
        raise NotImplementedError  # SignIn's (before PromptTurns among ScriptedAgent's bases)

    async def prompt(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        session = self._session(p)
        await self.check_login()
        if self.version >= 2:  # inserted at once; the work ends with a state_update (v2)
            message_id = f"msg_{uuid.uuid4().hex[:10]}"  # the answer and the echo name it
            session.queue.append((p.get("prompt"), message_id))
            if session.turn is None or session.turn.done():
                session.turn = asyncio.ensure_future(self._work_v2(session))
            return {"messageId": message_id}
        text = prompt_text(p.get("prompt"))
        await self._previous_turn_ended(session)
        await self._take_prompt(session, text, p.get("prompt"))
        turn = self._turn(session)
        task = asyncio.ensure_future(run_turn(turn, text, wait_first=self.tuning.wait_first))
        session.turn = task
        try:
            stop_reason = await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # our own request was cancelled ($/cancel_request or shutdown)
            stop_reason = "cancelled"  # only the turn was: session/cancel or session/close
        finally:
            if session.turn is task:
                session.turn = None
            self._turn_saved(session)
        return {"stopReason": stop_reason, "usage": _usage(session, turn)}

    async def _work_v2(self, session: AgentSession) -> str:
        """v2: run the queued prompts one after another, between ``running`` and ``idle``.
        Each is echoed (``user_message``, with the ``messageId`` its answer named) when it is
        taken up."""
        await asyncio.sleep(0)  # the answer to session/prompt goes out first
        stop_reason, running = "end_turn", False
        try:
            while session.queue and stop_reason != "cancelled":
                blocks, message_id = session.queue.pop(0)
                echo = {"sessionUpdate": "user_message", "messageId": message_id}
                await self._update(session, {**echo, "content": blocks})
                if not running:  # the spec's order: the prompt's place in history, then work
                    running = True
                    await self._update(session, state_update(session.work, "running"))
                text = prompt_text(blocks)
                await self._take_prompt(session, text, blocks)
                turn = self._turn(session)
                stop_reason = await run_turn(turn, text, wait_first=self.tuning.wait_first)
        except asyncio.CancelledError:
            stop_reason = "cancelled"  # session/cancel: the queued prompts go too
        finally:
            session.queue.clear()
            self._turn_saved(session)
        idle = state_update(session.work, "idle", stopReason=stop_reason)
        with contextlib.suppress(ConnectionClosed):  # closed: nobody to tell
            await self._update(session, idle)
        return stop_reason

    async def _take_prompt(self, session: AgentSession, text: str, blocks: Any) -> None:
        session.history.append(("user", text))
        save_session(self.state_dir, session)
        if session.title is None:
            # What the user typed (else a file's name), not the attachments' URIs run together.
            session.title = (
                prompt.title(blocks if isinstance(blocks, list) else []) or "(empty prompt)"
            )
            update = {"sessionUpdate": "session_info_update", "title": session.title}
            await self._update(session, update)

    def _turn(self, session: AgentSession) -> Turn:
        return Turn(
            self.peer,
            session,
            version=self.version,
            caps=self.caps,
            fast=self.tuning.fast,
            wait_seconds=self.wait_seconds,
            writes_itself=self.writes_itself,
            children=self.children,
        )

    def _turn_saved(self, session: AgentSession) -> None:
        session.updated_at = now()
        save_session(self.state_dir, session)  # with the reply: a replay after a restart

    async def _update(self, session: AgentSession, update: dict[str, Any]) -> None:
        await self.peer.notify(
            "session/update", {"sessionId": session.session_id, "update": update}
        )

    async def _previous_turn_ended(self, session: AgentSession) -> None:
        """One turn at a time; but a turn already cancelled is only tidying up (releasing its
        terminal), and a client that withdrew a prompt may send the next one at once."""
        previous = session.turn
        if previous is None or previous.done():
            return
        if previous.cancelling():
            await asyncio.wait({previous}, timeout=CANCEL_GRACE)
        if not previous.done():
            raise InvalidRequest("a prompt turn is already running in this session")

    def cancel(self, params: Any) -> None:
        """``session/cancel``: stop the running turn now; its pending requests are withdrawn
        with ``$/cancel_request`` and the prompt answers ``cancelled``."""
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        session = None
        if isinstance(session_id, str):  # a subagent's session is cancelled alone
            session = self.sessions.get(session_id) or self.children.get(session_id)
        if session is None or session.turn is None:
            log.info("session/cancel with nothing to cancel: %r", session_id)
            return
        session.turn.cancel()


def _usage(session: AgentSession, turn: Turn) -> dict[str, int]:
    """The turn's tokens (``PromptResponse.usage``), counted as about four characters each: the
    conversation so far in, what the agent said out."""
    read = CONTEXT_TOKENS + sum(len(words) for _, words in session.history) // 4
    written = 1 + turn.output_chars // 4
    return {"totalTokens": read + written, "inputTokens": read, "outputTokens": written}
