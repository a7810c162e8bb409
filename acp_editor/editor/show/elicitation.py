"""The agent's questions for a form or a web page (ACP elicitation), in the editor: the rich
``acp/elicit`` request when the editor declared the ``elicit`` feature, else, for a web page,
``window/showMessageRequest`` and ``window/showDocument``.

The plain path is the consent the spec asks for: the message names the agent and shows the
whole URL with its host set apart (and a warning when the host can mislead); nothing is opened
before "Open". Forms have no plain path (a message request cannot show fields): they are not
advertised to the agent unless the editor renders ``acp/elicit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.editor.lsp.channel import new_request_id
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto
from acp_editor.protocol.elicitation import host_warning, url_host

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.editor.lsp.features import ClientFeatures

log = get_logger(__name__)

OPEN, DECLINE = "Open", "Decline"


def modes(features: ClientFeatures) -> list[str]:
    """What this editor can show: forms with the ``elicit`` feature; web pages when it can open
    one (``window.showDocument``), whether or not it renders ``acp/elicit``."""
    found = ["form"] if features.has(proto.FEATURE_ELICIT) else []
    if features.show_document:
        found.append("url")
    return found


class Elicitation:
    def __init__(self, channel: EditorChannel) -> None:
        self.channel = channel

    async def ask(self, question: dict[str, Any]) -> dict[str, Any] | None:
        if self.channel.features.has(proto.FEATURE_ELICIT):
            return await self._rich(question)
        if question.get("mode") == "url":
            return await self._open_page(question)
        return None  # never advertised: cancel

    async def _rich(self, question: dict[str, Any]) -> dict[str, Any] | None:
        request_id = new_request_id()
        params = {"requestId": request_id, **_forwarded(question)}
        if question.get("mode") == "url":
            url = str(question["url"])
            params["host"] = url_host(url)
            warning = host_warning(url)
            if warning is not None:
                params["warning"] = warning
        answer = await self.channel.request(proto.ACP_ELICIT, params, msg_id=request_id)
        return answer if isinstance(answer, dict) else None

    async def _open_page(self, question: dict[str, Any]) -> dict[str, Any]:
        url = str(question["url"])
        answer = await self.channel.request(
            lsp.WINDOW_SHOW_MESSAGE_REQUEST,
            {
                "type": lsp.MessageType.Warning.value,
                "message": page_message(question, url),
                "actions": [{"title": DECLINE}, {"title": OPEN}],
            },
        )
        title = answer.get("title") if isinstance(answer, dict) else None
        if title == DECLINE:
            return {"action": "decline"}
        if title != OPEN:
            return {"action": "cancel"}
        try:
            shown = await self.channel.request(
                lsp.WINDOW_SHOW_DOCUMENT, {"uri": url, "external": True}, timeout=30
            )
        except Exception as exc:
            log.warning("the editor could not open %s: %s", url, exc)
            shown = None
        if not (isinstance(shown, dict) and shown.get("success") is True):
            self.channel.show_message(
                f"acp-editor: the editor could not open {url}", lsp.MessageType.Error
            )
            return {"action": "cancel"}
        return {"action": "accept"}

    def completed(self, elicitation_id: str) -> None:
        self.channel.log_message(
            f"acp-editor: the agent says the web page is done ({elicitation_id})"
        )


def page_message(question: dict[str, Any], url: str) -> str:
    """The consent question: who asks, why, where exactly it leads."""
    lines = [
        f"{question.get('agent') or 'The agent'} asks you to open a web page in your browser.",
        str(question.get("message") or "").strip(),
        f"Site: {url_host(url)}",
        f"Address: {url}",
    ]
    warning = host_warning(url)
    if warning is not None:
        lines.append(f"Careful: {warning}.")
    return "\n\n".join(line for line in lines if line)


_FORWARDED: Sequence[str] = (
    "agent",
    "mode",
    "message",
    "sessionId",
    "toolCallId",
    "requestedSchema",
    "url",
)


def _forwarded(question: dict[str, Any]) -> dict[str, Any]:
    return {key: question[key] for key in _FORWARDED if question.get(key) is not None}
