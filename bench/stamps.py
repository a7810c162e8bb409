"""The send stamp every benchmark update carries, and where each receiver finds it.

A stamp is the update's sequence number and the agent's ``time.monotonic_ns()`` just before it
wrote the line (CLOCK_MONOTONIC is one clock for every process on a Linux host, so agent and
receiver timestamps can be subtracted). Text travels as the first characters of a text block,
so it survives every layer unchanged: ``[[b:SEQ:NS]] ...``. Tool calls and tool-call updates carry
it in ``_meta`` (``{"bench": [SEQ, NS]}``), which ACP reserves for exactly this kind of extension
data and which the sidecar passes on verbatim.

The three receivers see the same stamp in three shapes: the raw ACP update (no sidecar), the SDK's
pydantic models, and the sidecar's ``acp/sessionChanged`` changes.
"""

from __future__ import annotations

from typing import Any

PREFIX = "[[b:"
META_KEY = "bench"

Stamp = tuple[int, int]
"""(sequence number, send time in monotonic nanoseconds)."""


def text_stamp(seq: int, sent_ns: int) -> str:
    return f"{PREFIX}{seq}:{sent_ns}]] "


def meta_stamp(seq: int, sent_ns: int) -> dict[str, Any]:
    return {META_KEY: [seq, sent_ns]}


def from_text(text: Any) -> Stamp | None:
    if not isinstance(text, str) or not text.startswith(PREFIX):
        return None
    end = text.find("]]", len(PREFIX))
    if end < 0:
        return None
    seq, _, sent = text[len(PREFIX) : end].partition(":")
    return int(seq), int(sent)


def from_meta(meta: Any) -> Stamp | None:
    if not isinstance(meta, dict):
        return None
    value = meta.get(META_KEY)
    if isinstance(value, list) and len(value) == 2:
        return int(value[0]), int(value[1])
    return None


def _block_text(block: Any) -> Any:
    return block.get("text") if isinstance(block, dict) else None


def from_acp_update(update: dict[str, Any]) -> Stamp | None:
    """The stamp of a raw ACP ``session/update`` ``update`` object."""
    kind = update.get("sessionUpdate")
    if kind in ("tool_call", "tool_call_update"):
        return from_meta(update.get("_meta"))
    if kind == "tool_call_content_chunk":
        item = update.get("content")
        return from_text(_block_text(item.get("content")) if isinstance(item, dict) else None)
    return from_text(_block_text(update.get("content")))


def from_change(change: dict[str, Any]) -> Stamp | None:
    """The stamp of one ``acp/sessionChanged`` change, or None for a change that carries none
    (the ``toolCall`` entry that follows a tool call's record, the user's own prompt)."""
    kind = change.get("type")
    if kind == "message_chunk":
        return from_text(_block_text(change.get("content")))
    if kind == "entry":
        entry = change.get("entry") or {}
        content = entry.get("content") if entry.get("kind") == "message" else None
        return from_text(_block_text(content[0])) if content else None
    if kind == "tool_call":
        return from_meta((change.get("set") or {}).get("_meta"))
    if kind == "tool_call_content":
        item = change.get("content")
        return from_text(_block_text(item.get("content")) if isinstance(item, dict) else None)
    return None


def from_sdk_update(update: Any) -> Stamp | None:
    """The stamp of an update as the ACP Python SDK hands it over (pydantic models)."""
    kind = getattr(update, "session_update", None)
    if kind in ("tool_call", "tool_call_update"):
        return from_meta(getattr(update, "field_meta", None))
    content = getattr(update, "content", None)
    return from_text(getattr(content, "text", None))
