"""The ACP methods the scripted agent serves, and the sessions it keeps.

Every handler validates its params itself and answers -32602 on anything malformed, because a
test client (or a buggy sidecar) must get an answer, never a crash or a hang. Sessions live in
memory for the life of the process: ``session/load`` replays what was said in them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from acp_editor import __version__
from acp_editor.demo_agent.scenarios.words import commands
from acp_editor.demo_agent.server.config_options import MODES, config_options, set_option
from acp_editor.demo_agent.server.prompts import AS_IS, PromptTurns, Tuning
from acp_editor.demo_agent.server.signin import SignIn, default_login_file
from acp_editor.demo_agent.server.store import delete_saved, load_sessions
from acp_editor.demo_agent.turn.capabilities import ClientCaps, read_caps
from acp_editor.demo_agent.turn.prompt_turn import AgentSession
from acp_editor.demo_agent.turn.v2 import cancel_one
from acp_editor.errors import ConnectionClosed, InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol.acp import nonempty_str, obj_or_empty

if TYPE_CHECKING:
    from acp_editor.agent.link.rpc import JsonRpcPeer

log = get_logger(__name__)

LATEST_VERSION = 2  # 1 is stable; 2 is the draft, answered only to a client that asks for it
NOTICE_AT_NEW = ("Demo agent ready", "This session started with a notice (a test switch).")
"""The title and description of ``Tuning.notice_at_new``'s notice."""


def _auth_method_v2(method: dict[str, Any]) -> dict[str, Any]:
    """v2 names a method's id ``methodId`` and always says its ``type``."""
    v2 = {k: v for k, v in method.items() if k != "id"}
    return {**v2, "type": method.get("type", "agent"), "methodId": method["id"]}


def _cwd(params: dict[str, Any]) -> str:
    cwd = nonempty_str(params, "cwd")
    if not os.path.isabs(cwd):
        raise InvalidParams(f"cwd must be an absolute path, got {cwd!r}")
    return cwd


