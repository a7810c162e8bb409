"""What a tool call says, as the sidecar reads it: its name for people, whether it is over,
changes no file or can be cancelled, the paths it names or edits and the command it runs.

A tool call stays the agent's plain JSON; every module that asks "is this tool call finished?",
"which paths does it name?" or "which command does it run?" asks here, so the answers cannot
drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FINISHED_STATUSES = frozenset({"completed", "failed", "cancelled"})
"""Statuses after which a tool call no longer runs. Custom (``_``-prefixed) or missing statuses
count as unfinished: the client cannot know they are final."""
EDIT_KINDS = ("edit", "delete", "move")
"""Tool kinds whose locations are files the tool call changes."""
PATH_KEYS = ("path", "file_path", "abs_path")
"""Keys of ``rawInput`` that real agents use for the file a tool works on."""


def tool_call_title(call: Mapping[str, Any], fallback: str = "Tool call") -> str:
    """What a tool call is called where it is shown: its title, else its programmatic
    ``name`` (schema 1.25: agents may send an empty title with a name), else its kind."""
    for field in ("title", "name", "kind"):
        value = call.get(field)
        if isinstance(value, str) and value.strip():
            return value
    return fallback


def can_cancel(item: Mapping[str, Any] | None) -> bool:
    """Whether a v2 tool call or terminal lets the client cancel it now: its ``capabilities``
    has a ``cancel`` object (``{}`` is enough); omitted, null or malformed means no."""
    capabilities = item.get("capabilities") if item is not None else None
    return isinstance(capabilities, dict) and isinstance(capabilities.get("cancel"), dict)


def is_finished(call: Mapping[str, Any]) -> bool:
    status = call.get("status")
    return isinstance(status, str) and status in FINISHED_STATUSES


READ_ONLY_KINDS = frozenset({"read", "search", "think", "switch_mode"})
"""Tool kinds that, as the schema describes them, change no file."""


def is_read_only(call: Mapping[str, Any]) -> bool:
    kind = call.get("kind")
    return isinstance(kind, str) and kind in READ_ONLY_KINDS


def _items(call: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    items = call.get(key)
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def location_paths(call: Mapping[str, Any]) -> list[str]:
    """The paths of a tool call's ``locations``, first (where the work is) first."""
    return [i["path"] for i in _items(call, "locations") if isinstance(i.get("path"), str)]


def structured_diffs(call: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The v2 draft's diff items of a tool call's content: ``changes`` naming the files (and
    maybe a ``patch``) instead of v1's ``path``, ``oldText`` and ``newText``."""
    return [
        i
        for i in _items(call, "content")
        if i.get("type") == "diff" and isinstance(i.get("changes"), list) and "newText" not in i
    ]


def changes_of(call: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The file changes of a tool call's v2 diffs, each with a string ``path``."""
    return [
        change
        for item in structured_diffs(call)
        for change in item["changes"]
        if isinstance(change, dict) and isinstance(change.get("path"), str)
    ]


def _changed_paths(call: Mapping[str, Any]) -> list[str]:
    """The paths of v2 diffs: where each change ends up, and where a move or copy came from."""
    found = []
    for change in changes_of(call):
        found.append(change["path"])
        if isinstance(change.get("oldPath"), str):
            found.append(change["oldPath"])
    return found


def diff_paths(call: Mapping[str, Any]) -> list[str]:
    found = [
        i["path"]
        for i in _items(call, "content")
        if i.get("type") == "diff" and isinstance(i.get("path"), str)
    ]
    return found + _changed_paths(call)


def paths_named(call: Mapping[str, Any]) -> list[str]:
    """Every path a tool call names: its content items (a v2 diff's changes too), its
    locations, then its raw input's path fields; each once, in that order."""
    found = [i["path"] for i in _items(call, "content") if isinstance(i.get("path"), str)]
    found += _changed_paths(call)
    found += location_paths(call)
    raw = call.get("rawInput")
    if isinstance(raw, dict):
        found += [raw[k] for k in PATH_KEYS if isinstance(raw.get(k), str)]
    return list(dict.fromkeys(found))


def edited_paths(call: Mapping[str, Any]) -> list[str]:
    """The files a tool call changes: its diffs, and the locations of an edit-kind tool."""
    found = diff_paths(call)
    if call.get("kind") in EDIT_KINDS:
        found += location_paths(call)
    return list(dict.fromkeys(found))


def shell_command(call: Mapping[str, Any]) -> str | None:
    """The command line a tool call runs, from its raw input (``command`` or ``cmd``, a string or
    a list of words)."""
    raw = call.get("rawInput")
    if not isinstance(raw, dict):
        return None
    command = raw.get("command") or raw.get("cmd")
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        return " ".join(command)
    if isinstance(command, str) and command.strip():
        return command.strip()
    return None
