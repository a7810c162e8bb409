"""The editor side's one view of the agent side: what it may call, and which agents run.

``editor.routing`` starts agents through an ``AgentFactory``; it and ``editor.supervisor`` drive
them through ``AgentSide``; nothing in ``editor/`` imports ``agent.client``. ``editor.build``
passes the real ``AcpClient`` (mypy checks there that it fits), unit tests a fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from acp_editor.agent.config import AgentConfig
from acp_editor.agent.frontend import Frontend
from acp_editor.protocol import tool_call
from acp_editor.services.documents import DocumentSource

if TYPE_CHECKING:
    from acp_editor.review.owner import Restore, Review
    from acp_editor.session.state import SessionView


class OpenedSession(Protocol):
    @property
    def id(self) -> str: ...


class AgentSide(Protocol):
    """One running agent and its sessions."""

    exited: asyncio.Event

    @property
    def protocol_version(self) -> int: ...

    @property
    def agent_info(self) -> dict[str, Any] | None:
        """What the agent says it is (name, title, version), whichever protocol version."""

    @property
    def agent_capabilities(self) -> dict[str, Any]: ...

    async def start(self, cwd: str) -> dict[str, Any]:
        """Spawn and ``initialize``; the agent's answer. Raises ``AgentError``."""
        ...

    async def shutdown(self) -> None: ...

    def supports(self, method: str) -> bool: ...

    def session_ids(self) -> list[str]: ...

    def session_state(self, session_id: str) -> SessionView | None: ...

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]: ...

    def add_update(self, session_id: str, update: dict[str, Any]) -> None:
        """An update acp-editor adds to a session itself, shown like the agent's own: what the
        agent looked at through the editor-context MCP server."""
        ...

    async def new_session(
        self, cwd: str, additional_directories: Sequence[str] = ()
    ) -> OpenedSession: ...

    async def load_session(
        self,
        session_id: str,
        cwd: str,
        *,
        resume: bool = False,
        additional_directories: Sequence[str] = (),
    ) -> OpenedSession: ...

    def set_directories(self, session_id: str, directories: Sequence[str]) -> None: ...

    async def delete_session(self, session_id: str) -> None: ...

    async def fork_session(
        self, parent_id: str, cwd: str, dirs: Sequence[str] = ()
    ) -> OpenedSession: ...

    async def logout(self) -> None: ...

    async def set_title(self, session_id: str, title: str) -> None: ...

    async def archive_session(self, session_id: str, archived: bool = True) -> None: ...

    async def session_status(self, session_id: str) -> str: ...

    async def sign_in(self) -> str: ...

    async def list_sessions(self, cwd: str | None = None) -> dict[str, Any]: ...

    async def prompt(
        self,
        session_id: str,
        blocks: list[dict[str, Any]],
        sent: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> dict[str, Any]:
        """A turn, its answer when it ends. ``sent`` is called once the prompt goes to the agent,
        with what it then says (a v1 prompt that waited its turn: as edited meanwhile); never
        for one withdrawn before its turn."""
        ...

    async def cancel(self, session_id: str, drop_waiting: bool = False) -> None:
        """``session/cancel``; prompts waiting for their turn (v1) go after it unless
        ``drop_waiting``."""
        ...

    async def cancel_tool_call(self, session_id: str, tool_call_id: str) -> None:
        """v2's ``tool_call/cancel``; raises ``InvalidParams`` unless the tool call advertises
        ``capabilities.cancel`` now."""
        ...

    async def cancel_terminal(self, session_id: str, terminal_id: str) -> None:
        """v2's ``terminal/cancel`` of a terminal the agent runs itself; ``InvalidParams``
        unless it advertises ``capabilities.cancel`` and runs."""
        ...

    def edit_prompt(self, session_id: str, index: int, blocks: list[dict[str, Any]]) -> None:
        """A prompt waiting for its turn (its entry ``index``) says something else; raises
        ``InvalidParams`` when no prompt waits there."""
        ...

    def withdraw_prompt(self, session_id: str, index: int) -> None:
        """A prompt waiting for its turn will not go; raises ``InvalidParams`` as above."""
        ...

    async def undoable_session(self, current: str | None, roots: Sequence[str]) -> str:
        """The session to undo a turn of when the editor names none: ``current`` when it has a
        checkpointed turn, else the session of the last turn checkpointed in ``roots``, maybe
        of an earlier run. Raises ``AgentError`` when there is none."""
        ...

    async def restore_plan(
        self, session_id: str, turn: int | None = None, roots: Sequence[str] = ()
    ) -> tuple[int, list[Restore]]:
        """Raises ``AgentError``; ``roots``: where a session that is not open had its turns."""
        ...

    async def restore(self, session_id: str, number: int, plan: list[Restore]) -> None: ...

    async def set_mode(self, session_id: str, mode_id: str) -> None: ...

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None: ...


AgentFactory = Callable[[AgentConfig, Frontend, DocumentSource, "Review"], AgentSide]
"""Makes an agent side that records its changes in the given review (the editor side's, which
outlives every agent)."""


class AgentSlot:
    """The agents the editor talks to now, by id: none before the first start, one missing while
    it starts again, and the session in front. Whoever only reads (edit labels, follow-along) is
    given the slot, not the links that fill it; a session is found in whichever agent has it."""

    def __init__(self) -> None:
        self.agents: dict[str, AgentSide] = {}
        self.current_session: str | None = None
        """The session in front (the editor's current one): ``editor.routing``'s to change."""

    def agent_of(self, session_id: str) -> AgentSide | None:
        for agent in self.agents.values():
            if session_id in agent.session_ids():
                return agent
        return None

    def session_state(self, session_id: str) -> SessionView | None:
        agent = self.agent_of(session_id)
        return agent.session_state(session_id) if agent is not None else None

    def add_update(self, session_id: str, update: dict[str, Any]) -> None:
        agent = self.agent_of(session_id)
        if agent is not None:
            agent.add_update(session_id, update)

    def tool_call_title(self, session_id: str, tool_call_id: str | None) -> str | None:
        state = self.session_state(session_id)
        call = state.peek_tool_call(tool_call_id) if state and tool_call_id else None
        return tool_call.tool_call_title(call) if call is not None else None
