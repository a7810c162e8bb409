"""The snapshot shape, the change vocabulary, and the one function that applies a change.

`SessionState` never mutates its snapshot directly: it works out the changes an event causes and
then applies them with `apply_change`, the same function an editor-side mirror uses. So a mirror
that starts from `empty_snapshot` and applies every change it is sent ends up equal to
`SessionState.snapshot()` by construction, and the text-merging rule for streamed chunks lives in
exactly one place.

Every change is a JSON object with a ``type``:

``{"type": "entry", "index": i, "entry": {...}}``
    A new transcript entry, complete, appended at ``index`` (always the current length; a mirror
    that sees another index has missed a change). Entries are ``message``, ``toolCall`` or
    ``update`` objects, as in the snapshot.
``{"type": "message_chunk", "index": i, "content": block}``
    One content block appended to the message entry at ``index``. A plain text block right after
    another plain text block is merged into it (see `append_block`), so a stream of text fragments
    stays one readable block instead of hundreds.
``{"type": "message", "index": i, "set": {field: value}, "unset": [field]}``
    The fields of the message entry at ``index`` that changed (a v2 upsert by ``messageId``):
    ``content`` in ``set`` replaces the whole content; the agent's ``messageId`` arriving for a
    prompt we recorded sets it and unsets ``queued``.
``{"type": "tool_call", "toolCallId": id, "set": {field: value}, "unset": [field]}``
    The fields of one tool call that actually changed. For an id not seen before this creates the
    record (``{"toolCallId": id}`` plus ``set``); it comes just before the ``toolCall`` entry.
``{"type": "tool_call_content", "toolCallId": id, "content": item}``
    One content item appended to a tool call's ``content`` (a streamed v2 content chunk).
``{"type": "plan", "plan": ...}``, ``{"type": "commands", "availableCommands": ...}``,
``{"type": "modes", "modes": ...}``, ``{"type": "config_options", "configOptions": ...}``,
``{"type": "usage", "usage": ...}``, ``{"type": "info", "info": ...}``,
``{"type": "plans", "plans": {planId: plan}}``, ``{"type": "run_state", "runState": ...}``,
``{"type": "subagents", "subagents": {childSessionId: record}}``
    The new value of that snapshot field, whole. These are small objects that agents themselves
    resend whole, so a patch format would add complexity without saving bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

#: Change types that replace one top-level snapshot field, carried under the field's own name.
_REPLACEMENTS: dict[str, str] = {
    "plan": "plan",
    "commands": "availableCommands",
    "modes": "modes",
    "config_options": "configOptions",
    "usage": "usage",
    "info": "info",
    "plans": "plans",
    "run_state": "runState",
    "subagents": "subagents",
}


def empty_snapshot(session_id: str, protocol_version: int) -> dict[str, Any]:
    """The snapshot of a session nothing has happened in yet: where every mirror starts."""
    return {
        "sessionId": session_id,
        "protocolVersion": protocol_version,
        "entries": [],
        "toolCalls": {},
        "plan": None,
        "availableCommands": None,
        "modes": None,
        "configOptions": None,
        "usage": None,
        "info": {},
        "plans": None,
        "runState": None,
        "subagents": None,
    }


def is_plain_text(block: Any) -> bool:
    """Whether a content block is bare text that can be merged without losing anything.

    Only ``{"type": "text", "text": str}`` with no other key qualifies: annotations or ``_meta``
    belong to one particular block, and merging would either drop them or smear them over text
    they were never attached to.
    """
    return (
        type(block) is dict
        and len(block) == 2
        and block.get("type") == "text"
        and type(block.get("text")) is str
    )


def append_block(content: list[Any], block: Any) -> None:
    """Append a streamed message block, merging consecutive plain text blocks."""
    if content and is_plain_text(block) and is_plain_text(content[-1]):
        # Pop the text first so this function holds the only reference: CPython then grows the
        # string in place, and a message streamed in n chunks costs O(n), not O(n^2) copying.
        text = content[-1].pop("text")
        text += block["text"]
        content[-1] = {"type": "text", "text": text}
    else:
        content.append(json_copy(block))


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists and immutable scalars), several times faster
    than ``copy.deepcopy``, which pays for memo tables and arbitrary objects on every call."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality that, unlike ``==``, tells ``true`` from ``1`` and ``1`` from ``1.0``.

    Used to decide whether a field "actually changed": Python's ``True == 1`` would otherwise
    make the state keep a stale value of the wrong JSON type.
    """
    if a is b:
        return True
    if type(a) is not type(b) or a != b:  # == in C first: most compared values differ
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is float and a == 0.0:  # 0.0 == -0.0, but JSON writes them differently
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def _tool_call_record(snapshot: dict[str, Any], tool_call_id: str) -> dict[str, Any]:
    records: dict[str, dict[str, Any]] = snapshot["toolCalls"]
    record = records.get(tool_call_id)
    if record is None:
        record = records[tool_call_id] = {"toolCallId": tool_call_id}
    return record


def _apply_entry(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    entries: list[Any] = snapshot["entries"]
    if change["index"] != len(entries):
        raise ValueError(
            f"entry change for index {change['index']} but the transcript has {len(entries)} "
            "entries: a change was missed or applied twice"
        )
    entries.append(json_copy(change["entry"]))


def _apply_message_chunk(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    append_block(snapshot["entries"][change["index"]]["content"], change["content"])


def _apply_message(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    entry = snapshot["entries"][change["index"]]
    if entry.get("kind") != "message":
        raise ValueError(f"message change for entry {change['index']}, which is not a message")
    for name, value in change["set"].items():
        entry[name] = json_copy(value)  # content is appended to in place by later chunks
    for name in change["unset"]:
        entry.pop(name, None)


def _apply_tool_call(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    record = _tool_call_record(snapshot, change["toolCallId"])
    fields = change["set"]
    record.update(fields)
    content = fields.get("content")
    if type(content) is list:  # streamed v2 chunks append to it in place: the record's own
        record["content"] = json_copy(content)
    for field in change["unset"]:
        record.pop(field, None)


def _apply_tool_call_content(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    record = _tool_call_record(snapshot, change["toolCallId"])
    item = json_copy(change["content"])
    content = record.get("content")
    if isinstance(content, list):
        content.append(item)
    else:
        # Absent, or a malformed non-array value an agent sent: there is no collection to append
        # to, so the chunk starts one (the same thing a v2 client does for a fresh tool call).
        record["content"] = [item]


_HANDLERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "entry": _apply_entry,
    "message_chunk": _apply_message_chunk,
    "message": _apply_message,
    "tool_call": _apply_tool_call,
    "tool_call_content": _apply_tool_call_content,
}


def apply_change(snapshot: dict[str, Any], change: dict[str, Any]) -> None:
    """Apply one change to a snapshot in place.

    What the snapshot later changes in place (transcript entries and their content, a tool
    call's ``content``) is copied in; other values (a tool call's ``rawInput``, ``rawOutput``,
    ``locations``...) are shared with the change, never copied: a change is a fact, sent,
    logged and mirrored as it is, and nobody may mutate it afterwards.
    """
    kind = change.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is not None:
        handler(snapshot, change)
        return
    field = _REPLACEMENTS.get(kind) if isinstance(kind, str) else None
    if field is None:
        raise ValueError(f"unknown session change type: {kind!r}")
    snapshot[field] = json_copy(change[field])
