"""Session set-up calls (``session/new``, ``load``, ``resume``, ``fork``) as the agent side
sends them: each with its ``mcpServers`` (the editor-context token bound once the session has an
id, forgotten when the call fails), and signed in once when the agent answers that it needs
authentication first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.agent import mcp_servers
from acp_editor.errors import AgentError, AuthRequired, RpcError
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.connection import AgentConnection
    from acp_editor.agent.frontend import Frontend


def setup_params(cwd: str, dirs: Sequence[str], **more: Any) -> dict[str, Any]:
    """The params every session set-up call shares (new, load, resume, fork)."""
    params: dict[str, Any] = {**more, "cwd": cwd, "mcpServers": []}
    if dirs:
        params["additionalDirectories"] = list(dirs)
    return params


class SetupCalls:
    def __init__(self, config: AgentConfig, connection: AgentConnection, frontend: Frontend):
        self.config, self.connection, self.frontend = config, connection, frontend

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        """A session set-up call with its MCP servers, authenticating once if the agent asks."""
        capabilities, version = self.connection.info.capabilities, self.connection.protocol_version
        token = await mcp_servers.add_servers(self.config, capabilities, version, params)
        try:
            result = await self._authenticated(method, params)
        except BaseException:
            if token is not None and self.config.editor_context is not None:
                self.config.editor_context.forget(token)
            raise
        if token is not None:
            mcp_servers.bind(self.config, token, params, result)
        return result

    async def _authenticated(self, method: str, params: dict[str, Any]) -> Any:
        try:
            return await self.connection.call(method, params, timeout=self.config.session_timeout)
        except RpcError as exc:
            if exc.code != AuthRequired.CODE:
                raise
        await self.authenticate()
        return await self.connection.call(method, params, timeout=self.config.session_timeout)

    async def authenticate(self) -> None:
        # Terminal-type methods are run by the user as an interactive program, never sent here.
        offered = self.connection.info.auth_methods
        usable = [m for m in offered if m.get("type", "agent") != "terminal"]
        ids = [str(m.get("id")) for m in usable]
        chosen = self.config.auth_method
        if chosen is None:
            chosen = await self.frontend.choose_auth_method(usable) if usable else None
        if chosen is None:
            names = ", ".join(str(m.get("id")) for m in offered) or "none"
            raise AgentError(f"the agent requires authentication (methods: {names})")
        if chosen not in ids:
            raise AgentError(
                f"auth method {chosen!r} cannot be used with this agent "
                f"(methods it accepts through authenticate: {', '.join(ids) or 'none'})"
            )
        await self.connection.call(
            acp.AUTH_LOGIN if self.connection.protocol_version >= 2 else acp.AUTHENTICATE,
            {"methodId": chosen},
            timeout=self.config.session_timeout,
        )
