"""Opening sessions: ``session/new``, ``load``, ``resume`` and ``fork`` as the agent side sends
them (their set-up calls with MCP servers and sign-in are ``agent.calls.setup_calls``), a subagent's
session when its parent's agent announces it, and a session started again after a sign-in. Each
opened session is registered with the handlers of the agent's requests before anything of it
can arrive, and its set-up answer (modes, config options) applied to its state.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.agent.calls.setup_calls import setup_params
from acp_editor.agent.sessions import Session
from acp_editor.errors import AgentError, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.session.state import SessionState

if TYPE_CHECKING:
    from acp_editor.agent.calls.setup_calls import SetupCalls
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.link.connection import AgentConnection
    from acp_editor.agent.serving.requests import AgentRequests

log = get_logger(__name__)


class SessionOpening:
    def __init__(
        self,
        config: AgentConfig,
        connection: AgentConnection,
        setup: SetupCalls,
        requests: AgentRequests,
        sessions: dict[str, Session],
        set_mode: Callable[[str, str], Awaitable[None]],
    ) -> None:
        self.config = config
        self.connection = connection
        self.setup = setup
        self.requests = requests
        self.sessions = sessions
        self.set_mode = set_mode
        """Switches a new session to the configured mode (``AcpClient.set_mode``)."""

    def supports(self, method: str) -> bool:
        return self.connection.info.supports(method)

    def require(self, method: str) -> None:
        if not self.supports(method):
            raise AgentError(f"the agent does not support {method}")

    def state(self, session_id: str, cwd: str, parent: str | None = None) -> SessionState:
        version = self.connection.protocol_version
        return SessionState(session_id, version, agent=self.config.name, cwd=cwd, parent=parent)

    def open(
        self, session_id: str, cwd: str, dirs: Sequence[str], state: SessionState | None = None
    ) -> Session:
        state = state or self.state(session_id, cwd)
        state.cwd = cwd  # a fork's own
        return self._register(Session(session_id, cwd, state, list(dirs)))

    def _register(self, session: Session) -> Session:
        self.sessions[session.id] = session
        self.requests.session_opened(session)
        return session

    def open_child(self, parent: Session, child_id: str, update: dict[str, Any]) -> Session:
        """A subagent's session, opened when its parent's agent announces it: in the folder
        the agent names for it, else the parent's; never prompted by us."""
        cwd = update.get("cwd")
        cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else parent.cwd
        dirs = update.get("additionalDirectories")
        if not (isinstance(dirs, list) and all(isinstance(d, str) for d in dirs)):
            dirs = parent.additional_directories
        state = self.state(child_id, cwd, parent.id)
        return self._register(Session(child_id, cwd, state, list(dirs), parent=parent.id))

    def apply_setup(self, session: Session, result: Any) -> None:
        if not isinstance(result, dict):
            return
        changes = session.state.set_modes(result.get("modes"))
        changes += session.state.set_config_options(result.get("configOptions"))
        self.requests.emit(session, changes)

    async def new(self, cwd: str, additional_directories: Sequence[str] = ()) -> Session:
        params = setup_params(cwd, additional_directories)
        result = acp.obj(await self.setup.call(acp.SESSION_NEW, params), "session/new result")
        session = self.open(acp.field(result, "sessionId", str), cwd, additional_directories)
        self.apply_setup(session, result)
        await self._initial_mode(session, result)
        return session

    async def _initial_mode(self, session: Session, result: dict[str, Any]) -> None:
        """Switch a new session to the configured mode, when the agent offers it."""
        wanted = self.config.initial_mode
        current, offered = acp.mode_choices(result.get("modes"), result.get("configOptions"))
        if wanted is None or current == wanted:
            return
        if wanted not in offered:
            log.warning("mode %r is not one of the agent's modes (%s)", wanted, offered)
            return
        try:
            await self.set_mode(session.id, wanted)
        except RpcError as exc:
            log.warning("could not switch to mode %r: %s", wanted, exc.message)

    async def load(
        self, session_id: str, cwd: str, resume: bool, additional_directories: Sequence[str]
    ) -> Session:
        """``session/load`` (replays the conversation) or, with ``resume``, ``session/resume``."""
        method = acp.SESSION_RESUME if resume else acp.SESSION_LOAD
        self.require(method)
        # Registered first: the replay arrives as session/update before the response.
        session = self.sessions.get(session_id) or self.open(
            session_id, cwd, additional_directories
        )
        # v2 has no session/load: session/resume replays the conversation when asked to.
        replay = not resume or self.connection.protocol_version >= 2
        if replay and not session.prompting:
            # A replay over the state already held would put the conversation there twice.
            # The editor's mirror resyncs from the snapshot it is sent.
            session.state = self.state(session_id, cwd)
        params = setup_params(cwd, additional_directories, sessionId=session_id)
        if resume and replay:
            params["replayFrom"] = {"type": "start"}
        try:
            result = await self.setup.call(method, params)
        except RpcError as exc:
            if acp.session_not_found(exc.code, exc.data) is None:
                raise
            said = f"the agent has no session {session_id} to {'resume' if resume else 'load'}"
            raise RpcError(said, exc.data, code=exc.code) from exc
        self.apply_setup(session, result)
        return session

    async def fork(self, parent_id: str, cwd: str, dirs: Sequence[str] = ()) -> Session:
        """``session/fork`` (unstable): a new session from the parent's context, which starts
        here with the parent's transcript and tool calls."""
        self.require(acp.SESSION_FORK)
        params = setup_params(cwd, dirs, sessionId=parent_id)
        result = acp.obj(await self.setup.call(acp.SESSION_FORK, params), "session/fork result")
        fork_id = acp.field(result, "sessionId", str)
        parent = self.sessions.get(parent_id)
        state = parent.state.copy_as(fork_id) if parent is not None else None
        session = self.open(fork_id, cwd, dirs, state)
        self.apply_setup(session, result)
        return session

    async def restart(self, session: Session) -> None:
        """Close and resume a session, when the agent offers both: after a sign-in its prompt
        needed, so the prompt tried again runs signed in (claude-agent-acp 0.101 keeps a
        session it made signed out so, each prompt -32000, until it starts it again)."""
        if not (self.supports(acp.SESSION_CLOSE) and self.supports(acp.SESSION_RESUME)):
            return
        await self.connection.call(acp.SESSION_CLOSE, {"sessionId": session.id})
        params = setup_params(session.cwd, session.additional_directories, sessionId=session.id)
        self.apply_setup(session, await self.setup.call(acp.SESSION_RESUME, params))
