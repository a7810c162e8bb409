"""The zero-plugin surface's commands (``workspace/executeCommand``): any LSP editor can drive
the agent with these, no plugin needed."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import one_string, prompt_blocks, register_commands
from acp_editor.editor.show.replies import TurnSummary, announcement
from acp_editor.errors import InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.editor.show.follow import Follower
    from acp_editor.editor.show.naming import SessionNames
    from acp_editor.editor.show.questions import Questions
    from acp_editor.editor.show.transcript import Transcripts
    from acp_editor.editor.supervisor import AgentSupervisor

log = get_logger(__name__)


class Commands:
    def __init__(
        self,
        channel: EditorChannel,
        agents: AgentSupervisor,
        follow: Follower,
        questions: Questions,
        transcripts: Transcripts,
        names: SessionNames | None = None,
    ) -> None:
        self.channel = channel
        self.agents = agents
        self.follow = follow
        self.questions = questions
        self.transcripts = transcripts
        self.names = names
        """Which session's turn ended, named while several are live."""

    def register(self, server: LanguageServer) -> None:
        register_commands(
            server,
            {
                proto.CMD_PROMPT: self.prompt,
                proto.CMD_PROMPT_ASYNC: self.prompt_async,
                proto.CMD_TRANSCRIPT: self.transcript,
                proto.CMD_CANCEL: self.cancel,
                proto.CMD_CANCEL_TOOL_CALL: self.cancel_tool_call,
                proto.CMD_CANCEL_TERMINAL: self.cancel_terminal,
                proto.CMD_NEW_SESSION: self.new_session,
                proto.CMD_SELECT_SESSION: self.select_session,
                proto.CMD_SET_MODE: self.set_mode,
                proto.CMD_SET_CONFIG_OPTION: self.set_config_option,
                proto.CMD_FOLLOW: self.set_follow,
                proto.CMD_STATUS: self.agent_status,
                proto.CMD_RESTORE_CHECKPOINT: self.restore_checkpoint,
            },
        )

    async def prompt(self, *args: Any) -> dict[str, Any]:
        """The turn, answered when it ends; an editor with no stream is also shown the reply."""
        result = await self.agents.prompt(prompt_blocks(prompt_text(proto.CMD_PROMPT, args)))
        self._announce(result)
        return result

    async def prompt_async(self, *args: Any) -> dict[str, Any]:
        """The turn, answered at once: its end (or failure) is announced with a message."""
        blocks = prompt_blocks(prompt_text(proto.CMD_PROMPT_ASYNC, args))
        sid = await self.agents.session_id()
        self.channel.background(self._run_announced(blocks, sid))
        return {"sessionId": sid, "started": True}

    async def _run_announced(self, blocks: list[dict[str, Any]], session_id: str) -> None:
        try:
            result = await self.agents.prompt(blocks, session_id)
        except RpcError as exc:
            self.channel.show_message(f"acp-editor: the turn failed: {exc.message}", ERROR)
            return
        self._announce(result, always=True)

    def _announce(self, result: dict[str, Any], *, always: bool = False) -> None:
        """The end of a turn as a message, where nothing else showed the user the reply."""
        if not always and self.channel.features.has(proto.FEATURE_STREAM):
            return
        said = TurnSummary(
            str(result.get("reply") or ""),
            list(result.get("toolCalls") or []),
            list(result.get("background") or []),
        )
        stop = result.get("stopReason")
        kind = (
            lsp.MessageType.Info if stop in ("end_turn", "cancelled") else lsp.MessageType.Warning
        )
        sid, turn = result.get("sessionId"), result.get("turn")
        session = self.names.label(sid) if self.names is not None and sid else None
        undo = None
        if isinstance(turn, int):
            # The current session's turn needs only its number; while several sessions are
            # live, the session too (false: the server asks the user first).
            args = [turn] if session is None else [turn, False, sid]
            undo = f"{proto.CMD_RESTORE_CHECKPOINT} {json.dumps(args)}"
        self.channel.show_message(announcement(said, stop, session, undo), kind)

    async def transcript(self, *args: Any) -> dict[str, Any]:
        """A session's live transcript file (the current one's, else the one named), shown when
        the editor can show files and does not open it itself (a plugin does)."""
        if len(args) > 1 or (args and not isinstance(args[0], str)):
            raise InvalidParams(f"{proto.CMD_TRANSCRIPT} takes no argument, or a session id")
        sid = await self.agents.session_id(args[0] if args else None)
        path = self.transcripts.open(sid)
        uri = path_to_uri(str(path))
        features = self.channel.features
        if features.show_document and not features.rich:
            self.channel.background(self._show(uri))
        return {"sessionId": sid, "path": str(path), "uri": uri}

    async def _show(self, uri: str) -> None:
        try:
            await self.channel.request(
                lsp.WINDOW_SHOW_DOCUMENT, {"uri": uri, "takeFocus": True}, timeout=10
            )
        except Exception as exc:  # the path is in the answer: the user can open it by hand
            log.info("the editor could not show the transcript %s: %s", uri, exc)

    async def cancel(self, *args: Any) -> dict[str, Any] | None:
        sid = await self.agents.cancel()
        return {"sessionId": sid} if sid else None

    async def cancel_tool_call(self, *args: Any) -> dict[str, Any]:
        """``[toolCallId]`` or ``[toolCallId, sessionId]``: one tool call cancelled (v2)."""
        tool_call_id, session_id = _id_and_session(proto.CMD_CANCEL_TOOL_CALL, "tool call", args)
        sid = await self.agents.cancel_tool_call(tool_call_id, session_id)
        return {"sessionId": sid, "toolCallId": tool_call_id}

    async def cancel_terminal(self, *args: Any) -> dict[str, Any]:
        """``[terminalId]`` or ``[terminalId, sessionId]``: one of the agent's commands stopped."""
        terminal_id, session_id = _id_and_session(proto.CMD_CANCEL_TERMINAL, "terminal", args)
        sid = await self.agents.cancel_terminal(terminal_id, session_id)
        return {"sessionId": sid, "terminalId": terminal_id}

    async def select_session(self, *args: Any) -> dict[str, Any]:
        sid = one_string(args, "the id of an open session (acp.status lists them)")
        return {"sessionId": await self.agents.select_session(sid)}

    async def new_session(self, *args: Any) -> dict[str, Any]:
        agent = args[0] if args else None
        worktree = args[1] if len(args) > 1 else False
        if len(args) > 2 or not isinstance(agent, str | None) or not isinstance(worktree, bool):
            raise InvalidParams(
                f"{proto.CMD_NEW_SESSION} takes no argument, an agent id (acp.status lists them; "
                "null: the server's own), and then true for a worktree of its own"
            )
        sid = await self.agents.new_session(agent_id=agent, worktree=worktree)
        return {"sessionId": sid, "agent": self.agents.agent_of(sid)}

    async def set_mode(self, *args: Any) -> dict[str, Any]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams(f"{proto.CMD_SET_MODE} takes one argument: the mode id")
        sid = await self.agents.set_mode(args[0])
        return {"sessionId": sid, "modeId": args[0]}

    async def set_config_option(self, *args: Any) -> dict[str, Any]:
        """``[configId, value]``: a value id, or a boolean for a boolean option (schema 1.25)."""
        if len(args) != 2 or not isinstance(args[0], str) or not isinstance(args[1], str | bool):
            raise InvalidParams(
                f"{proto.CMD_SET_CONFIG_OPTION} takes two arguments: the option's id and its "
                "value (a value id, or true/false)"
            )
        sid = await self.agents.session_id()
        await self.agents.set_config_option(sid, args[0], args[1])
        return {"sessionId": sid, "configId": args[0], "value": args[1]}

    async def set_follow(self, *args: Any) -> dict[str, Any]:
        if len(args) == 1 and isinstance(args[0], bool):
            self.follow.set_enabled(args[0])
        elif not args:
            self.follow.set_enabled(not self.follow.enabled)
        else:
            raise InvalidParams(f"{proto.CMD_FOLLOW} takes no argument (toggle) or true/false")
        return {"follow": self.follow.enabled}

    async def agent_status(self, *args: Any) -> dict[str, Any]:
        return {
            **self.agents.status().current,
            "sessions": self.agents.session_ids(),
            "currentSessionId": self.agents.current_session,
            "mode": self.agents.current_mode(),
            "follow": self.follow.enabled,
            "agents": self.agents.agents_info(),
            "sessionAgents": self.agents.session_agents(),
            "sessionParents": self.agents.session_parents(),
            "configOptions": self.agents.current_config_options(),
        }

    async def restore_checkpoint(self, *args: Any) -> dict[str, Any]:
        turn = args[0] if args else None
        confirmed = args[1] if len(args) > 1 else False
        session_id = args[2] if len(args) > 2 else None
        if (
            len(args) > 3
            or not (turn is None or (isinstance(turn, int) and not isinstance(turn, bool)))
            or not isinstance(confirmed, bool)
            or not (session_id is None or isinstance(session_id, str))
        ):
            raise InvalidParams(
                f"{proto.CMD_RESTORE_CHECKPOINT} takes no argument (the last turn), a turn, a "
                "turn and true when the editor already asked the user, and then a session id"
            )
        confirm = None if confirmed else self.questions.confirm_restore
        return await self.agents.restore_checkpoint(turn, confirm, session_id=session_id)


ERROR = lsp.MessageType.Error


def _id_and_session(command: str, what: str, args: tuple[Any, ...]) -> tuple[str, str | None]:
    if 1 <= len(args) <= 2 and all(isinstance(a, str) and a for a in args):
        return args[0], args[1] if len(args) == 2 else None
    raise InvalidParams(f"{command} takes the {what}'s id, then maybe a session id")


def prompt_text(command: str, args: tuple[Any, ...]) -> str:
    if len(args) != 1 or not isinstance(args[0], str):
        raise InvalidParams(f"{command} takes one argument: the prompt text")
    return args[0]
