"""What the editor asks of a session's agent: its turns (prompts, cancelling, modes, undoing a
turn) and the session calls (naming, status, archiving, deleting, forking, signing in and out).

Editor requests (commands and ``acp/...`` requests alike) come here; ``editor.routing``, which
this builds on, finds the session and its agent (started, or started again, on demand). A turn's
prompt is kept for ↑/↓ when it goes to the agent, and closing waits for the turns that end with
their agent.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.editor.agent_runner import ServerOptions
from acp_editor.editor.routing import AgentUnavailable, SessionRouting
from acp_editor.editor.show.replies import TurnSummary, summarize
from acp_editor.errors import AgentError, InvalidParams
from acp_editor.protocol import acp
from acp_editor.services.prompt_history import PromptHistory, prompt_text

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend
    from acp_editor.editor.agent_port import AgentFactory, AgentSlot
    from acp_editor.editor.show.status import AgentStatuses
    from acp_editor.editor.worktree_sessions import WorktreeSessions
    from acp_editor.review.owner import Restore, Review
    from acp_editor.services.documents import DocumentSource

__all__ = ["AgentSupervisor", "AgentUnavailable", "ServerOptions"]
# ``ServerOptions`` lives with the runners it configures, ``AgentUnavailable`` with the routing
# that raises it; both are imported from here by the entry points and handlers, which know the
# supervisor only.

TURNS_END_S = 5.0
"""Seconds closing waits for the turns that ran to end once their agent has (their last look)."""


class AgentSupervisor(SessionRouting):
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
        super().__init__(
            options,
            slot=slot,
            statuses=statuses,
            frontend=frontend,
            documents=documents,
            review=review,
            start_agent=start_agent,
            workspace_root=workspace_root,
            worktrees=worktrees,
            workspace_folders=workspace_folders,
        )
        self._histories: dict[Path, PromptHistory] = {}
        self._turn_ended = turn_ended
        """Called with the session id before a prompt is answered: the editor must have the
        turn's last state before it learns the turn ended."""
        self._prompts = 0
        self._no_prompts = asyncio.Event()
        """Set while no prompt is out: closing waits for the turns the agent's end ends."""
        self._no_prompts.set()

    def history(self) -> PromptHistory:
        """The prompts sent in this workspace (its first folder), for ↑/↓ in an editor."""
        root = Path(self.workspace_root())
        kept = self._histories.get(root)
        if kept is None:
            kept = self._histories[root] = PromptHistory(root)
        return kept

    async def close(self) -> None:
        if self._closed:
            return
        await super().close()
        # The turns that were running fail with their agent; each still ends as turns do (what
        # it changed recorded by review's last look) before the caller keeps review on disk.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._no_prompts.wait(), TURNS_END_S)
        for history in self._histories.values():
            await history.flush()

    # -- session calls --------------------------------------------------------------------------

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

    async def list_sessions(self, cwd: str | None) -> dict[str, Any]:
        """The current session's agent's sessions (``session/list``)."""
        agent = await self.ensure_agent(self.agent_of(self.current_session))
        if not agent.supports(acp.SESSION_LIST):
            raise AgentUnavailable("the agent does not support listing sessions")
        return await agent.list_sessions(cwd)

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
