"""Bringing a worktree session's changes back, and discarding its worktree: the rich
``acp/bringBack`` and ``acp/discardWorktree`` (the editor asked its user before discarding) and
the zero-plugin ``acp.bringBack`` and ``acp.discardWorktree``, which ask themselves.

Discarding loses what the session changed and was not brought back, so the question offers
keeping the worktree first (what an editor pre-selects), and says how much would be lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import register_commands, register_requests
from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from acp_editor.editor.supervisor import AgentSupervisor

KEEP, DISCARD = "Keep the worktree", "Discard"


class WorktreeHandlers:
    def __init__(
        self, agents: AgentSupervisor, confirm: Callable[[str, str, str], Awaitable[bool]]
    ) -> None:
        self.agents = agents
        self.worktrees = agents.worktrees
        self.confirm = confirm

    def register(self, server: LanguageServer) -> None:
        register_requests(
            server,
            {
                proto.ACP_BRING_BACK: self.bring_back_request,
                proto.ACP_DISCARD_WORKTREE: self.discard_request,
            },
        )
        register_commands(
            server,
            {
                proto.CMD_BRING_BACK: self.bring_back_command,
                proto.CMD_DISCARD_WORKTREE: self.discard_command,
            },
        )

    async def bring_back_request(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.BRING_BACK, params)
        return await self._bring_back(proto.named(p["sessionId"], "sessionId"))

    async def discard_request(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.DISCARD_WORKTREE, params)
        sid = proto.named(p["sessionId"], "sessionId")
        root = self.agents.workspace_root()
        if p.get("dryRun", False):
            return {
                "sessionId": sid,
                "discarded": False,
                "lost": await self.worktrees.changed(sid, root),
            }
        return {
            "sessionId": sid,
            "discarded": True,
            "lost": await self.worktrees.discard(sid, root),
        }

    async def bring_back_command(self, *args: Any) -> dict[str, Any]:
        """``[]`` (the current session) or ``[sessionId]``."""
        a = proto.arguments(proto.BRING_BACK_COMMAND, args, ("sessionId",))
        return await self._bring_back(self._session(proto.CMD_BRING_BACK, a.get("sessionId")))

    async def discard_command(self, *args: Any) -> dict[str, Any]:
        """``[]``, ``[sessionId]``, or ``[sessionId, true]`` when the editor asked its user."""
        a = proto.arguments(proto.DISCARD_WORKTREE_COMMAND, args, ("sessionId",))
        sid = self._session(proto.CMD_DISCARD_WORKTREE, a.get("sessionId"))
        confirmed = a.get("confirmed", False)
        root = self.agents.workspace_root()
        if not confirmed:
            lost = await self.worktrees.changed(sid, root)
            question = (
                f"Discard the worktree of session {sid}? {len(lost)} changed file(s) not brought "
                "back would be lost. Your own files and repository are not touched."
            )
            if not await self.confirm(question, KEEP, DISCARD):
                return {"sessionId": sid, "discarded": False, "lost": []}
        return {
            "sessionId": sid,
            "discarded": True,
            "lost": await self.worktrees.discard(sid, root),
        }

    async def _bring_back(self, session_id: str) -> dict[str, Any]:
        return await self.worktrees.bring_back(session_id, self.agents.workspace_root())

    def _session(self, command: str, named: str | None) -> str:
        """The session named, else the current one: there may be none yet."""
        sid = named or self.agents.current_session
        if not sid:
            raise InvalidParams(f"{command}: no current session: name one (argument 1, sessionId)")
        return sid
