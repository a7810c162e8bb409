"""The LSP lifecycle: what the editor can do (``initialize``), starting the agent early
(``initialized``), its workspace folders changing, and ending everything (``shutdown``).

Once the editor is ready, what is kept on disk is pruned in the background (some seconds later,
then once a day: ``services.retention.pruning``), owned by the server and cancelled with it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.lsp.handling import plain
from acp_editor.editor.show import elicitation
from acp_editor.errors import RpcError
from acp_editor.log import get_logger
from acp_editor.presets import PresetError, checked_preset
from acp_editor.protocol import acp
from acp_editor.protocol import editor as proto
from acp_editor.services.permissions import parse_setting

if TYPE_CHECKING:
    from acp_editor.editor.lsp.server import AcpLanguageServer
    from acp_editor.editor.show.follow import Follower
    from acp_editor.editor.supervisor import AgentSupervisor, ServerOptions

log = get_logger(__name__)


class Lifecycle:
    def __init__(
        self,
        server: AcpLanguageServer,
        agents: AgentSupervisor,
        follow: Follower,
        close: Callable[[], Awaitable[None]],
    ) -> None:
        self.server = server
        self.agents = agents
        self.follow = follow
        self.close = close
        self.ending: asyncio.Task[None] | None = None
        """The teardown ``shutdown`` began (``exit``, or the end of the stream, waits for it)."""

    def register(self) -> None:
        self.server.feature(lsp.INITIALIZE)(plain(self.initialize))
        self.server.feature(lsp.INITIALIZED)(plain(self.initialized))
        # pygls updates its workspace first, then calls this.
        self.server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(plain(self.folders_changed))
        self.server.feature(lsp.SHUTDOWN)(plain(self.shutdown))

    def initialize(self, params: lsp.InitializeParams) -> None:
        self.server.features = ClientFeatures.from_initialize(params)
        self.follow.set_enabled(self.server.features.follow_default)
        apply_editor_settings(self.server.features, self.agents.options)

    def initialized(self, params: lsp.InitializedParams) -> None:
        from acp_editor.services.retention.pruning import keep_pruned  # late: editor/late.py

        self.server.initialized = True
        self.server.background(self._warm_up())
        self.server.background(keep_pruned(self._roots))
        for ready in self.server.on_initialized:
            ready()

    def folders_changed(self, params: Any) -> None:
        self.agents.folders_changed()

    async def shutdown(self, params: Any) -> None:
        """Answered at once: lsp-mode gives ``shutdown`` 0.5 s ("Timeout while sending
        shutdown request"), eglot 1.5 s before SIGKILL, and a stubborn agent takes longer to
        end. The teardown goes on after the answer; ``exit`` or the end of the stream waits for
        it (``serve_stdio``), and a SIGKILL meanwhile leaves nothing behind either (the agent
        gets the parent-death signal, the reaper its group)."""
        if self.ending is None:
            self.ending = asyncio.ensure_future(self._end())

    async def _end(self) -> None:
        await self.close()
        self.server.cancel_background()

    def _roots(self) -> list[str]:
        """The workspace's roots now: their stores learn which root they belong to."""
        folders = (to_fs_path(f.uri) for f in self.server.workspace.folders.values())
        return list(dict.fromkeys([self.agents.workspace_root(), *(p for p in folders if p)]))

    async def _warm_up(self) -> None:
        """Start the agent as soon as the editor is ready, so the first prompt does not wait."""
        try:
            await self.agents.ensure_agent()
        except RpcError as exc:
            log.error("%s", exc.message)
            if not self.server.features.has(proto.FEATURE_STREAM):
                self.server.show_message(f"acp-editor: {exc.message}", lsp.MessageType.Error)


def apply_editor_settings(features: ClientFeatures, options: ServerOptions) -> None:
    """Settings from ``initializationOptions.acp`` win over the command line; what the editor
    can show decides which elicitation modes the agent is offered. The editor's agents join the
    presets (see ``add_editor_agents``); its MCP servers go to every agent's sessions."""
    agent = options.agent
    options.editor_mcp_servers = editor_mcp_servers(features)
    add_editor_agents(features, options)
    agent.elicitation_modes = elicitation.modes(features)
    if features.mode:
        agent.initial_mode = features.mode
    if features.review_mode is not None:
        agent.review_mode = features.review_mode  # type: ignore[assignment]
    if features.tell_agent_rejections is not None:
        agent.tell_agent_rejections = features.tell_agent_rejections
    if features.editor_context is False:
        agent.editor_context = None
    agent.mcp_servers = [*agent.mcp_servers, *options.editor_mcp_servers]  # a preset's first
    for text in features.auto_approve or []:
        try:
            agent.auto_approve.append(parse_setting(text))
        except ValueError as exc:
            log.warning("ignoring the autoApprove setting %r: %s", text, exc)


def editor_mcp_servers(features: ClientFeatures) -> list[dict[str, Any]]:
    """The editor's own MCP servers (its ``mcpServers`` setting), the wrong ones left out."""
    if features.mcp_servers is None:
        return []
    servers, problems = acp.mcp_servers_checked(features.mcp_servers)
    for problem in problems:
        log.warning("ignoring an MCP server of the mcpServers setting: %s", problem)
    return servers


def add_editor_agents(features: ClientFeatures, options: ServerOptions) -> None:
    """The editor's agents (``initializationOptions.acp.agents``) join the presets, winning over
    one of the same id; one with the server's own agent's id, or that is not a valid preset, is
    left out with a warning in the log."""
    for agent_id, spec in (features.agents or {}).items():
        if agent_id == options.agent.name:
            log.warning(
                "ignoring the agents setting %r: the server's own agent has that id", agent_id
            )
            continue
        try:
            options.presets[agent_id] = checked_preset(
                f"the agents setting {agent_id!r}", agent_id, spec
            )
        except PresetError as exc:
            log.warning("ignoring an agent: %s", exc)