class ScriptedAgent(SignIn, PromptTurns):
    """Answers the client's requests; one instance per connection."""

    def __init__(
        self,
        peer: JsonRpcPeer,
        *,
        require_auth: bool = False,
        require_login: bool = False,
        login_file: str | None = None,
        wait_seconds: float = 30.0,
        writes_itself: bool = False,
        state_dir: str | None = None,
        tuning: Tuning = AS_IS,
    ) -> None:
        self.peer = peer
        self.state_dir = state_dir
        """Where sessions are kept across restarts (None: in memory only)."""
        self.require_auth = require_auth
        self.require_login = require_login
        self.login_file = login_file or default_login_file()
        self._auth_told = None
        self.wait_seconds = wait_seconds
        self.writes_itself = writes_itself
        self.tuning = tuning
        self.version = 1
        self.caps = ClientCaps()
        self.authenticated = not require_auth
        self.sessions: dict[str, AgentSession] = load_sessions(state_dir)
        self.children: dict[str, AgentSession] = {}
        """Subagents' sessions (made by the ``subagent`` scenario): the client may cancel them."""
        self._background: set[asyncio.Task[None]] = set()

    def register(self) -> None:
        for method, handler in {
            "initialize": self.initialize,
            "authenticate": self.authenticate,
            "session/new": self.new_session,
            "session/load": self.load_session,
            "session/resume": self.resume_session,
            "session/list": self.list_sessions,
            "session/close": self.close_session,
            "session/delete": self.delete_session,
            "session/fork": self.fork_session,
            "logout": self.logout,
            "auth/login": self.authenticate,  # v2's names for the same two
            "auth/logout": self.logout,
            "auth/status": self.auth_status,
            "session/set_mode": self.set_mode,
            "session/set_config_option": self.set_config_option,
            "session/prompt": self.prompt,
            "tool_call/cancel": self.cancel_tool_call,  # v2: one tool call, one terminal
            "terminal/cancel": self.cancel_terminal,
        }.items():
            self.peer.on_request(method, handler)
        self.peer.on_notification("session/cancel", self.cancel)

    async def shutdown(self) -> None:
        tasks: list[asyncio.Future[Any]] = [*self._background]
        tasks += [s.turn for s in self.sessions.values() if s.turn is not None]
        tasks += [task for s in self.sessions.values() for task in s.work.tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _after_answer(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` once the current answer is written (owned, cancelled on shutdown)."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- connection ---------------------------------------------------------------------------

    async def initialize(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        asked = p.get("protocolVersion")
        if not isinstance(asked, int) or isinstance(asked, bool):
            raise InvalidParams("protocolVersion must be an integer")
        self.version = max(1, min(asked, LATEST_VERSION))
        if self.tuning.answer_version is not None:
            self.version = self.tuning.answer_version
        self.caps = read_caps(p.get("clientCapabilities"))
        self._auth_told = await self.auth_state()  # what auth/status_update compares with
        answer = {
            "protocolVersion": self.version,
            "agentCapabilities": {
                "loadSession": True,
                "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
                "mcpCapabilities": {t: t in self._mcp for t in ("http", "sse", "acp")},
                "sessionCapabilities": {
                    "list": {},
                    "close": {},
                    "additionalDirectories": {},
                    "delete": {},
                    "fork": {},
                },
                "auth": {"logout": {}, "status": {}},
            },
            "agentInfo": {
                "name": "acp-editor-demo-agent",
                "title": "acp-editor demo agent",
                "version": __version__,
            },
        }
        methods = self.auth_methods()
        answer["authMethods"] = methods
        if self.version >= 2:  # v2's shape too (beside v1's fields, which v2 clients ignore)
            answer["info"] = answer["agentInfo"]
            answer["authMethods"] = [_auth_method_v2(m) for m in methods]
            session: dict[str, Any] = {"delete": {}, "additionalDirectories": {}}
            if self._mcp:
                session["mcp"] = {t: {} for t in self._mcp}
            answer["capabilities"] = {"session": session, "auth": {}}
        return answer

    @property
    def _mcp(self) -> tuple[str, ...]:
        chosen = self.tuning.mcp_transports
        return ("acp",) if chosen is None else chosen

    # -- sessions -----------------------------------------------------------------------------

    def _session(self, params: dict[str, Any], *, active: bool = True) -> AgentSession:
        session_id = nonempty_str(params, "sessionId")
        if session_id in self.children:
            raise InvalidParams(f"{session_id} is a subagent's session: it can only be cancelled")
        session = self.sessions.get(session_id)
        if session is None or (active and not session.active):
            raise InvalidParams(f"no {'active ' if active else ''}session {session_id!r}")
        return session

    def _setup(self, session: AgentSession) -> dict[str, Any]:
        if self.version >= 2:  # v2 has no modes: the mode is a config option
            return {"configOptions": self._config(session)}
        return {
            "modes": {"currentModeId": session.mode, "availableModes": MODES},
            "configOptions": self._config(session),
        }

    def _config(self, session: AgentSession) -> list[dict[str, Any]]:
        return config_options(session, self.version, self.caps.boolean_config)

    async def _announce_commands(self, session: AgentSession, *, new: bool = False) -> None:
        update = {"sessionUpdate": "available_commands_update", "availableCommands": commands()}
        with contextlib.suppress(ConnectionClosed):  # the client left: nobody to tell
            await self._turn(session).update(update)  # said the v2 way on v2
            if new and self.tuning.notice_at_new:  # before any prompt (tests)
                await self._turn(session).notice("info", *NOTICE_AT_NEW)

    async def new_session(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        await self.check_auth()
        session = AgentSession(session_id=f"demo_{uuid.uuid4().hex[:12]}", cwd=_cwd(p))
        session.editor_server = _editor_server(p)
        self.sessions[session.session_id] = session
        self._after_answer(self._announce_commands(session, new=True))
        return {"sessionId": session.session_id, **self._setup(session)}

    async def load_session(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        await self.check_auth()
        session = self._session(p, active=False)
        session.cwd, session.active = _cwd(p), True
        session.editor_server = _editor_server(p)
        for role, text in list(session.history):
            update = {
                "sessionUpdate": f"{role}_message_chunk",
                "messageId": f"msg_{uuid.uuid4().hex[:10]}",
                "content": {"type": "text", "text": text},
            }
            await self._update(session, update)
        self._after_answer(self._announce_commands(session))
        return self._setup(session)

    async def resume_session(self, params: Any) -> dict[str, Any]:
        """v2's way back into a session: with ``replayFrom`` the conversation is replayed as
        ``session/load`` does (this agent keeps all of it, so every cursor means the start)."""
        p = obj_or_empty(params)
        if p.get("replayFrom") is not None:
            return await self.load_session(params)
        await self.check_auth()
        session = self._session(p, active=False)
        session.cwd, session.active = _cwd(p), True
        session.editor_server = _editor_server(p)
        return self._setup(session)

    async def list_sessions(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        cwd = p.get("cwd")
        if cwd is not None and not (isinstance(cwd, str) and os.path.isabs(cwd)):
            raise InvalidParams("cwd must be an absolute path")
        if p.get("cursor") is not None:
            raise InvalidParams("invalid cursor (this agent returns one page)")
        sessions = [
            {"sessionId": s.session_id, "cwd": s.cwd, "title": s.title, "updatedAt": s.updated_at}
            for s in self.sessions.values()
            if cwd is None or s.cwd == cwd
        ]
        return {"sessions": sessions}

    async def close_session(self, params: Any) -> dict[str, Any]:
        session = self._session(obj_or_empty(params))
        session.active = False
        if session.turn is not None:
            session.turn.cancel()
        return {}

    async def delete_session(self, params: Any) -> dict[str, Any]:
        session = self._session(obj_or_empty(params), active=False)
        await self.close_session(params)
        del self.sessions[session.session_id]
        delete_saved(self.state_dir, session.session_id)
        return {}

    async def fork_session(self, params: Any) -> dict[str, Any]:
        """A new session that remembers the parent's conversation (nothing is replayed)."""
        p = obj_or_empty(params)
        parent = self._session(p, active=False)
        fork = AgentSession(session_id=f"demo_{uuid.uuid4().hex[:12]}", cwd=_cwd(p))
        fork.history = list(parent.history)
        fork.editor_server = _editor_server(p)
        self.sessions[fork.session_id] = fork
        return {"sessionId": fork.session_id, **self._setup(fork)}

    async def set_mode(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        session = self._session(p)
        mode_id = nonempty_str(p, "modeId")
        if mode_id not in {m["id"] for m in MODES}:
            raise InvalidParams(f"unknown mode {mode_id!r}")
        session.mode = mode_id
        update = {"sessionUpdate": "current_mode_update", "currentModeId": mode_id}
        await self._update(session, update)
        return {}

    async def set_config_option(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        session = self._session(p)
        set_option(session, self._config(session), p)
        return {"configOptions": self._config(session)}

    async def cancel_tool_call(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        return cancel_one(self._session(p).work, p, "toolCallId")

    async def cancel_terminal(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        return cancel_one(self._session(p).work, p, "terminalId")

    # -- prompt turns -------------------------------------------------------------------------


def _editor_server(params: dict[str, Any]) -> str | None:
    """The ``serverId`` of the ``editor`` MCP server the client offers over ACP, if any."""
    servers = params.get("mcpServers")
    for server in servers if isinstance(servers, list) else ():
        if not isinstance(server, dict) or server.get("type") != "acp":
            continue
        if server.get("name") == "editor" and isinstance(server.get("serverId"), str):
            return str(server["serverId"])
    return None
