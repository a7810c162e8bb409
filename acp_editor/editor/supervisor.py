"""The agents behind the editor and their sessions: which session is in front, and which agent
each session runs in.

Editor requests (commands and ``acp/...`` requests alike) come here. Each agent a session asks
for has a runner (``editor.agent_runner``: started on demand, again after a crash); a request
that names a session goes to that session's agent, one that names none to the current
session's, and a new session to the agent named or the server's own. Agent failures become one
clear error the editor can show. The agent side is reached only through ``editor.agent_port``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from acp_editor.editor.agent_runner import AgentRunners, ServerOptions
from acp_editor.editor.show.replies import TurnSummary, summarize
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.protocol import editor as proto
from acp_editor.services.prompt_history import PromptHistory, prompt_text

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.agent_port import AgentFactory, AgentSide, AgentSlot
    from acp_editor.editor.show.status import AgentStatus, AgentStatuses
    from acp_editor.editor.worktree_sessions import WorktreeSessions
    from acp_editor.review.owner import Restore, Review
    from acp_editor.services.documents import DocumentSource

__all__ = ["AgentSupervisor", "AgentUnavailable", "ServerOptions"]
# ``ServerOptions`` lives with the runners it configures; it is imported from here by the entry
# points, which know the supervisor only.

log = get_logger(__name__)
T = TypeVar("T")

TURNS_END_S = 5.0
"""Seconds closing waits for the turns that ran to end once their agent has (their last look)."""


class AgentUnavailable(RpcError):
    CODE = proto.AGENT_UNAVAILABLE
    MESSAGE = "The agent is not available"


class AgentSupervisor:
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
        turn_ended: Callable[[str], None],
        worktrees: WorktreeSessions,
        workspace_folders: Callable[[], list[str]] = list,
    ) -> None:
        self.options = options
        self.worktrees = worktrees
        self.slot = slot
        self.statuses = statuses
        self._workspace_root = workspace_root
        self._workspace_folders = workspace_folders
        self._histories: dict[Path, PromptHistory] = {}
        self._turn_ended = turn_ended
        """Called with the session id before a prompt is answered: the editor must have the
        turn's last state before it learns the turn ended."""
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
        self._prompts = 0
        self._no_prompts = asyncio.Event()
        """Set while no prompt is out: closing waits for the turns the agent's end ends."""
        self._no_prompts.set()

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
        if self._closed:
            return
        self._closed = True
        await self.runners.close()
        # The turns that were running fail with their agent; each still ends as turns do (what
        # it changed recorded by review's last look) before the caller keeps review on disk.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._no_prompts.wait(), TURNS_END_S)
        for history in self._histories.values():
            await history.flush()

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

    async def set_title(self, title: str, session_id: str | None = None) -> str:
        """``session/set_title`` of the named session, else the current one."""
        sid = await self.session_id(session_id)
        what = "naming sessions"
        agent = await self._agent_for(acp.SESSION_SET_TITLE, what, self.agent_of(sid))
        await self._call(agent.set_title(sid, title))
        return sid

    async def session_status(self, session_id: str | None) -> dict[str, str]:
        """``session/status`` of a session (by default the current one; one of the agent's
        list that is not open here, too)."""
        sid = session_id or self.current_session
        if sid is None:
            raise InvalidParams("there is no session to ask about")
        what = "telling a session's status"
        agent = await self._agent_for(acp.SESSION_STATUS, what, self.agent_of(sid))
        return {"sessionId": sid, "status": await self._call(agent.session_status(sid))}

    async def archive_session(self, session_id: str | None, archived: bool) -> str:
        """``session/archive`` (``archived``) or ``session/unarchive`` of a session (by default
        the current one; one of the agent's list that is not open here, too)."""
        sid = session_id or self.current_session
        if sid is None:
            raise InvalidParams("there is no session to archive")
        method = acp.SESSION_ARCHIVE if archived else acp.SESSION_UNARCHIVE
        agent = await self._agent_for(method, "archiving sessions", self.agent_of(sid))
        await self._call(agent.archive_session(sid, archived))
        return sid

    async def delete_session(self, session_id: str | None = None) -> str:
        """``session/delete`` of the named session, else the current one."""
        sid = session_id or self.current_session
        agent = await self._agent_for(acp.SESSION_DELETE, "deleting sessions", self.agent_of(sid))
        if sid is None:
            raise InvalidParams("there is no session to delete")
        await self._call(agent.delete_session(sid))
        self._agent_of.pop(sid, None)
        if self.current_session == sid:
            self.current_session = None
        return sid

    async def fork_session(self, session_id: str | None = None) -> str:
        """``session/fork`` (unstable) of the named or current session; the fork is current."""
        parent = await self.session_id(session_id)
        agent_id = self.agent_of(parent)
        agent = await self._agent_for(acp.SESSION_FORK, "forking sessions", agent_id)
        cwd = self.workspace_root()
        dirs = self.additional_directories(agent, cwd)
        fork = await self._call(agent.fork_session(parent, cwd, dirs))
        return self._opened(agent_id, fork.id)

    async def logout(self) -> None:
        """ACP ``logout`` of the current session's agent."""
        agent_id = self.agent_of(self.current_session)
        agent = await self._agent_for(acp.LOGOUT, "logging out", agent_id)
        await self._call(agent.logout())

    async def sign_in(self, agent_id: str | None = None) -> dict[str, Any]:
        """Sign in to an agent now (the current session's unless named): the method used."""
        agent_id = agent_id or self.agent_of(self.current_session)
        agent = await self.ensure_agent(agent_id)
        method = await self._call(agent.sign_in())
        return {"agent": agent_id, "methodId": method}

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

    async def list_sessions(self, cwd: str | None) -> dict[str, Any]:
        """The current session's agent's sessions (``session/list``)."""
        agent = await self.ensure_agent(self.agent_of(self.current_session))
        if not agent.supports(acp.SESSION_LIST):
            raise AgentUnavailable("the agent does not support listing sessions")
        return await agent.list_sessions(cwd)

    async def _session(self, session_id: str | None) -> tuple[str, AgentSide]:
        """The named (else current) session and its running agent; not one whose worktree was
        discarded (its folder went with it)."""
        sid = await self.session_id(session_id)
        if sid in self.worktrees.discarded:
            raise InvalidParams(f"the worktree of session {sid} was discarded: start a new session")
        agent = self.slot.agents.get(self.agent_of(sid))
        assert agent is not None  # session_id() made sure
        return sid, agent

    # -- turns ----------------------------------------------------------------------------------

    async def prompt(
        self, blocks: list[dict[str, Any]], session_id: str | None = None
    ) -> dict[str, Any]:
        """A turn: its stop reason, and the agent's words and tool calls in it (for editors with
        no stream, which see nothing else of the turn)."""
        sid, agent = await self._session(session_id)
        history = self.history()
        state = agent.session_state(sid)
        start = state.entry_count() if state is not None else 0
        self._prompts += 1
        self._no_prompts.clear()
        try:
            # Kept when it goes, as it then says: a prompt that waited may have been edited, or
            # withdrawn (then never sent, and never recalled).
            result = await agent.prompt(
                sid, blocks, lambda went: history.remember(prompt_text(went))
            )
        finally:
            self._prompts -= 1
            if self._prompts == 0:
                self._no_prompts.set()
            self._turn_ended(sid)
        said = summarize(state, start) if state is not None else TurnSummary()
        return {"sessionId": sid, "stopReason": result.get("stopReason"), **said.to_json()}

    async def cancel(self, session_id: str | None = None, drop_waiting: bool = False) -> str | None:
        sid = session_id or self.current_session
        agent = self.slot.agent_of(sid) if sid is not None else None
        if agent is None or sid is None:
            return None
        await agent.cancel(sid, drop_waiting)
        return sid

    async def cancel_tool_call(self, tool_call_id: str, session_id: str | None = None) -> str:
        """One tool call of the named (else current) session cancelled (v2)."""
        sid, agent = await self._session(session_id)
        await self._call(agent.cancel_tool_call(sid, tool_call_id))
        return sid

    async def cancel_terminal(self, terminal_id: str, session_id: str | None = None) -> str:
        """One terminal the agent runs itself in the named (else current) session stopped."""
        sid, agent = await self._session(session_id)
        await self._call(agent.cancel_terminal(sid, terminal_id))
        return sid

    async def edit_prompt(self, session_id: str, index: int, blocks: list[dict[str, Any]]) -> None:
        sid, agent = await self._session(session_id)
        agent.edit_prompt(sid, index, blocks)

    async def withdraw_prompt(self, session_id: str, index: int) -> None:
        sid, agent = await self._session(session_id)
        agent.withdraw_prompt(sid, index)

    async def set_mode(self, mode_id: str, session_id: str | None = None) -> str:
        sid, agent = await self._session(session_id)
        await agent.set_mode(sid, mode_id)
        return sid

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        sid, agent = await self._session(session_id)
        await agent.set_config_option(sid, config_id, value)

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
        the session of the workspace's last one (after a restart, the run before's). Review is
        one for every agent, so any running agent can undo a turn of a session that is closed."""
        agent = await self.ensure_agent(self.agent_of(session_id or self.current_session))
        roots = self.roots()
        try:
            sid = session_id or await agent.undoable_session(self.current_session, roots)
            number, plan = await agent.restore_plan(sid, turn, roots)
        except AgentError as exc:
            raise InvalidParams(str(exc)) from exc
        result: dict[str, Any] = {"sessionId": sid, "turn": number, "restored": [], "shared": []}
        elsewhere = sid not in self.session_ids()  # of an earlier run, or closed
        if not plan or (confirm is not None and not await confirm(number, plan, elsewhere)):
            return {**result, "done": not plan}
        await agent.restore(sid, number, plan)
        shared = [str(step.path) for step in plan if step.shared]
        restored = [str(step.path) for step in plan]
        return {**result, "restored": restored, "shared": shared, "done": True}

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
