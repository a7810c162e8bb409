"""The ACP client: one agent and its sessions.

This module is the one place the agent side is assembled: the link to the process
(``agent.link.connection``), the services the agent may use, review, the handlers that serve the
agent's requests (``agent.serving``) and the calls we make of the agent (``agent.calls``). It
starts and ends the agent, closes sessions with everything they hold, and hands each session call
to the part that makes it: opening (``calls.opening``, with the set-up calls of
``calls.setup_calls``), turns (``calls.prompt_turns``), cancels (``calls.cancelling``), the rest
(list, delete, title, status, archive, logout, modes: ``calls.session_admin``). What the user sees
is the ``Frontend``'s business.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.agent import run_state
from acp_editor.agent.calls import mcp_servers
from acp_editor.agent.calls.cancelling import Cancelling
from acp_editor.agent.calls.opening import SessionOpening
from acp_editor.agent.calls.prompt_turns import PromptTurns
from acp_editor.agent.calls.session_admin import SessionAdmin
from acp_editor.agent.calls.setup_calls import SetupCalls
from acp_editor.agent.calls.signing_in import SignIn
from acp_editor.agent.config import AgentConfig
from acp_editor.agent.frontend import Frontend, SilentFrontend
from acp_editor.agent.link.connection import AgentConnection
from acp_editor.agent.serving.asking import PermissionAsker
from acp_editor.agent.serving.display_terminals import DisplayTerminals
from acp_editor.agent.serving.eliciting import Elicitor
from acp_editor.agent.serving.mcp_over_acp import McpOverAcp
from acp_editor.agent.serving.requests import AgentRequests
from acp_editor.errors import AgentError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.review.owner import Review
from acp_editor.services import watcher
from acp_editor.services.documents import DiskDocuments, DocumentSource, FileService
from acp_editor.services.git.checkpoints import CheckpointError
from acp_editor.services.paths import PathPolicy
from acp_editor.services.permissions import PermissionPolicy
from acp_editor.services.terminals import Elsewhere, TerminalManager

if TYPE_CHECKING:
    from acp_editor.agent.link.rpc import JsonRpcPeer
    from acp_editor.agent.sessions import Session
    from acp_editor.review.owner import Restore
    from acp_editor.session.state import SessionView

__all__ = ["AcpClient", "AgentConfig"]

log = get_logger(__name__)


class AcpClient:
    """One agent process and its sessions. Use ``await start()``, then the session calls."""

    def __init__(
        self,
        config: AgentConfig,
        frontend: Frontend | None = None,
        documents: DocumentSource | None = None,
        review: Review | None = None,
    ) -> None:
        self.config = config
        self.frontend = frontend or SilentFrontend()
        self.sessions: dict[str, Session] = {}
        inner = documents or DiskDocuments()
        self.review = review or Review(inner, config.review_mode, self.frontend.review_changed)
        """Review and its pending hunks on disk: the editor side's (it outlives every agent),
        else our own. This agent's part of it is built there too (``for_agent``)."""
        self.reviewing = self.review.for_agent()
        """Review's share of this agent (``AgentReview``): all the agent side calls of review."""
        self._serve(config)
        self.connection = AgentConnection(config, self._register, self._agent_exited)
        self.signing_in = SignIn(config, self.connection, self.frontend, self._agent_name)
        self.setup = SetupCalls(config, self.connection, self.frontend, self.signing_in)
        self.opening = SessionOpening(
            config, self.connection, self.setup, self.requests, self.sessions, self.set_mode
        )
        self.exited = self.connection.exited
        self.turn_runner = PromptTurns(
            self.connection,
            self.requests,
            self.reviewing,
            config,
            lambda: self.protocol_version,
            self.cancel,
            self.sessions.__contains__,
            self._sign_in_for,
        )
        self.admin = SessionAdmin(self.connection, self.requests, self.session, self._deleted)
        self.cancelling = Cancelling(
            self.connection,
            self.requests,
            self.asker,
            self.elicitor,
            self.display,
            self.session,
            self.turn_runner.withdraw_all,
        )

    def _serve(self, config: AgentConfig) -> None:
        """The parts that serve the agent's requests (``agent.serving``), with the services they
        use: files in the session's roots, terminals, permission rules."""
        paths = PathPolicy([], unrestricted=config.unrestricted_fs)
        terminals = TerminalManager(
            paths,
            env=config.base_env(),
            on_output=self.frontend.terminal_output,
            on_exit=self.frontend.terminal_exited,
            elsewhere=elsewhere(config),
        )
        files = FileService(paths, self.reviewing.documents, on_access=self._file_accessed)
        self.asker = PermissionAsker(
            self.frontend, PermissionPolicy(config.auto_approve), self._waiting_changed
        )
        self.display = DisplayTerminals(self.frontend)
        self.elicitor = Elicitor(
            self.frontend, config.elicitation_modes, self._agent_name, self.sessions.__contains__
        )
        self.requests = AgentRequests(
            self.sessions,
            self.frontend,
            files,
            terminals,
            self.asker,
            [self.reviewing.observe],
            [self.display.update],
            self.elicitor,
            lambda parent, child, update: self.opening.open_child(parent, child, update),
        )
        self.mcp_links = McpOverAcp(config.editor_context)

    async def _deleted(self, session_id: str) -> None:
        """The agent deleted the session (``session/delete``): it closed it itself."""
        await self.close_session(session_id, tell_agent=False)

    def _waiting_changed(self, session: Session) -> None:
        """A question of the session starts or stops waiting for the user: its run state."""
        self.requests.emit(session, run_state.changes(session))

    def _register(self, peer: JsonRpcPeer) -> None:
        self.requests.register(peer)
        self.mcp_links.register(peer)
        for method in acp.AUTH_STATUS_UPDATES:
            peer.on_notification(method, self.signing_in.status_update)

    def _agent_name(self) -> str:
        command = os.path.basename(self.config.command[0]) if self.config.command else ""
        return self.connection.info.display_name(command or "the agent")

    def _file_accessed(self, kind: str, path: Any, session_id: str) -> None:
        self.frontend.file_accessed(kind, str(path), session_id)

    def _agent_exited(self, code: int | None, stderr_tail: str, expected: bool) -> None:
        for session in self.sessions.values():
            self.asker.abandon(session)
            session.foreground.fail(AgentError(f"the agent exited (code {code})"))
        self.frontend.agent_exited(self.config.name, code, stderr_tail, expected)

    # -- what the agent can do, and the sessions' state ------------------------------------------

    @property
    def protocol_version(self) -> int:
        return self.connection.protocol_version

    @property
    def agent_info(self) -> dict[str, Any] | None:
        """What the agent says it is, whichever protocol version (``AgentInfo.identity``)."""
        return self.connection.info.identity

    @property
    def agent_capabilities(self) -> dict[str, Any]:
        return self.connection.info.capabilities

    def supports(self, method: str) -> bool:
        return self.connection.info.supports(method)

    def session_ids(self) -> list[str]:
        return list(self.sessions)

    def session_state(self, session_id: str) -> SessionView | None:
        session = self.sessions.get(session_id)
        return session.state if session is not None else None

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """The state of every session (or of one), to send whole."""
        return [s.state.snapshot() for sid, s in self.sessions.items() if session_id in (None, sid)]

    def add_update(self, session_id: str, update: dict[str, Any]) -> None:
        """Shown by the front end only: the disk watch has nothing to look at in our reads."""
        if (session := self.sessions.get(session_id)) is not None:
            self.requests.show(session, update)

    def session(self, session_id: str) -> Session:
        try:
            return self.sessions[session_id]
        except KeyError:
            raise AgentError(f"unknown session {session_id!r}") from None

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, cwd: str) -> dict[str, Any]:
        """Spawn the agent in ``cwd`` and ``initialize``; the agent's answer. Review left
        pending in this root by an earlier run comes back first."""
        result = await self.connection.start(cwd)
        mcp_servers.prepare(self.config, self.agent_capabilities, self.protocol_version)
        await self.signing_in.ask_status()
        await self.review.open(cwd, self.config.review_mode)
        if self.config.review_mode != "off":
            await watcher.preload()
        return result

    async def sign_in(self) -> str:
        """Sign in now (the user asked): the method chosen, or ``AgentError`` saying why not."""
        return await self.signing_in.sign_in()

    async def _sign_in_for(self, session: Session) -> None:
        """Sign in because a prompt of ``session`` needed it, then start the session again."""
        await self.signing_in.sign_in()
        await self.opening.restart(session)

    async def connect(self, peer: JsonRpcPeer) -> dict[str, Any]:
        """``initialize`` over a peer made elsewhere (an agent in memory, in unit tests)."""
        return await self.connection.connect(peer)

    async def shutdown(self) -> None:
        """End every terminal, then the agent's whole process group. Idempotent."""
        await self.reviewing.close()
        await self.requests.terminals.close_all()
        await self.mcp_links.close()
        mcp_servers.sessions_closed(self.config, self.sessions)
        await self.connection.shutdown()
        await self.review.flush()

    # -- requests to the agent ------------------------------------------------------------------

    async def new_session(self, cwd: str, additional_directories: Sequence[str] = ()) -> Session:
        return await self.opening.new(cwd, additional_directories)

    async def load_session(
        self,
        session_id: str,
        cwd: str,
        *,
        resume: bool = False,
        additional_directories: Sequence[str] = (),
    ) -> Session:
        """``session/load`` (replays the conversation) or, with ``resume``, ``session/resume``."""
        return await self.opening.load(session_id, cwd, resume, additional_directories)

    def set_directories(self, session_id: str, directories: Sequence[str]) -> None:
        """The editor's workspace folders changed: the files we serve the session are confined
        to its cwd and these from now on (the agent keeps what it was told at session/new)."""
        session = self.sessions.get(session_id)
        if session is None:
            return
        session.additional_directories = [d for d in directories if d != session.cwd]
        self.requests.files.policy.set_session_roots(session_id, session.roots)
        if self.config.editor_context is not None:
            self.config.editor_context.roots_changed(session_id, session.roots)

    async def list_sessions(self, cwd: str | None = None) -> dict[str, Any]:
        return await self.admin.list_sessions(cwd)

    async def delete_session(self, session_id: str) -> None:
        await self.admin.delete_session(session_id)

    async def fork_session(self, parent_id: str, cwd: str, dirs: Sequence[str] = ()) -> Session:
        """``session/fork`` (unstable): a new session from the parent's context."""
        return await self.opening.fork(parent_id, cwd, dirs)

    async def set_title(self, session_id: str, title: str) -> None:
        await self.admin.set_title(session_id, title)

    async def session_status(self, session_id: str) -> str:
        return await self.admin.session_status(session_id)

    async def archive_session(self, session_id: str, archived: bool = True) -> None:
        await self.admin.archive_session(session_id, archived)

    async def logout(self) -> None:
        await self.admin.logout()

    async def close_session(self, session_id: str, *, tell_agent: bool = True) -> None:
        # A subagent's session goes with its parent (the agent ends it with the parent's).
        for child in [s.id for s in self.sessions.values() if s.parent == session_id]:
            await self.close_session(child, tell_agent=False)
        session = self.sessions.pop(session_id, None)
        self.reviewing.session_closed(session_id)
        if session is not None:
            self.asker.cancel(session)
            self.elicitor.cancel(session_id)
            await self.requests.terminals.close_session(session_id)
        self.display.forget_session(session_id)  # terminals it showed that never said they ended
        mcp_servers.sessions_closed(self.config, [session_id])
        if tell_agent and self.supports(acp.SESSION_CLOSE):
            await self.connection.call(acp.SESSION_CLOSE, {"sessionId": session_id})

    async def prompt(
        self,
        session_id: str,
        blocks: list[dict[str, Any]],
        sent: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> dict[str, Any]:
        """Send a prompt and wait for the turn to end (``agent.calls.prompt_turns``); returns the
        agent's ``PromptResponse``. ``sent``: told what the prompt said when it went."""
        return await self.turn_runner.prompt(self.session(session_id), blocks, sent)

    def edit_prompt(self, session_id: str, index: int, blocks: list[dict[str, Any]]) -> None:
        """A prompt waiting for its turn (v1) says something else."""
        self.turn_runner.edit(self.session(session_id), index, blocks)

    def withdraw_prompt(self, session_id: str, index: int) -> None:
        """A prompt waiting for its turn (v1) will not go: its ``prompt`` answers cancelled."""
        self.turn_runner.withdraw(self.session(session_id), index)

    async def undoable_session(self, current: str | None, roots: Sequence[str]) -> str:
        """The session to undo a turn of when none is named (``TurnUndo.undoable``)."""
        try:
            return await self.reviewing.undoable(current, self._roots(current, roots))
        except CheckpointError as exc:
            raise AgentError(str(exc)) from exc

    async def restore_plan(
        self, session_id: str, turn: int | None = None, roots: Sequence[str] = ()
    ) -> tuple[int, list[Restore]]:
        """What undoing turn ``turn`` (default: the last) would put back, file by file: in an
        open session's roots, else in ``roots`` (a session of an earlier run keeps its turns)."""
        try:
            return await self.reviewing.restore_plan(
                session_id, turn, self._roots(session_id, roots)
            )
        except CheckpointError as exc:
            raise AgentError(str(exc)) from exc

    def _roots(self, session_id: str | None, roots: Sequence[str]) -> list[str]:
        session = self.sessions.get(session_id or "")
        return session.roots if session is not None else list(roots)

    async def restore(self, session_id: str, number: int, plan: list[Restore]) -> None:
        """Put every file of the plan back as before turn ``number``."""
        await self.reviewing.restore(plan, session_id, number)

    async def cancel(self, session_id: str, drop_waiting: bool = False) -> None:
        """``session/cancel`` (``Cancelling.cancel``)."""
        await self.cancelling.cancel(session_id, drop_waiting)

    async def cancel_tool_call(self, session_id: str, tool_call_id: str) -> None:
        await self.cancelling.cancel_tool_call(session_id, tool_call_id)

    async def cancel_terminal(self, session_id: str, terminal_id: str) -> None:
        await self.cancelling.cancel_terminal(session_id, terminal_id)

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        await self.admin.set_mode(session_id, mode_id)

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        await self.admin.set_config_option(session_id, config_id, value)


def elsewhere(config: AgentConfig) -> Elsewhere | None:
    """Where the agent's terminals run when not here: through its command prefix, in its path
    of the folder (ours, when its paths are not mapped)."""
    if not config.command_prefix:
        return None
    paths = config.paths
    return Elsewhere(list(config.command_prefix), paths.to_agent if paths else lambda p: p)
