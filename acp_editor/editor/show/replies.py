"""What a turn said, in words, for editors that show no stream.

A plugin-less editor sees no ``acp/sessionChanged``: the agent's reply, which tool calls the
turn ran and what a v2 agent still runs in the background after it reach its user through the
``acp.prompt`` result, a ``window/showMessage`` at the end of the turn and the transcript file
(``editor.show.transcript``). All of them are read from the one
session state, never collected on the side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.protocol import tool_call

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

MESSAGE_LIMIT = 4000
"""Characters of the reply a message shows; the transcript has the whole of it."""


@dataclass
class TurnSummary:
    reply: str = ""
    tool_calls: list[dict[str, str]] = field(default_factory=list)
    """``{"title", "status"}`` of each tool call the turn reported, in order."""
    background: list[str] = field(default_factory=list)
    """What still runs after the turn (v2's ``background`` of the idle state), by name."""
    turn: int | None = None
    """The checkpointed turn's number (``acp.restoreCheckpoint`` undoes it); None: not
    checkpointed (a v2 prompt that joined the turn running)."""

    def to_json(self) -> dict[str, Any]:
        said: dict[str, Any] = {"reply": self.reply, "toolCalls": self.tool_calls}
        if self.background:
            said["background"] = self.background
        if self.turn is not None:
            said["turn"] = self.turn
        return said


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
    """The agent's words and tool calls in the entries from ``start`` (where the turn began),
    and what still runs now that it ended."""
    summary = summarize_entries(state, state.peek_entries(start))
    summary.turn = turn_number(state.peek_entries(start))
    run_state = state.run_state() or {}
    work = run_state.get("background")
    summary.background = [background_name(state, w) for w in work or [] if isinstance(w, dict)]
    return summary


def turn_number(entries: Sequence[Mapping[str, Any]]) -> int | None:
    """The number of the turn the prompt's user message (the first of ``entries``) started."""
    for entry in entries:
        if entry.get("kind") == "message" and entry.get("role") == "user":
            turn = entry.get("turn")
            return turn if isinstance(turn, int) and not isinstance(turn, bool) else None
    return None


def background_name(state: SessionView, work: Mapping[str, Any]) -> str:
    """A piece of v2 background work as the user knows it: a terminal by the tool call that
    shows it, a tool call by its title, other work by its type."""
    kind = work.get("type")
    if kind == "terminal":
        terminal_id = work.get("terminalId")
        for call_id in state.tool_call_order():
            call = state.peek_tool_call(call_id) or {}
            content = call.get("content")
            shown = content if isinstance(content, list) else []
            if any(isinstance(i, dict) and i.get("terminalId") == terminal_id for i in shown):
                return tool_call.tool_call_title(call)
        return f"terminal {terminal_id}"
    if kind == "tool_call":
        named = work.get("toolCallId")
        found = state.peek_tool_call(named) if isinstance(named, str) else None
        return tool_call.tool_call_title(found) if found is not None else f"tool call {named}"
    return f"{kind} work"


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
                    "title": tool_call.tool_call_title(call),
                    "status": str(call.get("status") or "pending"),
                }
            )
    # Separate messages of one turn (text before and after a tool call) by a blank line.
    summary.reply = "\n\n".join(p.strip("\n") for p in parts if p.strip())
    return summary


def announcement(
    summary: TurnSummary, stop_reason: Any, session: str | None = None, undo: str | None = None
) -> str:
    """The end of a turn as one message: the reply, the tool calls briefly, the stop reason;
    ``session``: which session's turn it was (while several are live), ``undo``: the command
    that undoes it."""
    reply = summary.reply
    if len(reply) > MESSAGE_LIMIT:
        reply = reply[:MESSAGE_LIMIT] + " … (the whole reply: acp.transcript)"
    calls = summary.tool_calls
    whose = f"{session}: " if session else ""
    tail = f"[acp-editor: {whose}turn ended: {stop_reason}"
    if calls:
        shown = ", ".join(f"{c['title']} ({c['status']})" for c in calls[:5])
        more = f" and {len(calls) - 5} more" if len(calls) > 5 else ""
        tail += f"; {len(calls)} tool call{'s' if len(calls) != 1 else ''}: {shown}{more}"
    if summary.background:
        tail += f"; still running in the background: {', '.join(summary.background)}"
    if undo:
        tail += f"; undo this turn: {undo}"
    return f"{reply}\n{tail}]" if reply else f"{tail}]"
