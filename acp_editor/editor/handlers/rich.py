"""The rich surface's requests (``acp/...``, see docs/protocol.md): what the VS Code extension
and the Neovim plugin call to drive sessions and to get the whole picture at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import prompt_blocks, register_requests
from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from acp_editor.protocol.acp import nonempty_str, obj, obj_or_empty, optional_str
from acp_editor.services.prompt_history import KEPT

if TYPE_CHECKING:
    from acp_editor.editor.buffers.review import EditorReview
    from acp_editor.editor.show.frontend import EditorFrontend
    from acp_editor.editor.supervisor import AgentSupervisor


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

    async def new_session(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        worktree = p.get("worktree", False)
        if not isinstance(worktree, bool):
            raise InvalidParams("params.worktree must be a boolean")
        cwd, agent = optional_str(p, "cwd"), optional_str(p, "agent")
        return self._opened(await self.agents.new_session(cwd, agent, worktree))

    async def agents_request(self, params: Any) -> dict[str, Any]:
        obj_or_empty(params)  # refuses what is not an object
        return {"agents": self.agents.agents_info()}

    async def load_session(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        sid = await self.agents.load_session(nonempty_str(p, "sessionId"), optional_str(p, "cwd"))
        return self._opened(sid)

    async def prompt(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        blocks = prompt_blocks(p.get("prompt"))
        return await self.agents.prompt(blocks, optional_str(p, "sessionId"))

    async def cancel(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        sid = nonempty_str(p, "sessionId")
        drop = p.get("dropQueued", False)
        if not isinstance(drop, bool):
            raise InvalidParams("params.dropQueued must be a boolean")
        await self.agents.session_id(sid)
        await self.agents.cancel(sid, drop)
        return {}

    async def cancel_tool_call(self, params: Any) -> dict[str, Any]:
        p = obj(params)
        sid = nonempty_str(p, "sessionId")
        await self.agents.cancel_tool_call(nonempty_str(p, "toolCallId"), sid)
        return {}

    async def cancel_terminal(self, params: Any) -> dict[str, Any]:
        p = obj(params)
        sid = nonempty_str(p, "sessionId")
        await self.agents.cancel_terminal(nonempty_str(p, "terminalId"), sid)
        return {}

    async def edit_prompt(self, params: Any) -> dict[str, Any]:
        p = obj(params)
        blocks = prompt_blocks(p.get("prompt"))
        await self.agents.edit_prompt(nonempty_str(p, "sessionId"), _index(p), blocks)
        return {}

    async def withdraw_prompt(self, params: Any) -> dict[str, Any]:
        p = obj(params)
        await self.agents.withdraw_prompt(nonempty_str(p, "sessionId"), _index(p))
        return {}

    async def snapshot(self, params: Any) -> dict[str, Any]:
        self.frontend.flush()  # nothing in flight is left out of the picture
        return self.snapshot_of(optional_str(obj_or_empty(params), "sessionId"))

    async def set_mode(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        await self.agents.set_mode(nonempty_str(p, "modeId"), nonempty_str(p, "sessionId"))
        return {}

    async def set_config_option(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        value = p.get("value")
        if not isinstance(value, str | bool):
            raise InvalidParams("params.value must be a string or a boolean")
        sid = nonempty_str(p, "sessionId")
        await self.agents.set_config_option(sid, nonempty_str(p, "configId"), value)
        return {}

    async def list_sessions(self, params: Any) -> dict[str, Any]:
        return await self.agents.list_sessions(optional_str(obj_or_empty(params), "cwd"))

    async def restore_checkpoint(self, params: Any) -> dict[str, Any]:
        """Undo a turn; the editor asked the user before sending this."""
        p = obj_or_empty(params)
        turn = p.get("turn")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 1):
            raise InvalidParams("params.turn must be a turn number (1 or more)")
        return await self.agents.restore_checkpoint(
            turn, None, session_id=optional_str(p, "sessionId")
        )

    async def prompt_history(self, params: Any) -> dict[str, Any]:
        limit = obj_or_empty(params).get("limit", KEPT)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 < limit <= KEPT:
            raise InvalidParams(f"params.limit must be a whole number from 1 to {KEPT}")
        return {"prompts": await self.agents.history().recent(limit)}

    async def set_follow(self, params: Any) -> dict[str, Any]:
        p = obj_or_empty(params)
        enabled = p.get("enabled")
        if not isinstance(enabled, bool):
            raise InvalidParams("params.enabled must be a boolean")
        policy = self.frontend.follow.policy
        every = p.get("allSessions", policy.all_sessions)
        if not isinstance(every, bool):
            raise InvalidParams("params.allSessions must be a boolean")
        self.frontend.follow.set_enabled(enabled)
        policy.all_sessions = every
        return {"enabled": enabled, "allSessions": every}

    async def select_session(self, params: Any) -> dict[str, Any]:
        sid = nonempty_str(obj(params), "sessionId")
        return {"sessionId": await self.agents.select_session(sid)}


def _index(params: dict[str, Any]) -> int:
    index = params.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidParams("params.index must be the entry index of a queued prompt")
    return index
