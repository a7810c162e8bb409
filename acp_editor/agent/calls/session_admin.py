"""The calls about sessions that are no turn: the agent's session list, deleting, naming,
archiving and asking about a session (most of them unstable: sent only to an agent that
advertises them, ``AgentError`` otherwise), signing out, and a session's mode and config options
(the agent's answer applied to the session state)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from acp_editor.errors import AgentError
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.link.connection import AgentConnection
    from acp_editor.agent.serving.requests import AgentRequests
    from acp_editor.agent.sessions import Session


class SessionAdmin:
    """``session``: a session by id (``AgentError`` for one we do not have); ``closed``: closes a
    session here, after the agent deleted it."""

    def __init__(
        self,
        connection: AgentConnection,
        requests: AgentRequests,
        session: Callable[[str], Session],
        closed: Callable[[str], Awaitable[None]],
    ) -> None:
        self.connection = connection
        self.requests = requests
        self.session = session
        self.closed = closed

    def require(self, method: str) -> None:
        if not self.connection.info.supports(method):
            raise AgentError(f"the agent does not support {method}")

    async def list_sessions(self, cwd: str | None = None) -> dict[str, Any]:
        self.require(acp.SESSION_LIST)
        params = {"cwd": cwd} if cwd else {}
        return acp.obj(await self.connection.call(acp.SESSION_LIST, params), "session/list result")

    async def delete_session(self, session_id: str) -> None:
        """``session/delete``: gone from the agent's list, and closed here."""
        self.require(acp.SESSION_DELETE)
        await self.connection.call(acp.SESSION_DELETE, {"sessionId": session_id})
        await self.closed(session_id)  # the agent closed it itself

    async def set_title(self, session_id: str, title: str) -> None:
        """``session/set_title`` (unstable): the agent names the session so (it may trim it;
        its ``session_info_update`` says what it kept)."""
        self.require(acp.SESSION_SET_TITLE)
        await self.connection.call(acp.SESSION_SET_TITLE, {"sessionId": session_id, "title": title})

    async def session_status(self, session_id: str) -> str:
        """``session/status`` (unstable): whether the agent holds the session in memory
        (``open``) or can load it (``saved``); a value nobody defined yet reads as ``saved``."""
        self.require(acp.SESSION_STATUS)
        result = await self.connection.call(acp.SESSION_STATUS, {"sessionId": session_id})
        status = result.get("status") if isinstance(result, dict) else None
        return status if status in ("open", "saved") else "saved"

    async def archive_session(self, session_id: str, archived: bool = True) -> None:
        """``session/archive`` / ``session/unarchive`` (unstable): hidden from (or back in)
        the agent's default session list; the session itself stays as it is."""
        method = acp.SESSION_ARCHIVE if archived else acp.SESSION_UNARCHIVE
        self.require(method)
        await self.connection.call(method, {"sessionId": session_id})

    async def logout(self) -> None:
        self.require(acp.LOGOUT)
        v2 = self.connection.protocol_version >= 2
        await self.connection.call(acp.AUTH_LOGOUT if v2 else acp.LOGOUT, {})

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        session = self.session(session_id)
        if self.connection.protocol_version >= 2:  # v2 has no session/set_mode: a config option
            config_id = acp.mode_option_id(session.state.snapshot_field("configOptions"))
            if config_id is None:
                raise AgentError("this agent offers no mode option for the session")
            await self.set_config_option(session_id, config_id, mode_id)
            return
        await self.connection.call(
            acp.SESSION_SET_MODE, {"sessionId": session_id, "modeId": mode_id}
        )
        self.requests.emit(session, session.state.set_current_mode(mode_id))

    async def set_config_option(self, session_id: str, config_id: str, value: Any) -> None:
        session = self.session(session_id)
        params: dict[str, Any] = {"sessionId": session_id, "configId": config_id, "value": value}
        if isinstance(value, bool):
            params["type"] = "boolean"  # a bare value means a value id (a string) on the wire
        elif self.connection.protocol_version >= 2:
            params["type"] = "id"  # v2 always says which kind of value it is
        result = await self.connection.call(acp.SESSION_SET_CONFIG_OPTION, params)
        if isinstance(result, dict) and "configOptions" in result:
            self.requests.emit(session, session.state.set_config_options(result["configOptions"]))
