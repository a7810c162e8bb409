"""Each call an agent makes to the editor-context MCP server, shown in its session like a tool
call, so the user sees what the agent looked at.

Some agents report MCP calls as tool calls of their own (Claude Code names them
``mcp__editor__read_buffer`` in its title or ``_meta``; others say ``editor/read_buffer`` or
``read_buffer (editor)``). When an unfinished tool call of the agent names this server and the
tool, that one is the call: it gets the locations it lacks and nothing else is added. Otherwise
acp-editor adds a tool call of its own (id ``editor-context-N``), completed or failed, once the
editor answered: the agent's own notification of the call can reach us after its MCP request
(they come by different ways), so the agent's report is looked for again at the end; and when it
comes later still (a loaded machine), the agent's call still gets the file as its location.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.protocol import tool_call
from acp_editor.protocol.editor_context import SERVER_NAME

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

AddUpdate = Callable[[str, dict[str, Any]], None]
StateOf = Callable[[str], "SessionView | None"]

ID_PREFIX = "editor-context-"
LATE = 30.0
"""Seconds an agent's own report of a call may trail our answer and still get its location."""
_WORD = r"(?<![A-Za-z0-9]){}(?![A-Za-z0-9])"
_SERVER = re.compile(_WORD.format(SERVER_NAME))


class Shown:
    """One call as the session shows it; ``end`` finishes it (once)."""

    def __init__(self, calls: ContextCalls, session_id: str, update: dict[str, Any] | None) -> None:
        self._calls, self._session_id, self._update = calls, session_id, update

    def end(self, error: str | None = None) -> None:
        """Ours is added now, finished, unless the agent reported the call meanwhile: its
        notification and its MCP request reach us by different ways, in either order."""
        update, self._update = self._update, None
        if update is None or self._calls.attach(self._session_id, update):
            return  # the agent's own tool call (the agent finishes it), or ended already
        update["status"] = "failed" if error else "completed"
        if error:
            update["content"] = [{"type": "content", "content": {"type": "text", "text": error}}]
        self._calls.add(self._session_id, update)
        self._calls.unclaimed(self._session_id, update)


class ContextCalls:
    def __init__(self, state_of: StateOf, add: AddUpdate) -> None:
        self._state_of, self.add = state_of, add
        self._ids = itertools.count(1)
        self._unclaimed: dict[str, list[tuple[float, str, list[dict[str, Any]]]]] = {}
        """Session -> calls shown as ours, with a location, that the agent may report late:
        (when, tool, locations)."""

    def unclaimed(self, session_id: str, update: Mapping[str, Any]) -> None:
        if update.get("locations"):
            tool = update["_meta"]["acpEditor"]["editorContext"]
            entry = (time.monotonic(), tool, list(update["locations"]))
            self._unclaimed.setdefault(session_id, []).append(entry)

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """A tool call of the agent's that reports a call we showed as ours (it came late)
        gets the call's location."""
        waiting = self._unclaimed.get(state.session_id)
        if not waiting:
            return
        now = time.monotonic()
        waiting[:] = [w for w in waiting if now - w[0] < LATE]
        for change in changes:
            fields = change.get("set") if change.get("type") == "tool_call" else None
            if not fields or not ("title" in fields or "_meta" in fields):
                continue
            call_id = str(change["toolCallId"])
            call = state.peek_tool_call(call_id)
            if call_id.startswith(ID_PREFIX) or call is None or call.get("locations"):
                continue
            for entry in waiting:
                if _reports(call, entry[1]):
                    waiting.remove(entry)
                    self.add(state.session_id, _located(call_id, entry[2]))
                    break

    def begin(
        self, session_id: str, roots: Sequence[Path], tool: str, arguments: Mapping[str, Any]
    ) -> Shown:
        update: dict[str, Any] = {
            "sessionUpdate": "tool_call",
            "toolCallId": f"{ID_PREFIX}{next(self._ids)}",
            "title": title(tool, arguments, roots),
            "kind": "read",
            "rawInput": dict(arguments),
            "_meta": {"acpEditor": {"editorContext": tool}},
        }
        if locations := _locations(tool, arguments):
            update["locations"] = locations
        if self.attach(session_id, update):
            return Shown(self, session_id, None)
        return Shown(self, session_id, update)

    def attach(self, session_id: str, update: dict[str, Any]) -> bool:
        """Whether the agent reported this call itself; if so, its tool call gets the file as
        its location (when it has none)."""
        state = self._state_of(session_id)
        tool = update["_meta"]["acpEditor"]["editorContext"]
        own = _agent_reported(state, tool) if state is not None else None
        if own is None:
            return False
        if update.get("locations") and not own.get("locations"):
            self.add(session_id, _located(str(own["toolCallId"]), update["locations"]))
        return True


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
    for tool_call_id in reversed(state.tool_call_order()):
        if tool_call_id.startswith(ID_PREFIX):
            continue
        call = state.peek_tool_call(tool_call_id)
        if call is None or call.get("status") in tool_call.FINISHED_STATUSES:
            continue
        if _reports(call, tool):
            return call
    return None


def _reports(call: Mapping[str, Any], tool: str) -> bool:
    """Whether an agent's tool call names this server and ``tool``."""
    named = re.compile(_WORD.format(re.escape(tool)))
    return any(_SERVER.search(n) and named.search(n) for n in _names(call))


def _names(call: Mapping[str, Any]) -> list[str]:
    """The title, and any ``toolName`` an agent put in its ``_meta`` (Claude Code does)."""
    names = [call["title"]] if isinstance(call.get("title"), str) else []
    meta = call.get("_meta")
    for value in meta.values() if isinstance(meta, dict) else ():
        if isinstance(value, dict) and isinstance(value.get("toolName"), str):
            names.append(value["toolName"])
    return names
