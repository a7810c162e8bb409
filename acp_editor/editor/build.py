"""Building the editor side: the one module that knows every part and wires them together.

The server knows none of its features; each part is handed what it uses (the channel to the
editor, the agent slot, a callable), never a back-pointer to the whole. The agent side comes in
through ``start_agent`` (``AcpClient`` unless a test passes a fake), and ``assemble`` works on
any ``EditorChannel``, so unit tests build the same editor side around a fake editor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pygls.uris import to_fs_path

from acp_editor.context.calls import ContextCalls
from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.agent_port import AgentFactory, AgentSide, AgentSlot
from acp_editor.editor.buffers.conflicts import Conflicts
from acp_editor.editor.buffers.review import EditorReview
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.editor.handlers.commands import Commands
from acp_editor.editor.handlers.lifecycle import Lifecycle
from acp_editor.editor.handlers.mentions import Mentions
from acp_editor.editor.handlers.review_handlers import ReviewHandlers
from acp_editor.editor.handlers.rich import RichRequests
from acp_editor.editor.handlers.session_admin import SessionAdmin
from acp_editor.editor.handlers.worktree_handlers import WorktreeHandlers
from acp_editor.editor.late import Late, late_review
from acp_editor.editor.lsp.server import AcpLanguageServer
from acp_editor.editor.show.editor_frontend import EditorFrontend
from acp_editor.editor.show.status import AgentStatuses
from acp_editor.editor.show.transcript import Transcripts
from acp_editor.editor.supervisor import AgentSupervisor, ServerOptions
from acp_editor.editor.worktree_sessions import WorktreeSessions

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.owner import Review
    from acp_editor.services.documents import DocumentSource


@dataclass
class EditorSide:
    """The parts of the editor side, built around one channel."""

    slot: AgentSlot
    statuses: AgentStatuses
    documents: EditorDocuments
    review: EditorReview
    frontend: EditorFrontend
    agents: AgentSupervisor
    context: ContextServer
    commands: Commands
    rich: RichRequests
    review_handlers: ReviewHandlers
    session_admin: SessionAdmin
    review_owner: Late[Review]
    """Review of the server's life, built at ``initialized`` (``editor/late.py``)."""
    mentions: Mentions
    _closing: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    async def open_review(self) -> None:
        """The editor said its workspace (``initialized``): the review an earlier run left
        pending there comes back now, without waiting for an agent."""
        root = self.agents.workspace_root()
        await self.review_owner().open(root, self.agents.options.agent.review_mode)
        self.review_owner().prepare(root)  # its first turn's checkpoint and watch, made ready now

    async def close(self) -> None:
        """The editor is done (``shutdown``, ``exit`` or a closed pipe): the agent goes too.
        Once, however many of those come: a later caller waits for the teardown begun."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        self.frontend.close()
        await self.agents.close()
        await self.context.close()
        await self.mentions.close()
        if self.review_owner.built is not None:
            await self.review_owner.built.flush()


def assemble(
    channel: EditorChannel,
    options: ServerOptions,
    start_agent: AgentFactory,
    workspace_root: Callable[[], str | None],
    workspace_folders: Callable[[], list[str]] = list,
) -> EditorSide:
    slot = AgentSlot()
    statuses = AgentStatuses(channel)
    conflicts = Conflicts(channel)
    documents = EditorDocuments(channel, slot.tool_call_title, conflicts=conflicts)
    # Built at its first use, after this returns (editor/late.py): its listener is made below.
    review_owner = late_review(documents, options, lambda event: frontend.review_changed(event))
    shown = ContextCalls(slot.session_state, slot.add_update)
    tools = ContextTools(documents, review_owner, channel, shown, conflicts)
    context = ContextServer(tools)
    if options.editor_context:
        options = replace(options, agent=replace(options.agent, editor_context=context))
    review = EditorReview(channel, documents, slot, conflicts, review_owner)
    transcripts = Transcripts(slot.session_state)
    worktrees = WorktreeSessions(review_owner, channel)
    frontend = EditorFrontend(
        channel,
        documents,
        review,
        statuses,
        transcripts,
        slot,
        is_open=lambda path: documents.open_document(path) is not None,
        worktree_of=worktrees.folder_at,
    )
    frontend.observers.append(shown.session_changed)
    agents = AgentSupervisor(
        options,
        slot=slot,
        statuses=statuses,
        frontend=frontend,
        documents=documents,
        review=review_owner,
        start_agent=start_agent,
        workspace_root=workspace_root,
        turn_ended=frontend.turn_ended,
        worktrees=worktrees,
        workspace_folders=workspace_folders,
    )
    return EditorSide(
        slot,
        statuses,
        documents,
        review,
        frontend,
        agents,
        context,
        Commands(channel, agents, frontend.follow, frontend.questions, transcripts, frontend.names),
        RichRequests(agents, frontend, review),
        ReviewHandlers(review, documents.changed),
        SessionAdmin(agents, frontend, lambda sid: review_owner().forget_session(sid)),
        review_owner,
        Mentions(agents, documents),
    )


def start_acp_client(
    config: AgentConfig, frontend: Frontend, documents: DocumentSource, review: Review
) -> AgentSide:
    """``AcpClient``, imported when the first agent starts: the agent side (the ACP link, its
    services, review) is not needed to answer ``initialize``, and editors wait for that."""
    from acp_editor.agent.client import AcpClient

    return AcpClient(config, frontend, documents, review)


def create_server(
    options: ServerOptions, start_agent: AgentFactory = start_acp_client
) -> AcpLanguageServer:
    """A language server with every handler registered, ready for ``serve_stdio``."""
    server = AcpLanguageServer()
    side = assemble(
        server,
        options,
        start_agent,
        lambda: workspace_root(server),
        lambda: workspace_folders(server),
    )
    Lifecycle(server, side.agents, side.frontend.follow, side.close).register()
    side.commands.register(server)
    side.rich.register(server)
    side.review_handlers.register(server)
    side.session_admin.register(server)
    WorktreeHandlers(side.agents, side.frontend.questions.confirm).register(server)
    side.mentions.register(server)
    server.on_close.append(side.close)
    server.on_initialized.append(lambda: server.background(side.open_review()))
    return server


def workspace_folders(server: AcpLanguageServer) -> list[str]:
    """Every workspace folder's path, in the editor's order; none before ``initialized``."""
    if not server.initialized:
        return []
    paths = (to_fs_path(folder.uri) for folder in server.workspace.folders.values())
    return list(dict.fromkeys(p for p in paths if p))


def workspace_root(server: AcpLanguageServer) -> str | None:
    """The first workspace folder, else ``rootUri``; None before ``initialized``."""
    if not server.initialized:
        return None
    for folder in server.workspace.folders.values():
        path = to_fs_path(folder.uri)
        if path:
            return path
    root = server.workspace.root_uri
    return (to_fs_path(root) or None) if root else None
