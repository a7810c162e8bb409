"""What the editor is shown: each event through the rich ``acp/...`` message when the editor
declared that feature, else through the standard LSP fallback when its capabilities allow.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.agent.frontend import Frontend
from acp_editor.editor.coalesce import Coalescer
from acp_editor.editor.follow import FollowPolicy, Jump
from acp_editor.editor.progress import ToolProgress
from acp_editor.editor.prompts import (
    auth_request,
    choice_from_answer,
    diff_previews,
    permission_request,
    shell_command,
)
from acp_editor.editor.server_ids import new_request_id
from acp_editor.log import get_logger
from acp_editor.positions import location_to_lsp
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.link import EditorLink
    from acp_editor.editor.server import AcpLanguageServer

log = get_logger("editor.frontend")
TERMINAL_TAIL = 64 * 1024


class EditorFrontend(Frontend):
    def __init__(self, server: AcpLanguageServer, link: EditorLink) -> None:
        self.server = server
        self.link = link
        self.coalescer = Coalescer(self._send_changes)
        self.follow = FollowPolicy(self._show_jump)
        self.progress = ToolProgress(server)
        self._calls: dict[tuple[str, str], dict[str, Any]] = {}  # editor-side mirror of tool calls
        self._diffs_sent: dict[tuple[str, str, str], str] = {}
        self._terminals: dict[tuple[str, str], dict[str, Any]] = {}

    @property
    def features(self) -> Any:
        return self.server.features

    def close(self) -> None:
        self.coalescer.flush_all()
        self.follow.close()
        self.progress.close()

    # -- state ----------------------------------------------------------------------------------

    def session_changed(self, session_id: str, changes: list[dict[str, Any]]) -> None:
        if self.features.has(proto.FEATURE_STREAM):
            self.coalescer.add(session_id, changes)
        for change in changes:
            if change.get("type") == "tool_call":
                self._tool_call_changed(session_id, change)
            elif change.get("type") == "tool_call_content":
                call = self._calls.setdefault((session_id, change["toolCallId"]), {})
                content = call.setdefault("content", [])
                if isinstance(content, list):
                    content.append(change["content"])
                self._maybe_send_diffs(session_id, change["toolCallId"], call)

    def _tool_call_changed(self, session_id: str, change: dict[str, Any]) -> None:
        call_id = change["toolCallId"]
        call = self._calls.setdefault((session_id, call_id), {"toolCallId": call_id})
        call.update(change.get("set", {}))
        for name in change.get("unset", []):
            call.pop(name, None)
        fields = change.get("set", {})
        if "locations" in fields and isinstance(fields["locations"], list):
            for loc in fields["locations"][:1]:  # the first location is where the work is
                if isinstance(loc, dict) and isinstance(loc.get("path"), str):
                    line = loc.get("line")
                    self._offer(
                        Jump(
                            session_id,
                            loc["path"],
                            line if isinstance(line, int) else None,
                            "location",
                            call_id,
                        )
                    )
        if "content" in fields:
            self._maybe_send_diffs(session_id, call_id, call)
        if (
            not self.features.has(proto.FEATURE_STREAM)
            and self.features.work_done_progress
            and ({"status", "title"} & set(fields) or change.get("unset"))
        ):
            self.progress.update(session_id, change, call)

    def tool_call_title(self, session_id: str, tool_call_id: str | None) -> str | None:
        if tool_call_id is None:
            return None
        title = self._calls.get((session_id, tool_call_id), {}).get("title")
        return title if isinstance(title, str) else None

    # -- follow-along ---------------------------------------------------------------------------

    def _offer(self, jump: Jump) -> None:
        if os.path.isdir(jump.path):
            return
        self.follow.offer(jump)

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        self._offer(Jump(session_id, path, None, kind))

    def _show_jump(self, jump: Jump) -> None:
        self.server.background(self._deliver_jump(jump))

    async def _deliver_jump(self, jump: Jump) -> None:
        line = jump.line
        if line is not None:
            # A location may name a line the file does not have (yet): an edit's location
            # counts lines after the edit, and it can arrive before the write. Editors differ
            # on out-of-range selections (Neovim reports an error), so clamp to the text now.
            count = await self._line_count(Path(jump.path))
            line = None if count == 0 else min(line, count) if count is not None else line
        target = location_to_lsp(
            {"path": jump.path, "line": line} if line is not None else {"path": jump.path}
        )
        if target is None:
            return
        uri, selection = target
        if self.features.has(proto.FEATURE_FOLLOW):
            self.coalescer.flush(jump.session_id)
            params: dict[str, Any] = {
                "sessionId": jump.session_id,
                "uri": uri,
                "reason": jump.reason,
            }
            if jump.tool_call_id is not None:
                params["toolCallId"] = jump.tool_call_id
            if selection is not None:
                params["range"] = selection
            self.server.notify(proto.ACP_FOLLOW, params)
        elif self.features.show_document:
            await self._show_document(uri, selection)

    async def _line_count(self, path: Path) -> int | None:
        """Lines of the file as an editor counts them (no extra line after a final newline)."""
        try:
            text = await self.link.documents.read_text(path)
        except Exception:  # a file that cannot be read is shown without a selection
            return None
        return text.count("\n") + (0 if text.endswith("\n") or not text else 1)

    async def _show_document(self, uri: str, selection: Mapping[str, Any] | None) -> None:
        params: dict[str, Any] = {"uri": uri, "takeFocus": False}
        if selection is not None:
            params["selection"] = selection
        try:
            result = await self.server.request(lsp.WINDOW_SHOW_DOCUMENT, params, timeout=10)
        except Exception as exc:  # an editor that fails to show a file must not stop the agent
            log.info("the editor could not show %s: %s", uri, exc)
            return
        if isinstance(result, dict) and result.get("success") is False:
            log.info("the editor did not show %s", uri)

    # -- diffs ----------------------------------------------------------------------------------

    def _maybe_send_diffs(self, session_id: str, call_id: str, call: dict[str, Any]) -> None:
        if not self.features.has(proto.FEATURE_DIFFS):
            return
        for preview in diff_previews(call):
            key = (session_id, call_id, preview["path"])
            fingerprint = f"{preview['oldText']!r}\0{preview['newText']}"
            if self._diffs_sent.get(key) == fingerprint:
                continue
            self._diffs_sent[key] = fingerprint
            self.coalescer.flush(session_id)
            self.server.notify(
                proto.ACP_DIFF, {"sessionId": session_id, "toolCallId": call_id, **preview}
            )

    # -- permissions and auth -------------------------------------------------------------------

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        self.coalescer.flush(session_id)
        if self.features.has(proto.FEATURE_PERMISSIONS):
            request_id = new_request_id()
            params: dict[str, Any] = {
                "requestId": request_id,
                "sessionId": session_id,
                "toolCall": tool_call,
                "options": options,
                "diffs": diff_previews(tool_call),
            }
            command = shell_command(tool_call)
            if command:
                params["command"] = command
            answer = await self.server.request(
                proto.ACP_REQUEST_PERMISSION, params, msg_id=request_id
            )
            option_id = answer.get("optionId") if isinstance(answer, dict) else None
            return option_id if isinstance(option_id, str) else None
        request = permission_request(
            tool_call, options, self.features.message_actions_with_properties
        )
        answer = await self.server.request(lsp.WINDOW_SHOW_MESSAGE_REQUEST, request)
        return choice_from_answer(answer, options, "optionId")

    async def choose_auth_method(self, methods: list[dict[str, Any]]) -> str | None:
        if self.features.has(proto.FEATURE_AUTH):
            answer = await self.server.request(proto.ACP_CHOOSE_AUTH_METHOD, {"methods": methods})
            method_id = answer.get("methodId") if isinstance(answer, dict) else None
            return method_id if isinstance(method_id, str) else None
        request = auth_request(methods, self.features.message_actions_with_properties)
        answer = await self.server.request(lsp.WINDOW_SHOW_MESSAGE_REQUEST, request)
        named = [{"optionId": m.get("id"), "name": m.get("name", m.get("id"))} for m in methods]
        return choice_from_answer(answer, named, "methodId")

    # -- terminals and the agent ----------------------------------------------------------------

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        term = self._terminals.setdefault(
            (session_id, terminal_id),
            {"sessionId": session_id, "terminalId": terminal_id, "output": "", "exitStatus": None},
        )
        term["output"] = (term["output"] + text)[-TERMINAL_TAIL:]
        if self.features.has(proto.FEATURE_TERMINALS):
            self.server.notify(
                proto.ACP_TERMINAL_OUTPUT,
                {"sessionId": session_id, "terminalId": terminal_id, "data": text},
            )

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        term = self._terminals.setdefault(
            (session_id, terminal_id),
            {"sessionId": session_id, "terminalId": terminal_id, "output": "", "exitStatus": None},
        )
        term["exitStatus"] = status
        if self.features.has(proto.FEATURE_TERMINALS):
            self.server.notify(
                proto.ACP_TERMINAL_EXIT,
                {"sessionId": session_id, "terminalId": terminal_id, "exitStatus": status},
            )

    def terminal_snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        return [dict(t) for (sid, _), t in self._terminals.items() if session_id in (None, sid)]

    def agent_status(self, status: dict[str, Any]) -> None:
        if self.features.has(proto.FEATURE_STREAM) and self.server.initialized:
            self.server.notify(proto.ACP_AGENT_STATUS, status)

    def agent_exited(self, returncode: int | None, stderr_tail: str, expected: bool) -> None:
        self.coalescer.flush_all()
        self.link.agent_exited(returncode, stderr_tail, expected)
        if not expected and not self.features.has(proto.FEATURE_STREAM):
            tail = "\n".join(stderr_tail.splitlines()[-8:])
            self.server.show_message(
                f"The agent exited unexpectedly (exit status {returncode})."
                + (f"\n{tail}" if tail else "")
                + "\nThe next prompt starts it again.",
                lsp.MessageType.Error,
            )

    def review_changed(self, hunks: list[Any]) -> None:
        self.coalescer.flush_all()
        self.link.review.changed(hunks)

    def _send_changes(self, session_id: str, changes: list[dict[str, Any]]) -> None:
        self.server.notify(proto.ACP_SESSION_CHANGED, {"sessionId": session_id, "changes": changes})
