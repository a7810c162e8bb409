"""The zero-plugin surface's commands (``workspace/executeCommand``): any LSP editor can drive
the agent with these, no plugin needed. Their arguments are checked against the types
docs/protocol.md gives them (``proto.arguments``); ``acp.cancel`` and ``acp.status`` take none
and ignore any given, as they always did."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import prompt_blocks, register_commands
from acp_editor.editor.show.replies import TurnSummary, announcement
from acp_editor.errors import RpcError
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
        text = proto.arguments(proto.PROMPT_COMMAND, args)["text"]
        result = await self.agents.prompt(prompt_blocks(text))
        self._announce(result)
        return result

    async def prompt_async(self, *args: Any) -> dict[str, Any]:
        """The turn, answered at once: its end (or failure) is announced with a message."""
        blocks = prompt_blocks(proto.arguments(proto.PROMPT_ASYNC_COMMAND, args)["text"])
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
        a = proto.arguments(proto.TRANSCRIPT_COMMAND, args)
        sid = await self.agents.session_id(a.get("sessionId"))
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
        a = proto.arguments(proto.CANCEL_TOOL_CALL_COMMAND, args, IDS)
        tool_call_id = a["toolCallId"]
        sid = await self.agents.cancel_tool_call(tool_call_id, a.get("sessionId"))
        return {"sessionId": sid, "toolCallId": tool_call_id}

    async def cancel_terminal(self, *args: Any) -> dict[str, Any]:
        """``[terminalId]`` or ``[terminalId, sessionId]``: one of the agent's commands stopped."""
        a = proto.arguments(proto.CANCEL_TERMINAL_COMMAND, args, IDS)
        terminal_id = a["terminalId"]
        sid = await self.agents.cancel_terminal(terminal_id, a.get("sessionId"))
        return {"sessionId": sid, "terminalId": terminal_id}

    async def select_session(self, *args: Any) -> dict[str, Any]:
        sid = proto.arguments(proto.SELECT_SESSION_COMMAND, args)["sessionId"]
        return {"sessionId": await self.agents.select_session(sid)}

    async def new_session(self, *args: Any) -> dict[str, Any]:
        a = proto.arguments(proto.NEW_SESSION_COMMAND, args)
        sid = await self.agents.new_session(
            agent_id=a.get("agentId"), worktree=a.get("worktree", False)
        )
        return {"sessionId": sid, "agent": self.agents.agent_of(sid)}

    async def set_mode(self, *args: Any) -> dict[str, Any]:
        mode = proto.arguments(proto.SET_MODE_COMMAND, args)["modeId"]
        sid = await self.agents.set_mode(mode)
        return {"sessionId": sid, "modeId": mode}

    async def set_config_option(self, *args: Any) -> dict[str, Any]:
        """``[configId, value]``: a value id, or a boolean for a boolean option (schema 1.25)."""
        a = proto.arguments(proto.SET_CONFIG_OPTION_COMMAND, args)
        sid = await self.agents.session_id()
        await self.agents.set_config_option(sid, a["configId"], a["value"])
        return {"sessionId": sid, "configId": a["configId"], "value": a["value"]}

    async def set_follow(self, *args: Any) -> dict[str, Any]:
        a = proto.arguments(proto.FOLLOW_COMMAND, args)
        self.follow.set_enabled(a.get("enabled", not self.follow.enabled))  # none: toggle
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
        a = proto.arguments(proto.RESTORE_CHECKPOINT_COMMAND, args)
        turn = a.get("turn")
        number = None
        if turn is not None:  # a count, which its type (a number) does not say: as acp/...'s
            number = proto.whole(turn, proto.position(proto.RESTORE_CHECKPOINT_COMMAND, "turn"), 1)
        confirm = None if a.get("confirmed", False) else self.questions.confirm_restore
        return await self.agents.restore_checkpoint(number, confirm, session_id=a.get("sessionId"))


ERROR = lsp.MessageType.Error
IDS = ("toolCallId", "terminalId", "sessionId")
"""The cancel commands' ids: a blank one names nothing."""
