"""Stopping work: a whole turn (``session/cancel``), or on v2 one tool call (``tool_call/cancel``)
or one command the agent runs itself (``terminal/cancel``), each sent only while it advertises
that it can be cancelled."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from acp_editor.errors import InvalidParams
from acp_editor.protocol import acp, tool_call

if TYPE_CHECKING:
    from acp_editor.agent.link.connection import AgentConnection
    from acp_editor.agent.serving.asking import PermissionAsker
    from acp_editor.agent.serving.display_terminals import DisplayTerminals
    from acp_editor.agent.serving.eliciting import Elicitor
    from acp_editor.agent.serving.requests import AgentRequests
    from acp_editor.agent.sessions import Session


class Cancelling:
    """``session``: a session by id (``AgentError`` for one we do not have);
    ``withdraw_waiting``: its prompts waiting for their turn (v1) will not go."""

    def __init__(
        self,
        connection: AgentConnection,
        requests: AgentRequests,
        asker: PermissionAsker,
        elicitor: Elicitor,
        display: DisplayTerminals,
        session: Callable[[str], Session],
        withdraw_waiting: Callable[[Session], None],
    ) -> None:
        self.connection = connection
        self.requests = requests
        self.asker = asker
        self.elicitor = elicitor
        self.display = display
        self.session = session
        self.withdraw_waiting = withdraw_waiting

    async def cancel(self, session_id: str, drop_waiting: bool = False) -> None:
        """``session/cancel``: pending permissions answer ``cancelled``, unfinished tool calls are
        marked cancelled; updates keep flowing until the prompt's response arrives. Prompts
        waiting for their turn (v1) go after it, unless ``drop_waiting``."""
        session = self.session(session_id)
        if drop_waiting:
            self.withdraw_waiting(session)
        if session.prompting:
            session.cancelling = True
        self.asker.cancel(session)
        self.elicitor.cancel(session_id)
        self.requests.emit(session, session.state.mark_unfinished_cancelled())
        await self.connection.notify(acp.SESSION_CANCEL, {"sessionId": session_id})

    async def cancel_tool_call(self, session_id: str, tool_call_id: str) -> None:
        """v2's ``tool_call/cancel``: one tool call stopped, the rest of the work going on; sent
        only while the tool call advertises it and is not finished (else ``InvalidParams``)."""
        call = self.session(session_id).state.peek_tool_call(tool_call_id)
        if self.connection.protocol_version < 2:
            raise InvalidParams("the agent speaks ACP v1, which cannot cancel one tool call")
        if call is None:
            raise InvalidParams(f"the agent reported no tool call {tool_call_id!r} here")
        if tool_call.is_finished(call) or not tool_call.can_cancel(call):
            raise InvalidParams(f"the agent does not offer to cancel tool call {tool_call_id} now")
        params = {"sessionId": session_id, "toolCallId": tool_call_id}
        await self.connection.call(acp.TOOL_CALL_CANCEL, params)

    async def cancel_terminal(self, session_id: str, terminal_id: str) -> None:
        """v2's ``terminal/cancel``: one command the agent runs itself stopped; sent only while
        its terminal advertises it and runs (``DisplayTerminals.cancel_refused``)."""
        self.session(session_id)
        refused = self.display.cancel_refused(session_id, terminal_id)
        if self.connection.protocol_version < 2:
            refused = "the agent speaks ACP v1, which cannot cancel one of its terminals"
        if refused is not None:
            raise InvalidParams(refused)
        params = {"sessionId": session_id, "terminalId": terminal_id}
        await self.connection.call(acp.TERMINAL_CANCEL, params)
