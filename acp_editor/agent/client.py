"""The ACP client: start the agent, negotiate, drive sessions.

This module is the sidecar's side of the protocol's lifecycle (initialize, authenticate, session
calls, prompt, cancel, shutdown). Serving the agent's own requests (fs, terminals, permissions)
lives in ``agent.serving``; what the user sees is the ``Frontend``'s business.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from acp_editor import __version__
from acp_editor.agent.frontend import Frontend, Session
from acp_editor.agent.process import AgentProcess
from acp_editor.agent.rpc import JsonRpcPeer, Tracer, Writer
from acp_editor.agent.serving import AgentRequests
from acp_editor.errors import AgentError, AuthRequired, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.review.documents import ReviewingDocuments
from acp_editor.review.queue import Mode, ReviewQueue
from acp_editor.services.documents import DiskDocuments, DocumentSource
from acp_editor.services.permissions import PermissionPolicy, Rule
from acp_editor.session.state import SessionState

log = get_logger("agent")


@dataclass
class AgentConfig:
    """How to start and talk to one agent."""

    command: list[str]
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment variables on top of the sidecar's own."""
    protocol_version: int = acp.PROTOCOL_VERSION
    auth_method: str | None = None
    """Preselected auth method id (``--auth-method``); otherwise the front end asks."""
    unrestricted_fs: bool = False
    """Allow reads/writes outside the session roots."""
    request_timeout: float = 60.0
    session_timeout: float = 180.0
    """session/new and friends: real agents take seconds to set up a session."""
    prompt_timeout: float = 6 * 3600.0
    shutdown_grace: float = 2.0
    review_mode: Mode = "after-write"
    """How the agent's changes are reviewed (see ``review.queue``)."""
    tell_agent_rejections: bool = False
    """Add a note about rejected changes to the next prompt."""
    auto_approve: list[Rule] = field(default_factory=list)
    """Explicit auto-approval rules (off unless set)."""
    env_allowlist: list[str] | None = None
    """When set, the agent (and the commands it runs) see only these variables of the sidecar's
    environment (``NAME`` or ``PREFIX*``), plus ``env``. None: the whole environment."""

    def base_env(self) -> dict[str, str]:
        if self.env_allowlist is None:
            return dict(os.environ)
        return {k: v for k, v in os.environ.items() if _allowed(k, self.env_allowlist)}


def _allowed(name: str, allowlist: list[str]) -> bool:
    return any(
        name.startswith(entry[:-1]) if entry.endswith("*") else name == entry for entry in allowlist
    )


