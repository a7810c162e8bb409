"""What an editor without the chat stream is told of notices, compactions and subagents.

A rich editor draws them from the session state (``acp/sessionChanged``). A plain one gets a
notice as ``window/showMessage`` at its severity (a notice is meant for the user: the agent's
quota, a model switch, a retry), and a line in its log for each compaction and each subagent
starting or ending; a subagent that fails, or a compaction that fails, is shown as a warning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.editor.show.lineage import Lineage
    from acp_editor.session.state import SessionView

SEVERITIES = {"error": lsp.MessageType.Error, "warning": lsp.MessageType.Warning}
"""A notice's severity as an LSP message type; any other (``info``, a future one) is Info."""


def notice_text(entry: dict[str, Any]) -> str:
    description = entry.get("description")
    more = f": {description}" if isinstance(description, str) and description.strip() else ""
    return f"{entry.get('title')}{more}"


def summary_text(entry: dict[str, Any], limit: int = 300) -> str:
    """A compaction's summary as one line of plain text (its text blocks)."""
    content = entry.get("content")
    parts = [b.get("text", "") for b in content if isinstance(b, dict)] if content else []
    text = " ".join(" ".join(str(p) for p in parts).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PlainMarkers:
    def __init__(self, channel: EditorChannel, lineage: Lineage) -> None:
        self.channel = channel
        self.lineage = lineage
        self._states: dict[str, Any] = {}  # child id -> the last state announced

    def changed(self, state: SessionView, change: dict[str, Any]) -> None:
        """One change of ``state``'s session (only changes of these kinds are passed)."""
        kind = change["type"]
        who = self.lineage.label(state.session_id)
        prefix = f"acp-editor ({who})" if who else "acp-editor"
        if kind == "entry":
            entry = change["entry"]
            if entry.get("kind") == "notice":
                text = notice_text(entry)
                self.channel.show_message(
                    f"{prefix}: {text}", SEVERITIES.get(entry.get("severity"), lsp.MessageType.Info)
                )
                self.channel.log_message(f"{prefix}: notice ({entry.get('severity')}): {text}")
            elif entry.get("role") == "compaction":
                self._compaction(prefix, entry)
        elif kind == "message":
            entries = state.peek_entries(change["index"])
            entry = dict(entries[0]) if entries else {}
            if entry.get("role") == "compaction" and "status" in change["set"]:
                self._compaction(prefix, entry)
        elif kind == "subagents":
            for child_id, record in (change["subagents"] or {}).items():
                self._subagent(prefix, child_id, record)

    def _compaction(self, prefix: str, entry: dict[str, Any]) -> None:
        status = entry.get("status")
        if status == "in_progress":
            self.channel.log_message(f"{prefix}: the agent is compacting its context")
        elif status == "completed":
            summary = summary_text(entry)
            said = f": {summary}" if summary else ""
            self.channel.log_message(f"{prefix}: the agent compacted its context{said}")
        else:
            error = entry.get("error")
            why = f": {error}" if isinstance(error, str) and error else ""
            self.channel.show_message(
                f"{prefix}: the agent's context compaction ended {status}{why}",
                lsp.MessageType.Warning,
            )

    def _subagent(self, prefix: str, child_id: str, record: dict[str, Any]) -> None:
        state = record.get("state")
        if state == self._states.get(child_id) or not isinstance(state, dict):
            return
        self._states[child_id] = state
        title = record.get("title")
        name = f"subagent “{title}”" if isinstance(title, str) and title else f"subagent {child_id}"
        what = state.get("state")
        if what == "running":
            self.channel.log_message(f"{prefix}: {name} is running")
        elif what == "idle" and state.get("stopReason") == "error":
            error = state.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            why = f": {message}" if isinstance(message, str) and message else ""
            self.channel.show_message(f"{prefix}: {name} failed{why}", lsp.MessageType.Warning)
        elif what == "idle":
            self.channel.log_message(f"{prefix}: {name} finished ({state.get('stopReason')})")
        else:
            self.channel.log_message(f"{prefix}: {name} is {what}")
