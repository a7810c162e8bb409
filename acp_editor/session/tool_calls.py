"""Working out the changes a tool-call event causes, against the current snapshot.

Both v1 notifications (``tool_call`` and ``tool_call_update``) and the v2 draft's single
``tool_call_update`` are treated as one upsert keyed by ``toolCallId``: real agents resend
``tool_call`` for an id they already announced, and send updates (or permission requests) for ids
they never announced, so "create" versus "patch" is decided by what the client has seen, not by
the notification's name. The only version-dependent rule is what ``null`` means.

These functions only read the snapshot; the caller applies the returned changes with
`acp_editor.session.reducer.apply_change`. Inputs are assumed already validated (a string id, a
dict patch) by `acp_editor.session.state`.
"""

from __future__ import annotations

from typing import Any

from acp_editor.protocol.tool_call import is_finished
from acp_editor.session.reducer import json_equal

#: Keys of an update that address the tool call rather than describe it.
_ADDRESS_KEYS = frozenset({"toolCallId", "sessionUpdate"})


_MISSING = object()


def _creation(tool_call_id: str, entry_index: int, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The two changes that make a tool call exist: its record, then its transcript position.

    The record comes first so a renderer that draws the entry can always look the record up.
    """
    return [
        {"type": "tool_call", "toolCallId": tool_call_id, "set": fields, "unset": []},
        {
            "type": "entry",
            "index": entry_index,
            "entry": {"kind": "toolCall", "toolCallId": tool_call_id},
        },
    ]


def upsert_changes(
    snapshot: dict[str, Any],
    tool_call_id: str,
    patch: dict[str, Any],
    *,
    null_clears: bool,
) -> list[dict[str, Any]]:
    """Changes for a ``tool_call``/``tool_call_update``-shaped patch.

    An omitted field stays; a value replaces (``content`` and ``locations`` included: they are
    whole arrays, never merged); ``null`` removes the field when ``null_clears`` (protocol 2) and
    is ignored otherwise (protocol 1, where some agents serialise every unset field as ``null``).
    Nothing is validated or defaulted: unknown fields, kinds and statuses are stored as sent.
    """
    record: dict[str, Any] | None = snapshot["toolCalls"].get(tool_call_id)
    current: dict[str, Any] = record if record is not None else {}
    to_set: dict[str, Any] = {}
    to_unset: list[str] = []
    for field, value in patch.items():
        if field in _ADDRESS_KEYS:
            continue
        if value is None:
            if null_clears and field in current:
                to_unset.append(field)
        elif not json_equal(current.get(field, _MISSING), value):
            to_set[field] = value  # apply_change copies what the snapshot mutates
    if record is None:
        return _creation(tool_call_id, len(snapshot["entries"]), to_set)
    if not to_set and not to_unset:
        return []
    return [{"type": "tool_call", "toolCallId": tool_call_id, "set": to_set, "unset": to_unset}]


def content_chunk_changes(
    snapshot: dict[str, Any], tool_call_id: str, item: Any
) -> list[dict[str, Any]]:
    """Changes for a v2 ``tool_call_content_chunk``: append one item, creating the call if new."""
    changes: list[dict[str, Any]] = []
    if tool_call_id not in snapshot["toolCalls"]:
        changes.extend(_creation(tool_call_id, len(snapshot["entries"]), {}))
    changes.append({"type": "tool_call_content", "toolCallId": tool_call_id, "content": item})
    return changes


def cancel_changes(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    """Changes marking every tool call that may still be running as locally ``cancelled``.

    After ``session/cancel`` the agent is allowed to stop without reporting a final status, so
    without this an editor would show spinners forever.
    """
    changes: list[dict[str, Any]] = []
    for tool_call_id, record in snapshot["toolCalls"].items():
        if is_finished(record):
            continue
        changes.append(
            {
                "type": "tool_call",
                "toolCallId": tool_call_id,
                "set": {"status": "cancelled"},
                "unset": [],
            }
        )
    return changes