class AcpClient:
    """One agent process and its sessions. Use ``await start()``, then the session calls."""

    def __init__(
        self,
        config: AgentConfig,
        frontend: Frontend | None = None,
        documents: DocumentSource | None = None,
    ) -> None:
        self.config = config
        self.frontend = frontend or Frontend()
        self.sessions: dict[str, Session] = {}
        self.process: AgentProcess | None = None
        self.peer: JsonRpcPeer | None = None
        self.init_result: dict[str, Any] = {}
        self.protocol_version = config.protocol_version
        self.root: str | None = None
        self.exited = asyncio.Event()
        self.permissions = PermissionPolicy(config.auto_approve)
        inner = documents or DiskDocuments()
        self.review = ReviewQueue(inner, config.review_mode, self.frontend.review_changed)
        self.reviewing = ReviewingDocuments(
            inner, self.review, lambda p, s: self.requests.allowed(p, s)
        )
        self.requests = AgentRequests(self, self.reviewing)
        self._tasks: list[asyncio.Task[Any]] = []
        self.tracers: list[Tracer] = []
        """Observers of every ACP message, both directions (traffic logs, schema checks)."""

    # -- agent capabilities ---------------------------------------------------------------------

    @property
    def agent_capabilities(self) -> dict[str, Any]:
        caps = self.init_result.get("agentCapabilities")
        return caps if isinstance(caps, dict) else {}

    @property
    def auth_methods(self) -> list[dict[str, Any]]:
        methods = self.init_result.get("authMethods")
        return [m for m in methods if isinstance(m, dict)] if isinstance(methods, list) else []

    def supports(self, method: str) -> bool:
        """Whether the agent advertised an optional session method."""
        caps = self.agent_capabilities
        if method == acp.SESSION_LOAD:
            return caps.get("loadSession") is True
        session_caps = caps.get("sessionCapabilities")
        if not isinstance(session_caps, dict):
            return False
        name = method.removeprefix("session/")
        return name in session_caps and session_caps[name] is not None

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self, cwd: str) -> dict[str, Any]:
        """Spawn the agent with ``cwd`` as its working directory and run ``initialize``."""
        self.root = cwd
        self.process = await AgentProcess.start(
            self.config.command, cwd=cwd, extra_env=self.config.env, base_env=self.config.base_env()
        )
        stdin = self.process.stdin
        self.peer = JsonRpcPeer(
            "agent",
            Writer(stdin.write, stdin.drain),
            default_timeout=self.config.request_timeout,
        )
        self.peer.tracers = self.tracers  # shared: observers added later see traffic too
        self.requests.register(self.peer)
        self._tasks.append(asyncio.ensure_future(self._read()))
        self._tasks.append(asyncio.ensure_future(self._watch_exit()))
        try:
            result = await self.peer.request(
                acp.INITIALIZE,
                {
                    "protocolVersion": self.config.protocol_version,
                    "clientCapabilities": {
                        "fs": {"readTextFile": True, "writeTextFile": True},
                        "terminal": True,
                    },
                    "clientInfo": {
                        "name": "acp-editor",
                        "title": "acp-editor",
                        "version": __version__,
                    },
                },
            )
        except RpcError as exc:
            await self.shutdown()
            raise AgentError(
                f"the agent failed to initialize: {exc.message}{self._tail()}"
            ) from exc
        self.init_result = result if isinstance(result, dict) else {}
        version = self.init_result.get("protocolVersion")
        if version not in acp.SUPPORTED_VERSIONS or version > self.config.protocol_version:
            await self.shutdown()
            raise AgentError(
                f"the agent speaks ACP protocol version {version!r}; acp-editor speaks version 1 "
                "(and the version 2 draft with --protocol-version 2)"
            )
        self.protocol_version = int(version)
        return self.init_result

    def _tail(self) -> str:
        tail = self.process.stderr_tail() if self.process else ""
        return f"\nagent stderr (last lines):\n{tail}" if tail else ""

    async def _read(self) -> None:
        assert self.process is not None and self.peer is not None
        await self.peer.run(self.process.stdout, close_at_eof=False)
        # EOF usually means the agent is exiting: wait a moment so the error says how it ended.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.process.proc.wait()), 2.0)
        code = self.process.returncode
        self.peer.close(
            f"the agent exited with code {code}"
            if code is not None
            else "the agent closed its output"
        )

    async def _watch_exit(self) -> None:
        assert self.process is not None and self.peer is not None
        code = await self.process.wait()
        expected = self.process.stopping
        self.peer.close(f"the agent exited with code {code}")
        for session in self.sessions.values():
            for fut in session.permissions.values():
                if not fut.done():
                    fut.cancel()
        if not expected:
            log.error("the agent exited unexpectedly with code %s%s", code, self._tail())
        self.exited.set()
        self.frontend.agent_exited(code, self.process.stderr_tail(), expected)

    async def shutdown(self) -> None:
        """End every terminal, then the agent's whole process group. Idempotent."""
        await self.requests.terminals.close_all()
        if self.process is not None and self.process.returncode is None:
            await self.process.shutdown(self.config.shutdown_grace)
        elif self.process is not None:
            await self.process.shutdown(0.0, 0.5)  # the leader is gone; its children may not be
        if self.peer is not None:
            self.peer.close("shut down")
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    # -- requests to the agent ------------------------------------------------------------------

    async def call(
        self, method: str, params: dict[str, Any], *, timeout: float | None = None
    ) -> Any:
        if self.peer is None:
            raise AgentError("the agent is not running")
        return await self.peer.request(method, params, timeout=timeout)

    async def _session_call(self, method: str, params: dict[str, Any]) -> Any:
        """A session set-up call, authenticating once if the agent asks for it."""
        try:
            return await self.call(method, params, timeout=self.config.session_timeout)
        except RpcError as exc:
            if exc.code != AuthRequired.CODE:
                raise
        await self.authenticate()
        return await self.call(method, params, timeout=self.config.session_timeout)

    async def authenticate(self) -> None:
        # Terminal-type methods are run by the user as an interactive program, never sent here.
        usable = [m for m in self.auth_methods if m.get("type", "agent") != "terminal"]
        ids = [str(m.get("id")) for m in usable]
        chosen = self.config.auth_method
        if chosen is None:
            chosen = await self.frontend.choose_auth_method(usable) if usable else None
        if chosen is None:
            offered = ", ".join(str(m.get("id")) for m in self.auth_methods) or "none"
            raise AgentError(f"the agent requires authentication (methods: {offered})")
        if chosen not in ids:
            raise AgentError(
                f"auth method {chosen!r} cannot be used with this agent "
                f"(methods it accepts through authenticate: {', '.join(ids) or 'none'})"
            )
        await self.call(acp.AUTHENTICATE, {"methodId": chosen}, timeout=self.config.session_timeout)

    def _open(self, session_id: str, cwd: str, dirs: Sequence[str]) -> Session:
        session = Session(
            session_id, cwd, SessionState(session_id, self.protocol_version), list(dirs)
        )
        self.sessions[session_id] = session
        self.requests.session_opened(session)
        return session

    def _apply_setup(self, session: Session, result: Any) -> None:
        if not isinstance(result, dict):
            return
        changes = session.state.set_modes(result.get("modes"))
        changes += session.state.set_config_options(result.get("configOptions"))
        self.requests.emit(session, changes)

    async def new_session(self, cwd: str, additional_directories: Sequence[str] = ()) -> Session:
        params: dict[str, Any] = {"cwd": cwd, "mcpServers": []}
        if additional_directories:
            params["additionalDirectories"] = list(additional_directories)
        result = acp.obj(await self._session_call(acp.SESSION_NEW, params), "session/new result")
        session = self._open(acp.field(result, "sessionId", str), cwd, additional_directories)
        self._apply_setup(session, result)
        return session

    async def load_session(self, session_id: str, cwd: str, *, resume: bool = False) -> Session:
        """``session/load`` (replays the conversation) or, with ``resume``, ``session/resume``."""
        method = acp.SESSION_RESUME if resume else acp.SESSION_LOAD
        if not self.supports(method):
            raise AgentError(f"the agent does not support {method}")
        # Registered first: the replay arrives as session/update before the response.
        session = self.sessions.get(session_id) or self._open(session_id, cwd, ())
        result = await self._session_call(
            method, {"sessionId": session_id, "cwd": cwd, "mcpServers": []}
        )
        self._apply_setup(session, result)
        return session

    async def list_sessions(self, cwd: str | None = None) -> dict[str, Any]:
        if not self.supports(acp.SESSION_LIST):
            raise AgentError("the agent does not support session/list")
        params = {"cwd": cwd} if cwd else {}
        return acp.obj(await self.call(acp.SESSION_LIST, params), "session/list result")

    async def close_session(self, session_id: str) -> None:
        session = self.sessions.pop(session_id, None)
        if session is not None:
            self.requests.cancel_permissions(session)
            await self.requests.terminals.close_session(session_id)
        if self.supports(acp.SESSION_CLOSE):
            await self.call(acp.SESSION_CLOSE, {"sessionId": session_id})

    async def prompt(self, session_id: str, blocks: list[dict[str, Any]]) -> dict[str, Any]:
        """Send a prompt and wait for the turn to end; returns the agent's ``PromptResponse``."""
        session = self.session(session_id)
        note = self.review.unreported_rejections(session_id)
        if note is not None and self.config.tell_agent_rejections:
            blocks = [{"type": "text", "text": note}, *blocks]
        self.requests.emit(session, session.state.add_user_prompt(blocks))
        session.prompting = True
        try:
            result = await self.call(
                acp.SESSION_PROMPT,
                {"sessionId": session_id, "prompt": blocks},
                timeout=self.config.prompt_timeout,
            )
        except asyncio.CancelledError:
            # Whoever waited for the turn gave up: the agent must stop too.
            await asyncio.shield(self.cancel(session_id))
            raise
        finally:
            session.prompting = False
            session.cancelling = False
        return acp.obj(result, "session/prompt result")

    async def cancel(self, session_id: str) -> None:
        """``session/cancel``: pending permissions answer ``cancelled``, unfinished tool calls are
        marked cancelled; updates keep flowing until the prompt's response arrives."""
        session = self.session(session_id)
        if session.prompting:
            session.cancelling = True
        self.requests.cancel_permissions(session)
        self.requests.emit(session, session.state.mark_unfinished_cancelled())
        if self.peer is not None and not self.peer.is_closed:
            with contextlib.suppress(RpcError):
                await self.peer.notify(acp.SESSION_CANCEL, {"sessionId": session_id})

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        session = self.session(session_id)
        await self.call(acp.SESSION_SET_MODE, {"sessionId": session_id, "modeId": mode_id})
        self.requests.emit(session, session.state.set_current_mode(mode_id))

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        session = self.session(session_id)
        params: dict[str, Any] = {"sessionId": session_id, "configId": config_id, "value": value}
        if isinstance(value, bool):
            params["type"] = "boolean"  # a bare value means a value id (a string) on the wire
        result = await self.call(acp.SESSION_SET_CONFIG_OPTION, params)
        if isinstance(result, dict) and "configOptions" in result:
            self.requests.emit(session, session.state.set_config_options(result["configOptions"]))

    def session(self, session_id: str) -> Session:
        try:
            return self.sessions[session_id]
        except KeyError:
            raise AgentError(f"unknown session {session_id!r}") from None
