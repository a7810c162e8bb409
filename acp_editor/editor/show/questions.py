"""Questions for the user: a permission or a sign-in method, as the rich ``acp/...`` request
when the editor declared it, else as ``window/showMessageRequest``.

The answer goes back as the editor gave it (an option id or None); ``agent.serving.asking``
checks it against the options, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.editor.lsp.channel import EditorChannel, new_request_id
from acp_editor.editor.show.lineage import Lineage
from acp_editor.editor.show.structured_diffs import structured_previews
from acp_editor.editor.show.wording import (
    auth_request,
    choice_from_answer,
    diff_previews,
    permission_request,
)
from acp_editor.protocol import editor as proto
from acp_editor.protocol.tool_call import shell_command, structured_diffs

if TYPE_CHECKING:
    from acp_editor.agent.auth_methods import TerminalSignIn
    from acp_editor.editor.show.naming import SessionNames
    from acp_editor.editor.show.structured_diffs import ReadText
    from acp_editor.review.owner import Restore

CONFIRM_S = 600.0
"""How long a confirmation waits for its answer before things stay as they are."""
SIGN_IN_S = 1800.0
"""How long a sign-in may take (a browser, a code to paste) before it counts as given up."""
NOT_NOW, SIGNED_IN = "Not now", "I have signed in"


class Questions:
    def __init__(
        self,
        channel: EditorChannel,
        read_text: ReadText,
        lineage: Lineage | None = None,
        names: SessionNames | None = None,
    ) -> None:
        self.channel = channel
        self.lineage = lineage or Lineage()
        """Whose question it is, when a subagent asks: named in every editor."""
        self.names = names
        """Which session and agent asks, named to a plain editor while several are live."""
        self.read_text = read_text
        """The editor's text of a file: to preview a v2 diff, which carries a patch, not texts."""

    async def permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        """Ask about ``tool_call``; a v2 request's own ``words`` go first in every editor."""
        features = self.channel.features
        if features.has(proto.FEATURE_PERMISSIONS):
            request_id = new_request_id()
            params: dict[str, Any] = {
                "requestId": request_id,
                "sessionId": session_id,
                **(words or {}),
                "toolCall": tool_call,
                "options": options,
                "diffs": diff_previews(tool_call) + await self._structured(tool_call),
            }
            subagent = self.lineage.subagent(session_id)
            if subagent is not None:
                params["subagent"] = subagent
            command = shell_command(tool_call)
            if command:
                params["command"] = command
            answer = await self.channel.request(
                proto.ACP_REQUEST_PERMISSION, params, msg_id=request_id
            )
            option_id = answer.get("optionId") if isinstance(answer, dict) else None
            return option_id if isinstance(option_id, str) else None
        request = permission_request(
            tool_call, options, features.message_actions_with_properties, words
        )
        who = self.lineage.label(session_id)
        if who is not None:
            request["message"] = f"{who} asks: {request['message']}"
        where = self.names.label(session_id) if self.names is not None else None
        if where is not None:
            request["message"] = f"{where[:1].upper()}{where[1:]}: {request['message']}"
        answer = await self.channel.request(lsp.WINDOW_SHOW_MESSAGE_REQUEST, request)
        return choice_from_answer(answer, options, "optionId")

    async def _structured(self, tool_call: dict[str, Any]) -> list[dict[str, Any]]:
        previews = []
        for item in structured_diffs(tool_call):
            previews += await structured_previews(item, self.read_text)
        return previews

    async def auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        features = self.channel.features
        if features.has(proto.FEATURE_AUTH):
            params = {"agent": agent, "methods": methods}
            answer = await self.channel.request(
                proto.ACP_CHOOSE_AUTH_METHOD, params, timeout=SIGN_IN_S
            )
            method_id = answer.get("methodId") if isinstance(answer, dict) else None
            return method_id if isinstance(method_id, str) else None
        request = auth_request(methods, features.message_actions_with_properties)
        answer = await self.channel.request(
            lsp.WINDOW_SHOW_MESSAGE_REQUEST, request, timeout=SIGN_IN_S
        )
        named = [{"optionId": m.get("id"), "name": m.get("name", m.get("id"))} for m in methods]
        return choice_from_answer(answer, named, "methodId")

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        """A terminal sign-in: run in the editor's terminal (``signIn``), else the command to
        run told in a question whose answer says it is done (see "Signing in")."""
        line = request.command_line()
        self.channel.log_message(f"acp-editor: to sign in to {request.agent_name}, run: {line}")
        try:
            if self.channel.features.has(proto.FEATURE_SIGN_IN):
                answer = await self.channel.request(
                    proto.ACP_SIGN_IN_TERMINAL, request.to_json(), timeout=SIGN_IN_S
                )
                code = answer.get("exitCode") if isinstance(answer, dict) else None
                return code if isinstance(code, int) and not isinstance(code, bool) else None
            where = f" in {request.cwd}" if request.cwd else ""
            message = (
                f"Sign in to {request.agent_name} ({request.name}): run this in a terminal"
                f"{where}, then choose “{SIGNED_IN}”:\n\n{line}"
            )
            done = await self.confirm(message, NOT_NOW, SIGNED_IN, timeout=SIGN_IN_S)
        except TimeoutError:
            return None
        return 0 if done else None

    async def confirm_restore(
        self, number: int, plan: list[Restore], elsewhere: bool = False
    ) -> bool:
        """Ask before undoing a turn (``elsewhere``: of a session not open now, such as the one
        before a restart). The first (pre-selected) action keeps the files."""
        lines = [f"  {step.path} ({_undo_word(step)})" for step in plan[:12]]
        more = f"\n  ... and {len(plan) - 12} more" if len(plan) > 12 else ""
        which = " of an earlier session (not open now)" if elsewhere else ""
        message = (
            f"Undo turn {number}{which}? These files go back to how they were before it:\n"
            + "\n".join(lines)
            + more
            + "\nUnsaved edits in open buffers are kept."
        )
        return await self.confirm(message, "Keep the files as they are", f"Undo turn {number}")

    async def confirm(
        self, message: str, keep: str, act: str, *, timeout: float | None = None
    ) -> bool:
        """Ask before acting, keeping things as they are first (what editors pre-select): only
        choosing ``act`` says yes. A question nobody answers (eglot's C-g leaves it open) keeps
        things as they are after ``CONFIRM_S``, and the command that asked gets its answer."""
        try:
            answer = await self.channel.request(
                lsp.WINDOW_SHOW_MESSAGE_REQUEST,
                {
                    "type": lsp.MessageType.Warning.value,
                    "message": message,
                    "actions": [{"title": keep}, {"title": act}],
                },
                timeout=CONFIRM_S if timeout is None else timeout,  # read now: tests shorten it
            )
        except TimeoutError:
            return False
        return isinstance(answer, dict) and answer.get("title") == act


def _undo_word(step: Restore) -> str:
    also = "; another session changed it too" if step.shared else ""
    if step.before is None:
        return f"removed: the turn created it{also}"
    if step.now is None:
        return f"restored: the turn deleted it{also}"
    return f"changed back{also}"
