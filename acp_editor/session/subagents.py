"""Child sessions a session's agent started (``subagent_update``, offered to clients that
advertise ``clientCapabilities.subagents``).

The parent's snapshot keeps one record per child under ``subagents``, keyed by the child's
session id: the agent's fields with their patch rule (omitted: unchanged, ``null``: cleared, a
value: replaced whole, ``state`` and ``capabilities`` included), plus ``toolCallId``, ours: the
parent's tool call that was running when the child was announced (the agent's Task tool, in
practice), so an editor can show the child under it. The child's own traffic arrives under its
own session id and is a session of its own (``agent.serving.requests`` opens it).
"""

from __future__ import annotations

from typing import Any

from acp_editor.protocol.tool_call import is_finished
from acp_editor.session.reducer import json_copy, json_equal
from acp_editor.session.update_fields import InvalidUpdate

_ADDRESS = frozenset({"sessionUpdate", "sessionId"})


def child_id(update: dict[str, Any]) -> str:
    session_id = update.get("sessionId")
    if not isinstance(session_id, str) or not session_id:
        raise InvalidUpdate(f"subagent_update needs a string sessionId, got {session_id!r}")
    return session_id


def subagent_changes(snapshot: dict[str, Any], update: dict[str, Any]) -> list[dict[str, Any]]:
    """The parent's ``subagents`` after one ``subagent_update``."""
    child = child_id(update)
    subagents: dict[str, Any] = json_copy(snapshot["subagents"]) or {}
    record = subagents.get(child)
    if record is None:
        record = {"sessionId": child}
        running = _running_tool_call(snapshot)
        if running is not None:
            record["toolCallId"] = running
    for field, value in update.items():
        if field in _ADDRESS:
            continue
        if value is None:
            record.pop(field, None)
        else:
            record[field] = json_copy(value)
    subagents[child] = record
    if json_equal(snapshot["subagents"], subagents):
        return []
    return [{"type": "subagents", "subagents": subagents}]


#: Tool kinds that never start a subagent: a call of these running beside the agent's Task (or
#: Agent) tool is not taken for it.
_NOT_A_TASK = frozenset({"read", "edit", "delete", "move", "search", "execute", "fetch"})


def _running_tool_call(snapshot: dict[str, Any]) -> str | None:
    """The newest tool call of the parent that has not finished and could have started a
    subagent (claude-agent-acp sends no Task tool call to a client that takes subagents: then
    none, unless another such call happens to run)."""
    calls: dict[str, dict[str, Any]] = snapshot["toolCalls"]
    for entry in reversed(snapshot["entries"]):
        if entry.get("kind") != "toolCall":
            continue
        call = calls.get(entry["toolCallId"])
        if call is None or is_finished(call):
            continue
        kind = call.get("kind")  # an agent's JSON: may be anything, a list too
        if not (isinstance(kind, str) and kind in _NOT_A_TASK):
            return str(entry["toolCallId"])
    return None
