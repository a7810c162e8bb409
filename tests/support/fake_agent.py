"""A fake agent side for unit tests of the editor side: an ``AgentSide`` kept in memory.

Its sessions are real ``SessionState``s and its updates reach the real front end, so the editor
glue is exercised as with a real agent, minus the process and the wire.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from acp_editor.agent.config import AgentConfig
from acp_editor.agent.frontend import Frontend
from acp_editor.errors import AgentError, InvalidParams
from acp_editor.protocol import acp, tool_call
from acp_editor.review.owner import Review
from acp_editor.services.documents import DocumentSource
from acp_editor.session.state import SessionState, SessionView


@dataclass
class Opened:
    id: str


@dataclass
class Script:
    """How the agents a ``FakeAgents`` starts behave."""

    fail_start: str | None = None
    capabilities: dict[str, Any] = field(default_factory=lambda: {"loadSession": True})
    turn: list[dict[str, Any]] = field(default_factory=list)
    """``session/update`` payloads each prompt applies, in order, before the turn ends."""
    stop_reason: str = "end_turn"
    start_gate: asyncio.Event | None = None
    """When set, ``start`` waits for it (an agent slow to come up)."""


class FakeAgent:
    def __init__(
        self,
        config: AgentConfig,
        frontend: Frontend,
        documents: DocumentSource,
        script: Script,
        review: Review | None = None,
    ) -> None:
        self.config = config
        self.frontend = frontend
        self.script = script
        self.exited = asyncio.Event()
        self.protocol_version = 1
        self.review = review or Review(documents, "after-write", frontend.review_changed)
        self.states: dict[str, SessionState] = {}
        self.calls: list[tuple[str, Any]] = []
        self.directories: dict[str, list[str]] = {}
        """Each session's additional directories, as last given."""
        self._ids = itertools.count(1)

    @property
    def agent_info(self) -> dict[str, Any] | None:
        return {"name": "fake-agent"}

    @property
    def agent_capabilities(self) -> dict[str, Any]:
        return self.script.capabilities

    async def start(self, cwd: str) -> dict[str, Any]:
        self.calls.append(("start", cwd))
        if self.script.start_gate is not None:
            await self.script.start_gate.wait()
        if self.script.fail_start is not None:
            raise AgentError(self.script.fail_start)
        return {"protocolVersion": 1, "agentInfo": {"name": "fake-agent"}}

    async def shutdown(self) -> None:
        self.calls.append(("shutdown", None))
        self.exited.set()

    def crash(self) -> None:
        self.exited.set()
        self.frontend.agent_exited(self.config.name, 9, "fake agent: boom", False)

    def supports(self, method: str) -> bool:
        if method == acp.SESSION_LOAD:
            return self.script.capabilities.get("loadSession") is True
        return method.removeprefix("session/") in self.script.capabilities

    def session_ids(self) -> list[str]:
        return list(self.states)

    def session_state(self, session_id: str) -> SessionView | None:
        return self.states.get(session_id)

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        return [s.snapshot() for sid, s in self.states.items() if session_id in (None, sid)]

    def add_update(self, session_id: str, update: dict[str, Any]) -> None:
        state = self.states.get(session_id)
        if state is not None:
            self.frontend.session_changed(state, state.apply_update(update))

    def _open(self, session_id: str) -> Opened:
        state = self.states[session_id] = SessionState(session_id, agent=self.config.name)
        modes = [{"id": "ask", "name": "Ask"}, {"id": "auto", "name": "Auto"}]
        self.frontend.session_changed(
            state, state.set_modes({"currentModeId": "ask", "availableModes": modes})
        )
        return Opened(session_id)

    async def new_session(self, cwd: str, additional_directories: Sequence[str] = ()) -> Opened:
        self.calls.append(("new_session", cwd))
        # The default agent's sessions are s1, s2...; another agent's carry its name, as real
        # agents' ids never collide.
        prefix = "" if self.config.name == "default" else f"{self.config.name}-"
        self.directories[f"{prefix}s{next(self._ids)}"] = list(additional_directories)
        return self._open(list(self.directories)[-1])

    async def load_session(
        self,
        session_id: str,
        cwd: str,
        *,
        resume: bool = False,
        additional_directories: Sequence[str] = (),
    ) -> Opened:
        self.calls.append(("resume" if resume else "load", session_id))
        self.directories[session_id] = list(additional_directories)
        return self._open(session_id)

    def set_directories(self, session_id: str, directories: Sequence[str]) -> None:
        self.directories[session_id] = list(directories)

    async def list_sessions(self, cwd: str | None = None) -> dict[str, Any]:
        return {"sessions": [{"sessionId": s, "cwd": cwd} for s in self.states]}

    async def prompt(
        self,
        session_id: str,
        blocks: list[dict[str, Any]],
        sent: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> dict[str, Any]:
        self.calls.append(("prompt", blocks))
        if sent is not None:
            sent(blocks)
        state = self.states[session_id]
        self.frontend.session_changed(state, state.add_user_prompt(blocks))
        for update in self.script.turn:
            self.frontend.session_changed(state, state.apply_update(update))
        return {"stopReason": self.script.stop_reason}

    async def cancel(self, session_id: str, drop_waiting: bool = False) -> None:
        self.calls.append(("cancel", session_id))

    async def cancel_tool_call(self, session_id: str, tool_call_id: str) -> None:
        if not tool_call.can_cancel(self.states[session_id].peek_tool_call(tool_call_id)):
            raise InvalidParams(f"the agent does not offer to cancel tool call {tool_call_id}")
        self.calls.append(("cancel_tool_call", (session_id, tool_call_id)))

    async def cancel_terminal(self, session_id: str, terminal_id: str) -> None:
        self.calls.append(("cancel_terminal", (session_id, terminal_id)))

    def edit_prompt(self, session_id: str, index: int, blocks: list[dict[str, Any]]) -> None:
        self.calls.append(("edit_prompt", (session_id, index, blocks)))

    def withdraw_prompt(self, session_id: str, index: int) -> None:
        self.calls.append(("withdraw_prompt", (session_id, index)))

    async def undoable_session(self, current: str | None, roots: Sequence[str]) -> str:
        if current is None:
            raise AgentError("no turn of this session has a checkpoint yet")
        return current

    async def restore_plan(
        self, session_id: str, turn: int | None = None, roots: Sequence[str] = ()
    ) -> tuple[int, list[Any]]:
        raise AgentError("no turn of this session has a checkpoint yet")

    async def restore(self, session_id: str, number: int, plan: list[Any]) -> None:
        raise AssertionError("restore without a plan")

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        self.calls.append(("set_mode", (session_id, mode_id)))

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        self.calls.append(("set_config_option", (session_id, config_id, value)))


class FakeAgents:
    """An ``AgentFactory``: every agent it started, the last one current."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.started: list[FakeAgent] = []

    def __call__(
        self, config: AgentConfig, frontend: Frontend, documents: DocumentSource, review: Review
    ) -> FakeAgent:
        agent = FakeAgent(config, frontend, documents, self.script, review)
        self.started.append(agent)
        return agent

    @property
    def current(self) -> FakeAgent:
        return self.started[-1]
