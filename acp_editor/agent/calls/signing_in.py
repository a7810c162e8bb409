"""Signing in, when the agent answers that it needs it (-32000 on a session set-up call or a
prompt) or when the user asks.

The agent's methods are offered by name. An agent-type method goes through ``authenticate``
(v2: ``auth/login``). A terminal-type method (schema 1.25; agents offer them because we
advertise ``auth.terminal``, as claude-agent-acp's "Claude Subscription" login) is never sent
to the agent: the agent's own command runs again with the method's ``args`` and ``env`` where the
user can type (the front end's ``sign_in_terminal``: an editor's terminal, or instructions to
run it), and exit status 0 means signed in. The caller then retries what failed, once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from acp_editor.agent.auth_methods import TERMINAL, TerminalSignIn, method_type
from acp_editor.errors import AgentError, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.agent.frontend import Frontend
    from acp_editor.agent.link.connection import AgentConnection

log = get_logger(__name__)

AUTH_STATUS_S = 5.0
"""How long ``auth/status`` may take before the agent's start goes on without it."""


class SignIn:
    def __init__(
        self,
        config: AgentConfig,
        connection: AgentConnection,
        frontend: Frontend,
        agent_name: Callable[[], str],
    ) -> None:
        self.config = config
        self.connection = connection
        self.frontend = frontend
        self.agent_name = agent_name

    def methods(self) -> list[dict[str, Any]]:
        """The agent's sign-in methods, each with its ``type``."""
        return [{**m, "type": method_type(m)} for m in self.connection.info.auth_methods]

    async def sign_in(self) -> str:
        """Sign in with the method the user (or ``--auth-method``) chooses; its id. Raises
        ``AgentError`` saying why when there is no way to, or it was given up or failed."""
        offered = self.methods()
        if not offered:
            raise AgentError(
                f"{self.agent_name()} needs you to sign in and offers no way to do it from "
                "here: sign in with the agent's own command in a terminal, then try again"
            )
        chosen = self.config.auth_method
        if chosen is None:
            chosen = await self.frontend.choose_auth_method(offered, self.config.name)
        names = ", ".join(str(m.get("name") or m.get("id")) for m in offered)
        if chosen is None:
            raise AgentError(f"{self.agent_name()} needs you to sign in ({names})")
        method = next((m for m in offered if m.get("id") == chosen), None)
        if method is None:
            ids = ", ".join(str(m.get("id")) for m in offered)
            raise AgentError(f"auth method {chosen!r} is not one of the agent's ({ids})")
        if method_type(method) == TERMINAL:
            await self._in_terminal(method)
        else:
            v2 = self.connection.protocol_version >= 2
            await self.connection.call(
                acp.AUTH_LOGIN if v2 else acp.AUTHENTICATE,
                {"methodId": chosen},
                timeout=self.config.session_timeout,
            )
        log.info("signed in to %s with %s", self.config.name, chosen)
        # Asked again at once: what the editor shows beside the agent does not wait for the
        # agent's next report.
        await self.ask_status()
        return str(chosen)

    async def ask_status(self) -> None:
        """``auth/status`` (unstable), when the agent offers it: whether the user must sign in
        before anything works, shown beside the agent before the first prompt fails."""
        auth = self.connection.info.capabilities.get("auth")
        if not (isinstance(auth, dict) and isinstance(auth.get("status"), dict)):
            return
        try:
            result = await self.connection.call(acp.AUTH_STATUS, {}, timeout=AUTH_STATUS_S)
        except (RpcError, AgentError, TimeoutError) as exc:
            log.info("auth/status failed: %s", exc)
            return
        self.status_update(result)

    def status_update(self, params: Any) -> None:
        """The agent's word on its sign-in (``auth/status``'s answer, ``auth/status_update``,
        claude-agent-acp's ``_auth/status_update``), to the front end."""
        status = acp.auth_status(params)
        if status is not None:
            self.frontend.auth_status(self.config.name, status)

    def terminal_request(self, method: dict[str, Any]) -> TerminalSignIn:
        args = method.get("args")
        args = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
        env = method.get("env")
        more = {k: v for k, v in env.items() if isinstance(v, str)} if isinstance(env, dict) else {}
        description = method.get("description")
        return TerminalSignIn(
            agent=self.config.name,
            agent_name=self.agent_name(),
            method_id=str(method.get("id")),
            name=str(method.get("name") or method.get("id")),
            command=[*self.config.command, *args],
            env={**self.config.env, **more},
            cwd=self.connection.root,
            description=description if isinstance(description, str) else None,
        )

    async def _in_terminal(self, method: dict[str, Any]) -> None:
        request = self.terminal_request(method)
        status = await self.frontend.sign_in_terminal(request)
        if status != 0:
            ended = "was not finished" if status is None else f"ended with exit status {status}"
            raise AgentError(
                f"signing in to {request.agent_name} with {request.name} {ended}; "
                f"to sign in yourself, run in a terminal: {request.command_line()}"
            )
