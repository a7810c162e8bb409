"""Transcript entries that are neither the user's, the agent's nor a tool call: notices and
compactions (schema 1.25, offered to clients that advertise ``session.notices`` and
``session.compaction``).

- A ``notice`` becomes ``{"kind": "notice", "severity", "title", "description"?}``: a live
  message for the user at its severity, kept in the transcript where it arrived.
- A compaction becomes a message entry of role ``compaction`` whose ``messageId`` is the
  ``compactionId``, ``content`` the summary, with ``status`` and ``error``: so the change
  vocabulary the editors' mirrors already apply (``entry``, ``message``, ``message_chunk``)
  carries it, and a summary streamed in chunks merges like any message's text.
"""

from __future__ import annotations

from typing import Any

from acp_editor.session.reducer import json_copy
from acp_editor.session.update_fields import InvalidUpdate, require_content

COMPACTION = "compaction"


def notice_entry(update: dict[str, Any]) -> dict[str, Any] | None:
    """The entry of a ``notice``, or None when it lacks its title (kept raw then)."""
    title = update.get("title")
    if not isinstance(title, str) or not title:
        return None
    severity = update.get("severity")
    entry: dict[str, Any] = {
        "kind": "notice",
        # An unknown or missing severity is shown as information (the schema's fallback).
        "severity": severity if isinstance(severity, str) else "info",
        "title": title,
    }
    for field in ("description", "_meta"):
        if update.get(field) is not None:
            entry[field] = json_copy(update[field])
    return entry


def compaction_id(update: dict[str, Any], kind: str) -> str:
    value = update.get("compactionId")
    if not isinstance(value, str):
        raise InvalidUpdate(f"{kind} needs a string compactionId, got {value!r}")
    return value


def new_compaction(compaction: str, first: dict[str, Any]) -> dict[str, Any]:
    """A compaction's entry as its first update or chunk makes it (a chunk first: in progress)."""
    entry: dict[str, Any] = {
        "kind": "message",
        "role": COMPACTION,
        "messageId": compaction,
        "status": "in_progress",
        "content": [],
    }
    entry.update((k, v) for k, v in first.items() if v is not None)
    return entry


def chunk_block(update: dict[str, Any]) -> Any:
    return require_content(update, "compaction_summary_chunk")


def compaction_patch(update: dict[str, Any]) -> dict[str, Any]:
    """The fields a ``compaction_update`` sets (``None``: clears): ``status`` always replaces;
    ``summary`` (the content), ``error`` and ``_meta`` are patched (omitted: unchanged)."""
    patch: dict[str, Any] = {}
    status = update.get("status")
    if isinstance(status, str):
        patch["status"] = status
    if "summary" in update:
        summary = update["summary"]
        patch["content"] = json_copy(summary) if isinstance(summary, list) else []
    for field in ("error", "_meta"):
        if field in update:
            patch[field] = json_copy(update[field])
    return patch
