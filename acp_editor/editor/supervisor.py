"""The agent behind the editor: started on demand, restarted after a crash, and its sessions.

Editor requests (commands and ``acp/...`` requests alike) come here; this module knows which
session is current and turns agent failures into one clear error the editor can show. It reaches
the agent side only through ``editor.agent_port``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from acp_editor.editor.show.replies import TurnSummary, summarize
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.protocol import editor as proto
from acp_editor.services.prompt_history import PromptHistory, prompt_text

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.agent_port import AgentFactory, AgentSide, AgentSlot
    from acp_editor.editor.show.status import AgentStatus
    from acp_editor.review.owner import Restore, Review
    from acp_editor.services.documents import DocumentSource

log = get_logger("editor.supervisor")
T = TypeVar("T")


class AgentUnavailable(RpcError):
    CODE = proto.AGENT_UNAVAILABLE
    MESSAGE = "The agent is not available"


@dataclass
class ServerOptions:
    agent: AgentConfig
    server_cwd: str = field(default_factory=os.getcwd)
    editor_context: bool = True
    """Give every session the editor-context MCP server (``context/server.py``)."""


class AgentSupervisor:
    def __init__(
        self,
        options: ServerOptions,
        *,
        slot: AgentSlot,
        status: AgentStatus,
        frontend: Frontend,
        documents: DocumentSource,
        review: Review,
        start_agent: AgentFactory,
        workspace_root: Callable[[], str | None],
        turn_ended: Callable[[str], None],
        workspace_folders: Callable[[], list[str]] = list,
    ) -> None:
        self.options = options
        self.slot = slot
        self.status = status
        self.frontend = frontend
        self.documents = documents
        self.review = review
        self._start_agent = start_agent
        self._workspace_root = workspace_root
        self._workspace_folders = workspace_folders
        self._histories: dict[Path, PromptHistory] = {}
        self._turn_ended = turn_ended
        """Called with the session id before a prompt is answered: the editor must have the
        turn's last state before it learns the turn ended."""
        self.current_session: str | None = None
        self._starting: asyncio.Task[AgentSide] | None = None
        self._lost_session: str | None = None
        """The current session of an agent that crashed: loaded again when the agent can."""
        self._closed = False

    @property
    def agent(self) -> AgentSide | None:
        return self.slot.agent

    # -- the agent ------------------------------------------------------------------------------

    def workspace_root(self) -> str:
        """The editor's first workspace folder or root, else the server's own directory."""
        return self._workspace_root() or self.options.server_cwd

    def history(self) -> PromptHistory:
        """The prompts sent in this workspace (its first folder), for ↑/↓ in an editor."""
        root = Path(self.workspace_root())
        kept = self._histories.get(root)
        if kept is None:
            kept = self._histories[root] = PromptHistory(root)
        return kept

    def roots(self) -> list[str]:
        """Every folder of the workspace, the first one first (what a session is given)."""
        return list(dict.fromkeys([self.workspace_root(), *self._workspace_folders()]))

    async def ensure_agent(self) -> AgentSide:
        if self._closed:
            raise AgentUnavailable("the server is shutting down")
        agent = self.slot.agent
        if agent is not None and not agent.exited.is_set():
            return agent
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start())
        try:
            return await asyncio.shield(self._starting)
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc

    async def _start(self) -> AgentSide:
        old = self.slot.agent
        if old is not None:  # a crashed agent: its sessions are gone with it
            await old.shutdown()
            self._lost_session = self.current_session or self._lost_session
            self.slot.agent, self.current_session = None, None
        self.status.set(state="starting")
        agent = self._start_agent(self.options.agent, self.frontend, self.documents, self.review)
        try:
            init = await agent.start(self.workspace_root())
        except BaseException as exc:
            # Started half-way (shut down meanwhile, or failed after the spawn): what it
            # spawned must not outlive this, and nobody else holds it yet.
            await asyncio.shield(agent.shutdown())
            if isinstance(exc, AgentError):
                self.status.set(state="failed", message=str(exc))
            raise
        self.slot.agent = agent
        self.status.set(
            state="ready",
            agentInfo=init.get("agentInfo"),
            protocolVersion=agent.protocol_version,
            agentCapabilities=agent.agent_capabilities,
        )
        return agent

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(BaseException):
                await self._starting
        if self.slot.agent is not None:
            await self.slot.agent.shutdown()

    # -- sessions -------------------------------------------------------------------------------

    def session_ids(self) -> list[str]:
        return self.slot.agent.session_ids() if self.slot.agent is not None else []

    def additional_directories(self, agent: AgentSide, cwd: str) -> list[str]:
        """The editor's other workspace folders, for an agent that takes them (else none: an
        agent that did not advertise them may refuse the session)."""
        if not agent.supports(acp.ADDITIONAL_DIRECTORIES):
            return []
        return [folder for folder in self._workspace_folders() if folder != cwd]

    def folders_changed(self) -> None:
        """``workspace/didChangeWorkspaceFolders``: the open sessions' file access follows (the
        next session is told them; the agent keeps what an open one was told)."""
        agent = self.slot.agent
        if agent is None:
            return
        folders = self._workspace_folders()
        for session_id in agent.session_ids():
            agent.set_directories(session_id, folders)

    async def new_session(self, cwd: str | None = None) -> str:
        agent = await self.ensure_agent()
        cwd = cwd or self.workspace_root()
        try:
            session = await agent.new_session(cwd, self.additional_directories(agent, cwd))
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc
        self.current_session = session.id
        return session.id

    async def session_id(self, wanted: str | None = None) -> str:
        """The named session, or the current one (created on first use)."""
        agent = await self.ensure_agent()
        known = agent.session_ids()
        if wanted is not None:
            if wanted not in known:
                raise InvalidParams(f"unknown session: {wanted!r}")
            return wanted
        if self.current_session is None or self.current_session not in known:
            if await self._recover(agent):
                assert self.current_session is not None
                return self.current_session
            return await self.new_session()
        return self.current_session

    async def _recover(self, agent: AgentSide) -> bool:
        """After a crash, carry on in the same session if the new agent can load or resume it."""
        lost, self._lost_session = self._lost_session, None
        if lost is None or not (
            agent.supports(acp.SESSION_LOAD) or agent.supports(acp.SESSION_RESUME)
        ):
            return False
        try:
            await self.load_session(lost)
        except RpcError as exc:
            log.info("could not load session %s after the agent restarted: %s", lost, exc.message)
            return False
        log.info("the restarted agent carries on with session %s", lost)
        return True

    async def select_session(self, session_id: str) -> str:
        """An open session comes to the front: prompts without a session go to it, and its
        agent is the one followed."""
        self.current_session = await self.session_id(session_id)  # refuses an unknown one
        return session_id

    async def load_session(self, session_id: str, cwd: str | None = None) -> str:
        agent = await self.ensure_agent()
        resume = not agent.supports(acp.SESSION_LOAD) and agent.supports(acp.SESSION_RESUME)
        cwd = cwd or self.workspace_root()
        dirs = self.additional_directories(agent, cwd)
        try:
            await agent.load_session(session_id, cwd, resume=resume, additional_directories=dirs)
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc
        self.current_session = session_id
        return session_id

    async def delete_session(self, session_id: str | None = None) -> str:
        """``session/delete`` of the named session, else the current one."""
        agent = await self._agent_for(acp.SESSION_DELETE, "deleting sessions")
        sid = session_id or self.current_session
        if sid is None:
            raise InvalidParams("there is no session to delete")
        await self._call(agent.delete_session(sid))
        if self.current_session == sid:
            self.current_session = None
        return sid

    async def fork_session(self, session_id: str | None = None) -> str:
        """``session/fork`` (unstable) of the named or current session; the fork is current."""
        agent = await self._agent_for(acp.SESSION_FORK, "forking sessions")
        parent = await self.session_id(session_id)
        cwd = self.workspace_root()
        dirs = self.additional_directories(agent, cwd)
        fork = await self._call(agent.fork_session(parent, cwd, dirs))
        self.current_session = fork.id
        return fork.id

    async def logout(self) -> None:
        agent = await self._agent_for(acp.LOGOUT, "logging out")
        await self._call(agent.logout())

    async def _agent_for(self, method: str, what: str) -> AgentSide:
        agent = await self.ensure_agent()
        if not agent.supports(method):
            raise AgentUnavailable(f"the agent does not support {what} ({method})")
        return agent

    @staticmethod
    async def _call(call: Awaitable[T]) -> T:
        try:
            return await call
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc

    async def list_sessions(self, cwd: str | None) -> dict[str, Any]:
        agent = await self.ensure_agent()
        if not agent.supports(acp.SESSION_LIST):
            raise AgentUnavailable("the agent does not support listing sessions")
        return await agent.list_sessions(cwd)

    # -- turns ----------------------------------------------------------------------------------

    async def prompt(
        self, blocks: list[dict[str, Any]], session_id: str | None = None
    ) -> dict[str, Any]:
        """A turn: its stop reason, and the agent's words and tool calls in it (for editors with
        no stream, which see nothing else of the turn)."""
        sid = await self.session_id(session_id)
        agent = self.slot.agent
        assert agent is not None  # session_id() made sure
        await self.history().add(prompt_text(blocks))
        state = agent.session_state(sid)
        start = state.entry_count() if state is not None else 0
        try:
            result = await agent.prompt(sid, blocks)
        finally:
            self._turn_ended(sid)
        said = summarize(state, start) if state is not None else TurnSummary()
        return {"sessionId": sid, "stopReason": result.get("stopReason"), **said.to_json()}

    async def cancel(self, session_id: str | None = None, drop_waiting: bool = False) -> str | None:
        agent = self.slot.agent
        sid = session_id or self.current_session
        if agent is None or sid is None or sid not in agent.session_ids():
            return None
        await agent.cancel(sid, drop_waiting)
        return sid

    async def edit_prompt(self, session_id: str, index: int, blocks: list[dict[str, Any]]) -> None:
        sid = await self.session_id(session_id)
        assert self.slot.agent is not None  # session_id() made sure
        self.slot.agent.edit_prompt(sid, index, blocks)

    async def withdraw_prompt(self, session_id: str, index: int) -> None:
        sid = await self.session_id(session_id)
        assert self.slot.agent is not None  # session_id() made sure
        self.slot.agent.withdraw_prompt(sid, index)

    async def set_mode(self, mode_id: str, session_id: str | None = None) -> str:
        sid = await self.session_id(session_id)
        assert self.slot.agent is not None  # session_id() made sure
        await self.slot.agent.set_mode(sid, mode_id)
        return sid

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        sid = await self.session_id(session_id)
        assert self.slot.agent is not None  # session_id() made sure
        await self.slot.agent.set_config_option(sid, config_id, value)

    async def restore_checkpoint(
        self,
        turn: int | None,
        confirm: Callable[[int, list[Restore], bool], Awaitable[bool]] | None,
        *,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        """Undo a turn (default: the session's last) once ``confirm`` says yes (None: the editor
        asked its user before sending the request). The session need not be open: checkpoints
        outlive the sidecar. None named: the current one when it has a checkpointed turn, else
        the session of the workspace's last one (after a restart, the run before's)."""
        agent = await self.ensure_agent()
        roots = self.roots()
        try:
            sid = session_id or await agent.undoable_session(self.current_session, roots)
            number, plan = await agent.restore_plan(sid, turn, roots)
        except AgentError as exc:
            raise InvalidParams(str(exc)) from exc
        result: dict[str, Any] = {"sessionId": sid, "turn": number, "restored": []}
        elsewhere = sid not in agent.session_ids()  # of an earlier run, or closed
        if not plan or (confirm is not None and not await confirm(number, plan, elsewhere)):
            return {**result, "done": not plan}
        await agent.restore(sid, number, plan)
        return {**result, "restored": [str(step.path) for step in plan], "done": True}

    def current_mode(self) -> str | None:
        """The mode of the current session: it decides whether the agent asks before acting."""
        if self.current_session is None:
            return None
        state = self.slot.session_state(self.current_session)
        return state.current_mode() if state is not None else None

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        return self.slot.agent.snapshots(session_id) if self.slot.agent is not None else []
