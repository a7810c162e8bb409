"""The rich surface's requests (``acp/...``, see docs/protocol.md): what the VS Code extension
and the Neovim plugin call to drive sessions and to get the whole picture at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import prompt_blocks, register_requests
from acp_editor.protocol import editor as proto
from acp_editor.services.prompt_history import KEPT

if TYPE_CHECKING:
    from acp_editor.editor.buffers.review import EditorReview
    from acp_editor.editor.show.editor_frontend import EditorFrontend
    from acp_editor.editor.supervisor import AgentSupervisor
    from acp_editor.protocol.editor_types import (
        CancelResult,
        CancelTerminalResult,
        CancelToolCallResult,
        EditPromptResult,
        PromptHistoryResult,
        SelectSessionResult,
        SetConfigOptionResult,
        SetFollowResult,
        SetModeResult,
        WithdrawPromptResult,
    )


class RichRequests:
    def __init__(
        self, agents: AgentSupervisor, frontend: EditorFrontend, review: EditorReview
    ) -> None:
        self.agents = agents
        self.frontend = frontend
        self.review = review

    def register(self, server: LanguageServer) -> None:
        register_requests(
            server,
            {
                proto.ACP_NEW_SESSION: self.new_session,
                proto.ACP_AGENTS: self.agents_request,
                proto.ACP_PROMPT: self.prompt,
                proto.ACP_CANCEL: self.cancel,
                proto.ACP_CANCEL_TOOL_CALL: self.cancel_tool_call,
                proto.ACP_CANCEL_TERMINAL: self.cancel_terminal,
                proto.ACP_SNAPSHOT: self.snapshot,
                proto.ACP_SET_MODE: self.set_mode,
                proto.ACP_SET_CONFIG_OPTION: self.set_config_option,
                proto.ACP_LIST_SESSIONS: self.list_sessions,
                proto.ACP_LOAD_SESSION: self.load_session,
                proto.ACP_SET_FOLLOW: self.set_follow,
                proto.ACP_RESTORE_CHECKPOINT: self.restore_checkpoint,
                proto.ACP_PROMPT_HISTORY: self.prompt_history,
                proto.ACP_EDIT_PROMPT: self.edit_prompt,
                proto.ACP_WITHDRAW_PROMPT: self.withdraw_prompt,
                proto.ACP_SELECT_SESSION: self.select_session,
            },
        )

    def snapshot_of(self, session_id: str | None = None) -> dict[str, Any]:
        """Everything an editor shows, at once: for one session or all of them."""
        return {
            "agent": self.agents.status().current,
            "agents": self.agents.agents_info(),
            "sessions": self.agents.snapshots(session_id),
            "currentSessionId": self.agents.current_session,
            "follow": self.frontend.follow.enabled,
            "terminals": self.frontend.terminals.snapshots(session_id),
            "review": [v for v in self.review.views() if session_id in (None, v["sessionId"])],
            "reviewGroups": [
                v for v in self.review.groups.views() if session_id in (None, v["sessionId"])
            ],
        }

    def _opened(self, session_id: str) -> dict[str, Any]:
        # Changes still buffered are part of the snapshot: send them first, or an editor that
        # applies them on top of the snapshot would apply them twice.
        self.frontend.flush(session_id)
        return {"sessionId": session_id, "snapshot": self.agents.snapshots(session_id)[0]}

    async def new_session(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.NEW_SESSION, params)
        cwd, agent = p.get("cwd"), p.get("agent")
        return self._opened(await self.agents.new_session(cwd, agent, p.get("worktree", False)))

    async def agents_request(self, params: object) -> dict[str, Any]:
        proto.parse(proto.AGENTS, params)  # refuses what is not an object
        return {"agents": self.agents.agents_info()}

    async def load_session(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.LOAD_SESSION, params)
        sid = proto.named(p["sessionId"], "sessionId")
        return self._opened(await self.agents.load_session(sid, p.get("cwd")))

    async def prompt(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.PROMPT, params)
        return await self.agents.prompt(prompt_blocks(p["prompt"]), p.get("sessionId"))

    async def cancel(self, params: object) -> CancelResult:
        p = proto.parse(proto.CANCEL, params)
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.session_id(sid)
        await self.agents.cancel(sid, p.get("dropQueued", False))
        return {}

    async def cancel_tool_call(self, params: object) -> CancelToolCallResult:
        p = proto.parse(proto.CANCEL_TOOL_CALL, params)
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.cancel_tool_call(proto.named(p["toolCallId"], "toolCallId"), sid)
        return {}

    async def cancel_terminal(self, params: object) -> CancelTerminalResult:
        p = proto.parse(proto.CANCEL_TERMINAL, params)
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.cancel_terminal(proto.named(p["terminalId"], "terminalId"), sid)
        return {}

    async def edit_prompt(self, params: object) -> EditPromptResult:
        p = proto.parse(proto.EDIT_PROMPT, params)
        blocks = prompt_blocks(p["prompt"])
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.edit_prompt(sid, proto.whole(p["index"], "index", 0), blocks)
        return {}

    async def withdraw_prompt(self, params: object) -> WithdrawPromptResult:
        p = proto.parse(proto.WITHDRAW_PROMPT, params)
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.withdraw_prompt(sid, proto.whole(p["index"], "index", 0))
        return {}

    async def snapshot(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.SNAPSHOT, params)
        self.frontend.flush()  # nothing in flight is left out of the picture
        return self.snapshot_of(p.get("sessionId"))

    async def set_mode(self, params: object) -> SetModeResult:
        p = proto.parse(proto.SET_MODE, params)
        sid = proto.named(p["sessionId"], "sessionId")
        await self.agents.set_mode(proto.named(p["modeId"], "modeId"), sid)
        return {}

    async def set_config_option(self, params: object) -> SetConfigOptionResult:
        p = proto.parse(proto.SET_CONFIG_OPTION, params)
        sid = proto.named(p["sessionId"], "sessionId")
        config_id = proto.named(p["configId"], "configId")
        await self.agents.set_config_option(sid, config_id, p["value"])
        return {}

    async def list_sessions(self, params: object) -> dict[str, Any]:
        return await self.agents.list_sessions(proto.parse(proto.LIST_SESSIONS, params).get("cwd"))

    async def restore_checkpoint(self, params: object) -> dict[str, Any]:
        """Undo a turn; the editor asked the user before sending this."""
        p = proto.parse(proto.RESTORE_CHECKPOINT, params)
        turn = proto.whole(p["turn"], "turn", 1) if "turn" in p else None
        return await self.agents.restore_checkpoint(turn, None, session_id=p.get("sessionId"))

    async def prompt_history(self, params: object) -> PromptHistoryResult:
        limit = proto.parse(proto.PROMPT_HISTORY, params).get("limit", KEPT)
        return {"prompts": await self.agents.history().recent(proto.whole(limit, "limit", 1, KEPT))}

    async def set_follow(self, params: object) -> SetFollowResult:
        p = proto.parse(proto.SET_FOLLOW, params)
        policy = self.frontend.follow.policy
        every = p.get("allSessions", policy.all_sessions)
        self.frontend.follow.set_enabled(p["enabled"])
        policy.all_sessions = every
        return {"enabled": p["enabled"], "allSessions": every}

    async def select_session(self, params: object) -> SelectSessionResult:
        p = proto.parse(proto.SELECT_SESSION, params)
        return {
            "sessionId": await self.agents.select_session(proto.named(p["sessionId"], "sessionId"))
        }
