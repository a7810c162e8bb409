"""Routing the editor's requests to agents: which agent each session runs in, and which session
is in front.

Each agent a session asks for has a runner (``editor.agent_runner``: started on demand, again
after a crash, when a session the crash lost is loaded again); a request that names a session
goes to that session's agent, one that names none to the current session's, and a new session to
the agent named or the server's own. Agent failures become one clear error the editor can show.
What the editor asks of a session once it is found (turns, naming, archiving, undo) is
``editor.supervisor``'s. The agent side is reached only through ``editor.agent_port``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from acp_editor.editor.agent_runner import AgentRunners, ServerOptions
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.agent_port import AgentFactory, AgentSide, AgentSlot
    from acp_editor.editor.show.status import AgentStatus, AgentStatuses
    from acp_editor.editor.worktree_sessions import WorktreeSessions
    from acp_editor.review.owner import Review
    from acp_editor.services.documents import DocumentSource

log = get_logger(__name__)
T = TypeVar("T")


class AgentUnavailable(RpcError):
    CODE = proto.AGENT_UNAVAILABLE
    MESSAGE = "The agent is not available"


class SessionRouting:
    """The agents behind the editor and their sessions: an agent started when a session first
    asks for it, each session found in its agent (loaded again after a crash when it can be),
    the session in front."""

    def __init__(
        self,
        options: ServerOptions,
        *,
        slot: AgentSlot,
        statuses: AgentStatuses,
        frontend: Frontend,
        documents: DocumentSource,
        review: Callable[[], Review],
        start_agent: AgentFactory,
        workspace_root: Callable[[], str | None],
        worktrees: WorktreeSessions,
        workspace_folders: Callable[[], list[str]] = list,
    ) -> None:
        self.options = options
        self.worktrees = worktrees
        self.slot = slot
        self.statuses = statuses
        self._workspace_root = workspace_root
        self._workspace_folders = workspace_folders
        self.runners = AgentRunners(
            options,
            statuses,
            frontend=frontend,
            documents=documents,
            review=review,
            start_agent=start_agent,
        )
        self._agent_of: dict[str, str] = {}
        """Each session's agent id, kept after the agent crashed (its sessions come back)."""
        self._closed = False

    @property
    def current_session(self) -> str | None:
        """The session in front: requests that name none go to it (kept in the slot, where
        follow-along reads it)."""
        return self.slot.current_session

    @current_session.setter
    def current_session(self, session_id: str | None) -> None:
        self.slot.current_session = session_id

    # -- the agents -----------------------------------------------------------------------------

    def workspace_root(self) -> str:
        """The editor's first workspace folder or root, else the server's own directory."""
        return self._workspace_root() or self.options.server_cwd

    def roots(self) -> list[str]:
        """Every folder of the workspace, the first one first (what a session is given)."""
        return list(dict.fromkeys([self.workspace_root(), *self._workspace_folders()]))

    @property
    def default_agent(self) -> str:
        return self.options.agent.name

    def agents_info(self) -> list[dict[str, Any]]:
        return self.runners.infos()

    def status(self) -> AgentStatus:
        """The status of the current session's agent, else the server's own."""
        return self.runners.get(self.agent_of(self.current_session)).status

    def agent_of(self, session_id: str | None) -> str:
        """The id of the session's agent (the server's own for a session it does not know)."""
        if session_id is None:
            return self.default_agent
        known = self._agent_of.get(session_id)
        if known is None:  # a session an agent opened itself (a subagent's) names its agent
            state = self.slot.session_state(session_id)
            known = state.agent if state is not None else self.default_agent
        return known

    async def ensure_agent(self, agent_id: str | None = None) -> AgentSide:
        """The agent (the server's own unless named), started if it does not run."""
        if self._closed:
            raise AgentUnavailable("the server is shutting down")
        runner = self.runners.get(agent_id or self.default_agent)
        try:
            agent = await runner.ensure(self.workspace_root())
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc
        self.slot.agents[runner.id] = agent
        return agent

    async def close(self) -> None:
        """The agents shut down; no agent starts again."""
        if self._closed:
            return
        self._closed = True
        await self.runners.close()

    # -- sessions -------------------------------------------------------------------------------

    def session_ids(self) -> list[str]:
        """Every open session of every running agent."""
        return [sid for agent in self.slot.agents.values() for sid in agent.session_ids()]

    def session_agents(self) -> dict[str, str]:
        """Each open session's agent id."""
        return {sid: self.agent_of(sid) for sid in self.session_ids()}

    def additional_directories(self, agent: AgentSide, cwd: str) -> list[str]:
        """The editor's other workspace folders, for an agent that takes them (else none: an
        agent that did not advertise them may refuse the session)."""
        if not agent.supports(acp.ADDITIONAL_DIRECTORIES):
            return []
        return [folder for folder in self._workspace_folders() if folder != cwd]

    def folders_changed(self) -> None:
        """``workspace/didChangeWorkspaceFolders``: the open sessions' file access follows (the
        next session is told them; the agent keeps what an open one was told)."""
        folders = self._workspace_folders()
        for agent in self.slot.agents.values():
            for session_id in agent.session_ids():
                agent.set_directories(session_id, folders)

    def _opened(self, agent_id: str, session_id: str) -> str:
        """A session the agent opened becomes current, known as that agent's."""
        owner = self._agent_of.get(session_id)
        if owner is not None and owner != agent_id and session_id in self.session_ids():
            log.warning("agents %s and %s both have a session %s", owner, agent_id, session_id)
        self._agent_of[session_id] = agent_id
        self.current_session = session_id
        return session_id

    async def new_session(
        self, cwd: str | None = None, agent_id: str | None = None, worktree: bool = False
    ) -> str:
        """A session of the agent named (else the server's own), current from now on; with
        ``worktree``, in a worktree of its own made from ``cwd``'s repository (no other
        folders: they are not in it)."""
        agent_id = agent_id or self.default_agent
        agent = await self.ensure_agent(agent_id)
        cwd = cwd or self.workspace_root()
        if not worktree:
            dirs = self.additional_directories(agent, cwd)
            return self._opened(agent_id, (await self._call(agent.new_session(cwd, dirs))).id)
        own = await self.worktrees.make(cwd)
        try:
            session = await self._call(agent.new_session(str(own.cwd)))
        except BaseException:
            await self.worktrees.failed(own)
            raise
        await self.worktrees.opened(session.id, own)
        return self._opened(agent_id, session.id)

    async def session_id(self, wanted: str | None = None) -> str:
        """The named session, or the current one (created on first use). A session whose agent
        crashed is loaded again in the restarted agent when it can be."""
        sid = wanted if wanted is not None else self.current_session
        if sid is None:
            return await self.new_session()
        # Opened here, or by an agent itself (a subagent's session): its agent says which.
        known = sid in self._agent_of or self.slot.session_state(sid) is not None
        agent_id = self.agent_of(sid) if known else None
        if agent_id is not None:
            agent = await self.ensure_agent(agent_id)
            if sid in agent.session_ids() or await self._recover(agent_id, sid):
                return sid
        if wanted is not None:
            raise InvalidParams(f"unknown session: {wanted!r}")
        return await self.new_session(agent_id=agent_id)

    async def _recover(self, agent_id: str, session_id: str) -> bool:
        """After a crash, carry on in the same session if the new agent can load or resume it."""
        runner = self.runners.get(agent_id)
        agent = runner.running()
        if session_id not in runner.lost_sessions or agent is None:
            return False
        runner.lost_sessions.remove(session_id)
        if not (agent.supports(acp.SESSION_LOAD) or agent.supports(acp.SESSION_RESUME)):
            return False
        current = self.current_session
        try:
            await self.load_session(session_id, agent_id=agent_id)
        except RpcError as exc:
            log.info("could not load session %s after the agent restarted: %s", session_id, exc)
            return False
        finally:
            self.current_session = current
        log.info("the restarted agent carries on with session %s", session_id)
        return True

    async def select_session(self, session_id: str) -> str:
        """An open session comes to the front: prompts without a session go to it, and its
        agent is the one followed."""
        self.current_session = await self.session_id(session_id)  # refuses an unknown one
        return session_id

    async def load_session(
        self, session_id: str, cwd: str | None = None, agent_id: str | None = None
    ) -> str:
        """``session/load`` (else ``session/resume``) in the agent named, else the one the
        session ran in, else the server's own."""
        agent_id = agent_id or self.agent_of(session_id)
        agent = await self.ensure_agent(agent_id)
        resume = not agent.supports(acp.SESSION_LOAD) and agent.supports(acp.SESSION_RESUME)
        own = await self.worktrees.find(session_id, cwd or self.workspace_root())
        cwd = str(own.cwd) if own is not None else cwd or self.workspace_root()
        dirs = [] if own is not None else self.additional_directories(agent, cwd)
        await self._call(
            agent.load_session(session_id, cwd, resume=resume, additional_directories=dirs)
        )
        return self._opened(agent_id, session_id)

    async def _agent_for(self, method: str, what: str, agent_id: str) -> AgentSide:
        agent = await self.ensure_agent(agent_id)
        if not agent.supports(method):
            raise AgentUnavailable(f"the agent does not support {what} ({method})")
        return agent

    @staticmethod
    async def _call(call: Awaitable[T]) -> T:
        try:
            return await call
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc

    async def _session(self, session_id: str | None) -> tuple[str, AgentSide]:
        """The named (else current) session and its running agent; not one whose worktree was
        discarded (its folder went with it)."""
        sid = await self.session_id(session_id)
        if sid in self.worktrees.discarded:
            raise InvalidParams(f"the worktree of session {sid} was discarded: start a new session")
        agent = self.slot.agents.get(self.agent_of(sid))
        assert agent is not None  # session_id() made sure
        return sid, agent

    # -- reading --------------------------------------------------------------------------------

    def current_mode(self) -> str | None:
        """The mode of the current session: it decides whether the agent asks before acting."""
        if self.current_session is None:
            return None
        state = self.slot.session_state(self.current_session)
        return state.current_mode() if state is not None else None

    def current_config_options(self) -> Any:
        """The current session's config options (``acp.setConfigOption`` takes their ids)."""
        state = self.slot.session_state(self.current_session) if self.current_session else None
        return state.config_options() if state is not None else None

    def session_parents(self) -> dict[str, str]:
        """Each open subagent's session and the session that started it."""
        parents = {}
        for sid in self.session_ids():
            state = self.slot.session_state(sid)
            if state is not None and state.parent is not None:
                parents[sid] = state.parent
        return parents

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """Every open session's snapshot (or the one named), each naming its agent (and a
        subagent's, its parent)."""
        shown = []
        parents = self.session_parents()
        for agent_id, agent in self.slot.agents.items():
            for snapshot in agent.snapshots(session_id):
                sid = snapshot["sessionId"]
                own = self.worktrees.folder(sid)
                more = {"worktree": own} if own else {}
                if sid in parents:
                    more["parentSessionId"] = parents[sid]
                shown.append({**snapshot, "agent": agent_id, **more})
        return shown
