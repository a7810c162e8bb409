"""What a turn said, in words, for editors that show no stream.

A plugin-less editor sees no ``acp/sessionChanged``: the agent's reply, and which tool calls the
turn ran, reach its user through the ``acp.prompt`` result, a ``window/showMessage`` at the end
of the turn and the transcript file (``editor.show.transcript``). All of them are read from the one
session state, never collected on the side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

MESSAGE_LIMIT = 4000
"""Characters of the reply a message shows; the transcript has the whole of it."""


@dataclass
class TurnSummary:
    reply: str = ""
    tool_calls: list[dict[str, str]] = field(default_factory=list)
    """``{"title", "status"}`` of each tool call the turn reported, in order."""

    def to_json(self) -> dict[str, Any]:
        return {"reply": self.reply, "toolCalls": self.tool_calls}


def block_text(block: Any) -> str:
    """A content block as text: text as it is, anything else as a short mark."""
    if not isinstance(block, Mapping):
        return ""
    if block.get("type") == "text" and isinstance(block.get("text"), str):
        return str(block["text"])
    if block.get("type") == "resource_link":
        return f"[{block.get('name') or block.get('uri') or 'link'}]"
    return f"[{block.get('type') or 'content'}]"


def message_text(entry: Mapping[str, Any]) -> str:
    content = entry.get("content")
    return "".join(block_text(b) for b in content) if isinstance(content, list) else ""


def summarize(state: SessionView, start: int) -> TurnSummary:
    """The agent's words and tool calls in the entries from ``start`` (where the turn began)."""
    return summarize_entries(state, state.peek_entries(start))


def summarize_entries(state: SessionView, entries: Sequence[Mapping[str, Any]]) -> TurnSummary:
    summary = TurnSummary()
    parts: list[str] = []
    for entry in entries:
        if entry.get("kind") == "message" and entry.get("role") == "agent":
            parts.append(message_text(entry))
        elif entry.get("kind") == "toolCall":
            call = state.peek_tool_call(str(entry.get("toolCallId"))) or {}
            summary.tool_calls.append(
                {
                    "title": acp.tool_call_title(call),
                    "status": str(call.get("status") or "pending"),
                }
            )
    # Separate messages of one turn (text before and after a tool call) by a blank line.
    summary.reply = "\n\n".join(p.strip("\n") for p in parts if p.strip())
    return summary


def announcement(summary: TurnSummary, stop_reason: Any) -> str:
    """The end of a turn as one message: the reply, the tool calls briefly, the stop reason."""
    reply = summary.reply
    if len(reply) > MESSAGE_LIMIT:
        reply = reply[:MESSAGE_LIMIT] + " … (the whole reply: acp.transcript)"
    calls = summary.tool_calls
    tail = f"[acp-editor: turn ended: {stop_reason}"
    if calls:
        shown = ", ".join(f"{c['title']} ({c['status']})" for c in calls[:5])
        more = f" and {len(calls) - 5} more" if len(calls) > 5 else ""
        tail += f"; {len(calls)} tool call{'s' if len(calls) != 1 else ''}: {shown}{more}"
    return f"{reply}\n{tail}]" if reply else f"{tail}]"
