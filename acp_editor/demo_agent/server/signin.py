"""Signing in to the demo agent, as real agents ask for it.

* ``--require-auth``: an agent-type method (``demo-login``): ``session/new`` and
  ``session/load`` fail with -32000 until the client calls ``authenticate`` with it (or the
  user signed in with the terminal method, offered too to a client that can run it).
* ``--require-login``: a terminal-only sign-in, as claude-agent-acp asks for one. ``authMethods``
  offers the terminal method only to a client that advertised ``auth.terminal`` (else ``[]``);
  ``session/new`` works, and ``session/prompt`` fails with -32000 "Authentication required"
  until the login file exists. The client runs the agent's own program with the method's
  ``args`` (``--login --login-file PATH``) in a terminal the user types into: ``login_program``.

``auth/status`` answers ``authenticated``, ``unauthenticated`` or ``not_required`` at any time,
and ``auth/status_update`` tells the client when that changed (the first prompt or session
set-up after the file appeared, an ``authenticate``, a ``logout``). A base of ``ScriptedAgent``
(``methods``), which sets the attributes declared here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from acp_editor.demo_agent.turn.prompt_turn import now
from acp_editor.errors import AuthRequired, ConnectionClosed, InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol.acp import nonempty_str, obj_or_empty
from acp_editor.storage import state_dir, write_atomically

if TYPE_CHECKING:
    from acp_editor.agent.link.rpc import JsonRpcPeer
    from acp_editor.demo_agent.turn.capabilities import ClientCaps

log = get_logger(__name__)

AGENT_LOGIN = {"id": "demo-login", "name": "Demo login", "description": "Always succeeds"}
TERMINAL_LOGIN_ID = "demo-terminal-login"
LOGIN_PROMPT = "Demo sign-in for acp-editor. Type your name and press Enter:"
AUTH_STATUS_UPDATE = "auth/status_update"


def default_login_file() -> str:
    """Where ``--login`` keeps the sign-in unless told: acp-editor's state directory
    (``$ACP_EDITOR_STATE_DIR``, else ``$XDG_STATE_HOME/acp-editor/`` or
    ``~/.local/state/acp-editor/``)."""
    return str(state_dir() / "demo-agent-login.json")


def terminal_login(login_file: str) -> dict[str, Any]:
    """The terminal method: the client runs this agent's program with ``args`` in a terminal."""
    return {
        "id": TERMINAL_LOGIN_ID,
        "name": "Log in from a terminal",
        "description": "Type your name in a terminal (the demo's sign-in)",
        "type": "terminal",
        "args": ["--login", "--login-file", login_file],
        "env": {},
    }


def login_program(login_file: str, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """``--login``: ask for a name, keep it in ``login_file`` and exit 0; nothing typed (an
    empty line, end of input, Ctrl-C) is a failed sign-in: say why and exit 1."""
    stdout.write(LOGIN_PROMPT + "\n")
    stdout.flush()
    try:
        line = stdin.readline()
    except KeyboardInterrupt:
        line = ""
    name = line.strip()
    if not name:
        why = "no name typed" if line else "the input ended before a name was typed"
        stderr.write(f"Not signed in: {why}.\n")
        return 1
    write_atomically(Path(login_file), json.dumps({"name": name, "signedInAt": now()}) + "\n")
    stdout.write(f"Signed in as {name}. You can close this terminal.\n")
    return 0


def read_login(login_file: str) -> str | None:
    """The name ``login_program`` kept, or None (no file, or not one it wrote)."""
    try:
        data = json.loads(Path(login_file).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("unreadable login file %s: %s", login_file, exc)
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else None


def _forget(login_file: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(login_file)


class SignIn:
    peer: JsonRpcPeer
    version: int
    caps: ClientCaps
    require_auth: bool
    require_login: bool
    login_file: str
    authenticated: bool
    """``authenticate`` was called with the agent method (``--require-auth``)."""
    _auth_told: dict[str, Any] | None
    """The status the client was last told (an ``auth/status`` answer or update)."""

    def auth_methods(self) -> list[dict[str, Any]]:
        """What ``initialize`` offers: ``--require-auth`` its agent method; either flag the
        terminal method, to a client that can run it (``auth.terminal``). The v2 draft's clients
        are not asked: they are offered it as before."""
        methods: list[dict[str, Any]] = [AGENT_LOGIN] if self.require_auth else []
        terminal_ok = self.caps.terminal_auth or self.version >= 2
        if (self.require_auth or self.require_login) and terminal_ok:
            methods.append(terminal_login(self.login_file))
        return methods

    async def _login_name(self) -> str | None:
        """Who signed in from a terminal (the login file), when a sign-in is required."""
        if not (self.require_auth or self.require_login):
            return None
        return await asyncio.to_thread(read_login, self.login_file)

    async def auth_state(self) -> dict[str, Any]:
        """The sign-in as ``auth/status`` reports it: ``--require-auth`` takes either method,
        ``--require-login`` the terminal one."""
        if not (self.require_auth or self.require_login):
            return {"state": "not_required", "accounts": []}
        name = await self._login_name()
        accounts: list[dict[str, Any]] = []
        if self.require_auth and self.authenticated:
            accounts.append({"label": AGENT_LOGIN["name"], "active": True})
        if name is not None:
            accounts.append({"label": name, "name": name, "active": True})
        signed_in = bool(accounts) and (name is not None or not self.require_login)
        return {"state": "authenticated" if signed_in else "unauthenticated", "accounts": accounts}

    async def auth_status(self, params: Any) -> dict[str, Any]:
        """``auth/status``: never fails with -32000 (the spec's rule)."""
        self._auth_told = await self.auth_state()
        return self._auth_told

    async def report_auth(self) -> dict[str, Any]:
        """Send ``auth/status_update`` when the state differs from what the client was told."""
        state = await self.auth_state()
        if self._auth_told is not None and state != self._auth_told:
            with contextlib.suppress(ConnectionClosed):  # the client left: nobody to tell
                await self.peer.notify(AUTH_STATUS_UPDATE, state)
        self._auth_told = state
        return state

    async def authenticate(self, params: Any) -> dict[str, Any]:
        method_id = nonempty_str(obj_or_empty(params), "methodId")
        if method_id == TERMINAL_LOGIN_ID and (self.require_auth or self.require_login):
            raise InvalidParams(f"{method_id} is a terminal method: it is never sent here")
        if not self.require_auth or method_id != AGENT_LOGIN["id"]:
            raise InvalidParams(f"unknown authentication method {method_id!r}")
        self.authenticated = True
        await self.report_auth()
        return {}

    async def logout(self, params: Any) -> dict[str, Any]:
        """Forget both sign-ins: new sessions (``--require-auth``) and prompts
        (``--require-login``) need one again."""
        self.authenticated = not self.require_auth
        if self.require_auth or self.require_login:
            await asyncio.to_thread(_forget, self.login_file)
        await self.report_auth()
        return {}

    async def check_auth(self) -> None:
        """``session/new``, ``load`` and ``resume`` with ``--require-auth``: either method."""
        state = await self.report_auth()
        if self.require_auth and not state["accounts"]:
            raise AuthRequired("authenticate first (method demo-login)")

    async def check_login(self) -> None:
        """``session/prompt`` with ``--require-login``: the login file must exist."""
        state = await self.report_auth()
        if self.require_login and not any("name" in a for a in state["accounts"]):
            raise AuthRequired()
