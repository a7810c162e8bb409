"""Deleting and forking sessions, signing in and logging out (ACP ``session/delete``,
``session/fork``, sign-in as ``agent.calls.signing_in`` does it, ``logout``), where the agent
advertises them: the rich ``acp/...`` requests (the editor asked
its user first) and the zero-plugin commands, which ask the user themselves (their arguments
checked against the types docs/protocol.md gives them: ``proto.arguments``).

The question before deleting or logging out offers keeping things as they are first (the action
an editor pre-selects), so no stray Enter deletes a conversation.

A deleted session's turn checkpoints go with it (undo can no longer reach them). Its pending
review stays: those are changes on disk still waiting for a decision, and deciding them needs no
checkpoint (a hunk carries its own lines).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import register_commands, register_requests
from acp_editor.errors import InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from collections.abc import Callable

    from acp_editor.editor.show.editor_frontend import EditorFrontend
    from acp_editor.editor.supervisor import AgentSupervisor
    from acp_editor.protocol.editor_types import (
        DeleteSessionResult,
        LogoutResult,
        SetSessionTitleResult,
    )

log = get_logger(__name__)

KEEP, DELETE = "Keep the session", "Delete"
STAY, LOG_OUT = "Stay logged in", "Log out"


class SessionAdmin:
    def __init__(
        self,
        agents: AgentSupervisor,
        frontend: EditorFrontend,
        forget: Callable[[str], None] = lambda session_id: None,
    ) -> None:
        self.agents = agents
        self.frontend = frontend
        self.forget = forget
        """Review's memory of a deleted session's turns goes (``Review.forget_session``)."""

        self.confirm = frontend.questions.confirm

    def register(self, server: LanguageServer) -> None:
        register_requests(
            server,
            {
                proto.ACP_DELETE_SESSION: self.delete_request,
                proto.ACP_FORK_SESSION: self.fork_request,
                proto.ACP_LOGOUT: self.logout_request,
                proto.ACP_SIGN_IN: self.sign_in_request,
                proto.ACP_SET_SESSION_TITLE: self.set_title_request,
                proto.ACP_ARCHIVE_SESSION: self.archive_request,
            },
        )
        register_commands(
            server,
            {
                proto.CMD_DELETE_SESSION: self.delete_command,
                proto.CMD_FORK_SESSION: self.fork_command,
                proto.CMD_LOGOUT: self.logout_command,
                proto.CMD_SIGN_IN: self.sign_in_command,
                proto.CMD_SET_SESSION_TITLE: self.set_title_command,
                proto.CMD_ARCHIVE_SESSION: self.archive_command,
                proto.CMD_SESSION_STATUS: self.status_command,
            },
        )

    # -- acp/... requests: the editor asked its user ---------------------------------------------

    async def delete_request(self, params: object) -> DeleteSessionResult:
        p = proto.parse(proto.DELETE_SESSION, params)
        return {"sessionId": await self._delete(p.get("sessionId"))}

    async def fork_request(self, params: object) -> dict[str, Any]:
        fork = await self.agents.fork_session(
            proto.parse(proto.FORK_SESSION, params).get("sessionId")
        )
        self.frontend.flush(fork)
        return {"sessionId": fork, "snapshot": self.agents.snapshots(fork)[0]}

    async def logout_request(self, params: object) -> LogoutResult:
        proto.parse(proto.LOGOUT, params)
        await self.agents.logout()
        return {}

    async def sign_in_request(self, params: object) -> dict[str, Any]:
        return await self.agents.sign_in(proto.parse(proto.SIGN_IN, params).get("agent"))

    async def set_title_request(self, params: object) -> SetSessionTitleResult:
        p = proto.parse(proto.SET_SESSION_TITLE, params)
        title = p["title"]
        proto.named(title.strip(), "title")  # blank is no title
        sid = await self.agents.set_title(title, p.get("sessionId"))
        return {"sessionId": sid, "title": title}

    async def archive_request(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.ARCHIVE_SESSION, params)
        return await self._archive(p.get("sessionId"), p.get("archived", True))

    async def _archive(self, session_id: str | None, archived: bool) -> dict[str, Any]:
        sid = await self.agents.archive_session(session_id, archived)
        return {"sessionId": sid, "archived": archived}

    async def _delete(self, session_id: str | None) -> str:
        """``session/delete``; once the agent has forgotten the session, its checkpoints go."""
        from acp_editor.services.retention.plumbing import StoreError  # late: editor/late.py
        from acp_editor.services.retention.pruning import forget_session

        sid = await self.agents.delete_session(session_id)
        self.forget(sid)
        try:
            await asyncio.to_thread(forget_session, sid)
        except (OSError, StoreError) as exc:
            log.warning("the checkpoints of deleted session %s stay: %s", sid, exc)
        return sid

    # -- zero-plugin commands: asked here ------------------------------------------------------

    async def delete_command(self, *args: Any) -> dict[str, Any]:
        """``[]`` (the current session), ``[sessionId]``, or ``[sessionId, true]`` when the
        editor already asked its user."""
        a = proto.arguments(proto.DELETE_SESSION_COMMAND, args)
        confirmed = a.get("confirmed", False)
        target = a.get("sessionId") or self.agents.current_session
        if target is None:
            raise InvalidParams("there is no session to delete")
        question = (
            f"Delete session {target}? The agent forgets it: it can no longer be loaded or "
            "listed, nor its turns undone. Files are not touched."
        )
        if not confirmed and not await self.confirm(question, KEEP, DELETE):
            return {"sessionId": target, "deleted": False}
        await self._delete(target)
        return {"sessionId": target, "deleted": True}

    async def fork_command(self, *args: Any) -> dict[str, Any]:
        """``[]`` (the current session) or ``[sessionId]``: the fork becomes current."""
        sid = proto.arguments(proto.FORK_SESSION_COMMAND, args).get("sessionId")
        return {"sessionId": await self.agents.fork_session(sid or None)}

    async def logout_command(self, *args: Any) -> dict[str, Any]:
        """``[]``, or ``[true]`` when the editor already asked its user."""
        confirmed = proto.arguments(proto.LOGOUT_COMMAND, args).get("confirmed", False)
        question = "Log out of the agent? New sessions will need you to log in again."
        if not confirmed and not await self.confirm(question, STAY, LOG_OUT):
            return {"loggedOut": False}
        await self.agents.logout()
        return {"loggedOut": True}

    async def sign_in_command(self, *args: Any) -> dict[str, Any]:
        """``[]`` (the current session's agent) or ``[agentId]``."""
        agent = proto.arguments(proto.SIGN_IN_COMMAND, args).get("agentId")
        return await self.agents.sign_in(agent)

    async def set_title_command(self, *args: Any) -> dict[str, Any]:
        """``[title]`` (the current session) or ``[title, sessionId]``."""
        a = proto.arguments(proto.SET_SESSION_TITLE_COMMAND, args, ("title", "sessionId"))
        sid = await self.agents.set_title(a["title"], a.get("sessionId"))
        return {"sessionId": sid, "title": a["title"]}

    async def archive_command(self, *args: Any) -> dict[str, Any]:
        """``[]``, ``[sessionId]``, or ``[sessionId, false]`` to bring it back."""
        a = proto.arguments(proto.ARCHIVE_SESSION_COMMAND, args)
        return await self._archive(a.get("sessionId"), a.get("archived", True))

    async def status_command(self, *args: Any) -> dict[str, str]:
        """``[]`` (the current session) or ``[sessionId]``."""
        sid = proto.arguments(proto.SESSION_STATUS_COMMAND, args).get("sessionId")
        return await self.agents.session_status(sid)
