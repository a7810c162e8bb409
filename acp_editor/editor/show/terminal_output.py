"""The agent's terminals as the editor sees them: live output for rich editors, and the last
64 KiB of each kept for snapshots (an editor that connects late still sees what ran)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel

TERMINAL_TAIL = 64 * 1024
LOG_LINES = 200
"""At most this many lines of one piece of output go to the log of an editor without a plugin."""

log = get_logger(__name__)


class TerminalStreams:
    def __init__(self, channel: EditorChannel) -> None:
        self.channel = channel
        self._terminals: dict[tuple[str, str], dict[str, Any]] = {}

    def _terminal(self, session_id: str, terminal_id: str) -> dict[str, Any]:
        return self._terminals.setdefault(
            (session_id, terminal_id),
            {"sessionId": session_id, "terminalId": terminal_id, "output": "", "exitStatus": None},
        )

    def output(self, session_id: str, terminal_id: str, text: str) -> None:
        term = self._terminal(session_id, terminal_id)
        term["output"] = (term["output"] + text)[-TERMINAL_TAIL:]
        if self.channel.features.has(proto.FEATURE_TERMINALS):
            self.channel.notify(
                proto.ACP_TERMINAL_OUTPUT,
                {"sessionId": session_id, "terminalId": terminal_id, "data": text},
            )
        else:  # plugin-less: the editor's log (window/logMessage through the log handler)
            lines = text.splitlines()
            for line in lines[-LOG_LINES:]:
                log.info("terminal %s: %s", terminal_id, line)

    def exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self._terminal(session_id, terminal_id)["exitStatus"] = status
        if self.channel.features.has(proto.FEATURE_TERMINALS):
            self.channel.notify(
                proto.ACP_TERMINAL_EXIT,
                {"sessionId": session_id, "terminalId": terminal_id, "exitStatus": status},
            )

    def snapshots(self, session_id: str | None = None) -> list[dict[str, Any]]:
        return [dict(t) for (sid, _), t in self._terminals.items() if session_id in (None, sid)]
