"""The zero-plugin surface's commands (``workspace/executeCommand``): any LSP editor can drive
the agent with these, no plugin needed."""

from __future__ import annotations

from typing import Any

from pygls.lsp.server import LanguageServer

from acp_editor.editor.follow import Follower
from acp_editor.editor.handling import prompt_blocks, register_commands
from acp_editor.editor.link import EditorLink
from acp_editor.editor.questions import Questions
from acp_editor.editor.status import AgentStatus
from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto


class Commands:
    def __init__(
        self, link: EditorLink, follow: Follower, status: AgentStatus, questions: Questions
    ) -> None:
        self.link = link
        self.follow = follow
        self.status = status
        self.questions = questions

    def register(self, server: LanguageServer) -> None:
        register_commands(
            server,
            {
                proto.CMD_PROMPT: self.prompt,
                proto.CMD_CANCEL: self.cancel,
                proto.CMD_NEW_SESSION: self.new_session,
                proto.CMD_SET_MODE: self.set_mode,
                proto.CMD_FOLLOW: self.set_follow,
                proto.CMD_STATUS: self.agent_status,
                proto.CMD_RESTORE_CHECKPOINT: self.restore_checkpoint,
            },
        )

    async def prompt(self, *args: Any) -> dict[str, Any]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams("acp.prompt takes one argument: the prompt text")
        return await self.link.prompt(prompt_blocks(args[0]))

    async def cancel(self, *args: Any) -> dict[str, Any] | None:
        sid = await self.link.cancel()
        return {"sessionId": sid} if sid else None

    async def new_session(self, *args: Any) -> dict[str, Any]:
        return {"sessionId": await self.link.new_session()}

    async def set_mode(self, *args: Any) -> dict[str, Any]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams("acp.setMode takes one argument: the mode id")
        sid = await self.link.set_mode(args[0])
        return {"sessionId": sid, "modeId": args[0]}

    async def set_follow(self, *args: Any) -> dict[str, Any]:
        if len(args) == 1 and isinstance(args[0], bool):
            self.follow.set_enabled(args[0])
        elif not args:
            self.follow.set_enabled(not self.follow.enabled)
        else:
            raise InvalidParams("acp.follow takes no argument (toggle) or true/false")
        return {"follow": self.follow.enabled}

    async def agent_status(self, *args: Any) -> dict[str, Any]:
        return {
            **self.status.current,
            "sessions": self.link.session_ids(),
            "currentSessionId": self.link.current_session,
            "mode": self.link.current_mode(),
            "follow": self.follow.enabled,
        }

    async def restore_checkpoint(self, *args: Any) -> dict[str, Any]:
        turn = args[0] if args else None
        confirmed = args[1] if len(args) > 1 else False
        if (
            len(args) > 2
            or not (turn is None or (isinstance(turn, int) and not isinstance(turn, bool)))
            or not isinstance(confirmed, bool)
        ):
            raise InvalidParams(
                "acp.restoreCheckpoint takes no argument (the last turn), a turn, "
                "or a turn and true when the editor already asked the user"
            )
        return await self.link.restore_checkpoint(
            turn, None if confirmed else self.questions.confirm_restore
        )
