"""Each call an agent makes to the editor-context MCP server, shown in its session like a tool
call, so the user sees what the agent looked at.

Some agents report MCP calls as tool calls of their own (Claude Code names them
``mcp__editor__read_buffer`` in its title or ``_meta``; others say ``editor/read_buffer`` or
``read_buffer (editor)``). When an unfinished tool call of the agent names this server and the
tool, that one is the call: it gets the locations it lacks and nothing else is added. Otherwise
acp-editor adds a tool call of its own (id ``editor-context-N``), in progress while the editor
answers and completed or failed after.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.protocol import acp
from acp_editor.protocol.editor_context import SERVER_NAME

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

AddUpdate = Callable[[str, dict[str, Any]], None]
StateOf = Callable[[str], "SessionView | None"]

ID_PREFIX = "editor-context-"
_WORD = r"(?<![A-Za-z0-9]){}(?![A-Za-z0-9])"
_SERVER = re.compile(_WORD.format(SERVER_NAME))


class Shown:
    """One call as the session shows it; ``end`` finishes it (once)."""

    def __init__(self, add: AddUpdate, session_id: str, tool_call_id: str | None) -> None:
        self._add, self._session_id, self._id = add, session_id, tool_call_id

    def end(self, error: str | None = None) -> None:
        if self._id is None:
            return  # the agent's own tool call: the agent finishes it
        update: dict[str, Any] = {
            "sessionUpdate": "tool_call_update",
            "toolCallId": self._id,
            "status": "failed" if error else "completed",
        }
        if error:
            update["content"] = [{"type": "content", "content": {"type": "text", "text": error}}]
        self._add(self._session_id, update)
        self._id = None


class ContextCalls:
    def __init__(self, state_of: StateOf, add: AddUpdate) -> None:
        self._state_of, self._add = state_of, add
        self._ids = itertools.count(1)

    def begin(
        self, session_id: str, roots: Sequence[Path], tool: str, arguments: Mapping[str, Any]
    ) -> Shown:
        locations = _locations(tool, arguments)
        state = self._state_of(session_id)
        own = _agent_reported(state, tool) if state is not None else None
        if own is not None:
            if locations and not own.get("locations"):
                self._add(session_id, _located(str(own["toolCallId"]), locations))
            return Shown(self._add, session_id, None)
        tool_call_id = f"{ID_PREFIX}{next(self._ids)}"
        update: dict[str, Any] = {
            "sessionUpdate": "tool_call",
            "toolCallId": tool_call_id,
            "title": title(tool, arguments, roots),
            "kind": "read",
            "status": "in_progress",
            "rawInput": dict(arguments),
            "_meta": {"acpEditor": {"editorContext": tool}},
        }
        if locations:
            update["locations"] = locations
        self._add(session_id, update)
        return Shown(self._add, session_id, tool_call_id)


def title(tool: str, arguments: Mapping[str, Any], roots: Sequence[Path]) -> str:
    path = arguments.get("path")
    where = _short(path, roots) if isinstance(path, str) else None
    if tool == "read_buffer":
        line, limit = arguments.get("line"), arguments.get("limit")
        span = f" from line {line}" if isinstance(line, int) else ""
        span += f" ({limit} lines)" if isinstance(limit, int) else ""
        return f"Editor: read {where}{span}"
    if tool == "diagnostics":
        return f"Editor: diagnostics of {where}" if where else "Editor: diagnostics of open files"
    return {
        "open_buffers": "Editor: open buffers",
        "selection": "Editor: selection",
        "review_state": "Editor: review state",
    }.get(tool, f"Editor: {tool}")


def _short(path: str, roots: Sequence[Path]) -> str:
    for root in roots:
        try:
            return str(Path(path).relative_to(root))
        except ValueError:
            continue
    return path


def _locations(tool: str, arguments: Mapping[str, Any]) -> list[dict[str, Any]]:
    path = arguments.get("path")
    if tool not in ("read_buffer", "diagnostics") or not isinstance(path, str):
        return []
    line = arguments.get("line")
    return [{"path": path, "line": line} if isinstance(line, int) else {"path": path}]


def _located(tool_call_id: str, locations: list[dict[str, Any]]) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id, "locations": locations}


def _agent_reported(state: SessionView, tool: str) -> Mapping[str, Any] | None:
    """The agent's own unfinished tool call for this call, newest first."""
    named = re.compile(_WORD.format(re.escape(tool)))
    for tool_call_id in reversed(state.tool_call_order()):
        if tool_call_id.startswith(ID_PREFIX):
            continue
        call = state.peek_tool_call(tool_call_id)
        if call is None or call.get("status") in acp.FINISHED_STATUSES:
            continue
        if any(_SERVER.search(n) and named.search(n) for n in _names(call)):
            return call
    return None


def _names(call: Mapping[str, Any]) -> list[str]:
    """The title, and any ``toolName`` an agent put in its ``_meta`` (Claude Code does)."""
    names = [call["title"]] if isinstance(call.get("title"), str) else []
    meta = call.get("_meta")
    for value in meta.values() if isinstance(meta, dict) else ():
        if isinstance(value, dict) and isinstance(value.get("toolName"), str):
            names.append(value["toolName"])
    return names
