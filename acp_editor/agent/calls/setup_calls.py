"""Session set-up calls (``session/new``, ``load``, ``resume``, ``fork``) as the agent side
sends them: each with its ``mcpServers`` (the editor-context token valid at once, told the
session's id once it has one, forgotten when the call fails), and signed in once when the agent
answers that it needs authentication first (``agent.calls.signing_in``).

Some agents start their MCP servers while they answer and fail the whole call when one fails
(fast-agent). When such a failure names the editor-context server, the call is made once more
without it and the user is told: a session without the editor server beats no session. Any
other failure reaches the user with the agent's own details, not only "Internal error"."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.agent.calls import mcp_servers
from acp_editor.errors import AuthRequired, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.editor_context import SERVER_NAME

if TYPE_CHECKING:
    from acp_editor.agent.calls.signing_in import SignIn
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.frontend import Frontend
    from acp_editor.agent.link.connection import AgentConnection

log = get_logger(__name__)


def setup_params(cwd: str, dirs: Sequence[str], **more: Any) -> dict[str, Any]:
    """The params every session set-up call shares (new, load, resume, fork)."""
    params: dict[str, Any] = {**more, "cwd": cwd, "mcpServers": []}
    if dirs:
        params["additionalDirectories"] = list(dirs)
    return params


class SetupCalls:
    def __init__(
        self,
        config: AgentConfig,
        connection: AgentConnection,
        frontend: Frontend,
        sign_in: SignIn,
    ) -> None:
        self.config, self.connection, self.frontend = config, connection, frontend
        self.sign_in = sign_in

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        """A session set-up call with its MCP servers, authenticating once if the agent asks."""
        capabilities, version = self.connection.info.capabilities, self.connection.protocol_version
        token = await mcp_servers.add_servers(self.config, capabilities, version, params)
        try:
            result = await self._authenticated(method, params)
        except RpcError as exc:
            self._forget(token)
            if token is None or not mcp_servers.blames_editor(exc):
                raise _detailed(method, exc) from exc
            return await self._without_editor(method, params, exc)
        except BaseException:
            self._forget(token)
            raise
        if token is not None:
            mcp_servers.bind(self.config, token, params, result)
        return result

    async def _without_editor(self, method: str, params: dict[str, Any], exc: RpcError) -> Any:
        """The agent could not start the editor-context server and gave up the session for it:
        once more without it, and the user told why the session has no editor server."""
        log.warning("%s failed on the %r MCP server; trying without it", method, SERVER_NAME)
        try:
            result = await self._authenticated(method, mcp_servers.without_editor(params))
        except RpcError as again:
            raise _detailed(method, again) from again
        self.frontend.notice(
            f"The agent could not start acp-editor's {SERVER_NAME!r} MCP server "
            f"({_details(exc)}); this session runs without it: the agent does not see your "
            "unsaved text through it."
        )
        return result

    def _forget(self, token: str | None) -> None:
        if token is not None and self.config.editor_context is not None:
            self.config.editor_context.forget(token)

    async def _authenticated(self, method: str, params: dict[str, Any]) -> Any:
        try:
            return await self.connection.call(method, params, timeout=self.config.session_timeout)
        except RpcError as exc:
            if exc.code != AuthRequired.CODE:
                raise
        await self.authenticate()
        return await self.connection.call(method, params, timeout=self.config.session_timeout)

    async def authenticate(self) -> None:
        await self.sign_in.sign_in()


def _details(exc: RpcError) -> str:
    """What the agent said of a failure: its message and its ``data`` (``details`` when it is
    the usual object with one, else the data itself, shortened)."""
    data = exc.data
    if isinstance(data, dict) and isinstance(data.get("details"), str):
        data = data["details"]
    said = data if isinstance(data, str) else json.dumps(data, default=str) if data else ""
    said = said if len(said) <= 500 else said[:499] + "…"
    return f"{exc.message}: {said}" if said and said != exc.message else exc.message


def _detailed(method: str, exc: RpcError) -> RpcError:
    """The agent's failure with its details in the message (what editors show), code and data
    kept (an editor may act on the code: authentication required)."""
    if exc.code == AuthRequired.CODE:
        return exc
    return RpcError(f"{method} failed: {_details(exc)}", exc.data, code=exc.code)
