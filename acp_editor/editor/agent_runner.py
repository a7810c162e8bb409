"""The agents behind the editor, one runner each: started on demand, started again after a
crash, shut down once.

The routing (``editor.routing``) asks ``AgentRunners`` for the runner of the agent a session
runs in; it is made the first time, from the server's own agent's settings or a preset's
(``agents.toml``, the editor's ``initializationOptions.acp.agents``). Each runner has its own
status (``acp/agentStatus`` names the agent), so a Claude that fails to start says so without
touching a Codex that runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.errors import AgentError, InvalidParams

if TYPE_CHECKING:
    from collections.abc import Callable

    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.agent_port import AgentFactory, AgentSide
    from acp_editor.editor.show.status import AgentStatus, AgentStatuses
    from acp_editor.presets import Preset
    from acp_editor.review.owner import Review
    from acp_editor.services.documents import DocumentSource
    from acp_editor.services.path_map import PathMap


@dataclass
class ServerOptions:
    agent: AgentConfig
    """The server's own agent: sessions that name no agent run in it."""
    server_cwd: str = field(default_factory=lambda: str(Path.cwd()))
    editor_context: bool = True
    """Give every session the editor-context MCP server (``context/server.py``)."""
    presets: dict[str, Preset] = field(default_factory=dict)
    """More agents sessions may run in, by id (agents.toml's presets, then the editor's
    ``initializationOptions.acp.agents``)."""
    editor_mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    """The editor's own MCP servers (its settings), given to every agent's sessions."""


class AgentRunner:
    def __init__(
        self,
        config: AgentConfig,
        status: AgentStatus,
        *,
        frontend: Frontend,
        documents: DocumentSource,
        review: Callable[[], Review],
        start_agent: AgentFactory,
    ) -> None:
        self.config = config
        self.status = status
        self._frontend = frontend
        self._documents = documents
        self._review = review
        self._start_agent = start_agent
        self.agent: AgentSide | None = None
        """The running agent; None before the first start and while one starts again."""
        self.lost_sessions: list[str] = []
        """Sessions of an agent that crashed: loaded again when the next one can."""
        self._starting: asyncio.Task[AgentSide] | None = None

    @property
    def id(self) -> str:
        return self.config.name

    def running(self) -> AgentSide | None:
        """The agent if it runs now (not one that exited)."""
        agent = self.agent
        return agent if agent is not None and not agent.exited.is_set() else None

    async def ensure(self, cwd: str) -> AgentSide:
        """The running agent, started (once, however many ask at the same time) if it is not.
        Raises ``AgentError``."""
        agent = self.running()
        if agent is not None:
            return agent
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start(cwd))
        return await asyncio.shield(self._starting)

    async def _start(self, cwd: str) -> AgentSide:
        old = self.agent
        if old is not None:  # a crashed agent: its sessions are gone with it
            await old.shutdown()
            self.lost_sessions = [*old.session_ids(), *self.lost_sessions]
            self.agent = None
        self.status.set(state="starting")
        agent = self._start_agent(self.config, self._frontend, self._documents, self._review())
        try:
            await agent.start(cwd)
        except BaseException as exc:
            # Started half-way (shut down meanwhile, or failed after the spawn): what it
            # spawned must not outlive this, and nobody else holds it yet.
            await asyncio.shield(agent.shutdown())
            if isinstance(exc, AgentError):
                self.status.set(state="failed", message=str(exc))
            raise
        self.agent = agent
        self.status.set(
            state="ready",
            agentInfo=agent.agent_info,  # v2 calls it ``info``: the editor gets one name
            protocolVersion=agent.protocol_version,
            agentCapabilities=agent.agent_capabilities,
        )
        return agent

    async def close(self) -> None:
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(BaseException):
                await self._starting
        if self.agent is not None:
            await self.agent.shutdown()


class AgentRunners:
    """The runner of each agent sessions may run in, made when first asked for."""

    def __init__(
        self,
        options: ServerOptions,
        statuses: AgentStatuses,
        *,
        frontend: Frontend,
        documents: DocumentSource,
        review: Callable[[], Review],
        start_agent: AgentFactory,
    ) -> None:
        self.options = options
        self.statuses = statuses
        self._frontend = frontend
        self._documents = documents
        self._review = review
        self._start_agent = start_agent
        self._by_id: dict[str, AgentRunner] = {}

    def ids(self) -> list[str]:
        """Every agent sessions may run in, the server's own first."""
        return list(dict.fromkeys([self.options.agent.name, *self.options.presets]))

    def infos(self) -> list[dict[str, Any]]:
        """``AgentInfo`` of each agent (docs/protocol.md)."""
        infos = []
        for agent_id in self.ids():
            status = self.statuses.get(agent_id)
            infos.append(
                {
                    "id": agent_id,
                    "command": self.config(agent_id).command,
                    "default": agent_id == self.options.agent.name,
                    "status": status.current if status is not None and status.started else None,
                }
            )
        return infos

    def config(self, agent_id: str) -> AgentConfig:
        """The agent's settings: the server's own agent's, or a preset's command, environment,
        mode and MCP servers with the server's and the editor's other settings."""
        own = self.options.agent
        if agent_id == own.name:
            return own
        preset = self.options.presets.get(agent_id)
        if preset is None:
            raise InvalidParams(f"unknown agent: {agent_id!r} (agents: {', '.join(self.ids())})")
        return replace(
            own,
            name=agent_id,
            command=list(preset.command),
            env=dict(preset.env),
            initial_mode=preset.mode,
            auth_method=None,
            mcp_servers=[*preset.mcp_servers, *self.options.editor_mcp_servers],
            auto_approve=list(own.auto_approve),
            paths=mapped(preset.map_paths),
            command_prefix=preset.command_prefix,
        )

    def get(self, agent_id: str) -> AgentRunner:
        runner = self._by_id.get(agent_id)
        if runner is None:
            config = self.config(agent_id)
            runner = self._by_id[agent_id] = AgentRunner(
                config,
                self.statuses.of(agent_id, config.command),
                frontend=self._frontend,
                documents=self._documents,
                review=self._review,
                start_agent=self._start_agent,
            )
        return runner

    async def close(self) -> None:
        for runner in list(self._by_id.values()):
            await runner.close()


def mapped(pairs: list[str]) -> PathMap | None:
    """A preset's ``map_paths`` (checked when the preset was read), None for none."""
    from acp_editor.services.path_map import PathMap  # rare: not at every start

    return PathMap.parse(pairs) or None
