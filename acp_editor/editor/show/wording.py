"""How a permission or auth question reads, and how an answer maps back to an option.

Pure functions over ACP payloads, shared by the rich and the zero-plugin surface: the summary a
person needs before saying yes (the command, the path, how many lines change) and the diff
previews with hunks an editor can draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lsprotocol import types as lsp

from acp_editor.protocol import acp, tool_call
from acp_editor.text.positions import path_to_uri

KIND_WORDS = {
    "allow_once": "Allow once",
    "allow_always": "Always allow",
    "reject_once": "Reject",
    "reject_always": "Always reject",
}


def diff_previews(call: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``DiffPreview`` objects for the diff items of a tool call's content."""
    previews = []
    content = call.get("content")
    for item in content if isinstance(content, list) else []:
        if not isinstance(item, dict) or item.get("type") != "diff":
            continue
        path, new = item.get("path"), item.get("newText")
        if not isinstance(path, str) or not isinstance(new, str):
            continue
        old = item.get("oldText") if isinstance(item.get("oldText"), str) else None
        previews.append(diff_preview(path, old, new))
    return previews


def diff_preview(path: str, old: str | None, new: str) -> dict[str, Any]:
    """A ``DiffPreview`` of ``path`` going from ``old`` (None: a new file) to ``new``."""
    from acp_editor.text.hunks import compute_hunks, unified_line_counts  # not at the start

    added, removed = unified_line_counts(old or "", new)
    return {
        "uri": path_to_uri(path),
        "path": path,
        "oldText": old,
        "newText": new,
        "hunks": [h.to_json() for h in compute_hunks(old or "", new)],
        "added": added,
        "removed": removed,
    }


def change_words(call: Mapping[str, Any]) -> list[str]:
    """``modify /p``, ``move /a -> /b``: what a v2 diff does, for a question's one line."""
    words = []
    for change in tool_call.changes_of(call):
        source = change.get("oldPath")
        moved = f"{source} -> " if isinstance(source, str) else ""
        words.append(f"{change.get('operation')} {moved}{change['path']}")
    return words


def summary(call: Mapping[str, Any]) -> str:
    """One line: what exactly the agent wants to do."""
    parts = []
    command = tool_call.shell_command(call)
    if command:
        parts.append(f"$ {command}")
    for preview in diff_previews(call):
        parts.append(f"{preview['path']} (+{preview['added']} -{preview['removed']})")
    parts += change_words(call)
    return "; ".join(parts or tool_call.location_paths(call))


def permission_request(
    call: dict[str, Any],
    options: list[dict[str, Any]],
    with_properties: bool,
    words: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``window/showMessageRequest`` params asking about a tool call; a v2 request's own
    ``words`` (``acp.permission_words``) come first, the tool call's after."""
    message = "The agent asks permission: " + "\n".join(question_lines(call, words))
    ordered = safe_first(options)
    actions = []
    for option in ordered:
        action: dict[str, Any] = {
            "title": str(
                option.get("name") or KIND_WORDS.get(str(option.get("kind")), option["optionId"])
            )
        }
        if with_properties:
            action["optionId"] = option["optionId"]
            action["kind"] = option.get("kind")
        actions.append(action)
    if not ordered or str(ordered[0].get("kind", "")).startswith("allow"):
        # Only allows offered: a choice that means "no" goes first (it maps to no option, and a
        # question answered with no option is rejected by agent.serving.asking).
        actions.insert(0, {"title": DECLINE})
    return {"type": lsp.MessageType.Warning.value, "message": message, "actions": actions}


def question_lines(call: Mapping[str, Any], words: Mapping[str, str] | None) -> list[str]:
    """What the agent asks, line by line: the request's title and description (v2), then the
    tool call's title and kind (left out when it is only the request's title again: the call
    made up for a v2 command), then what exactly will happen."""
    lines = []
    if words:
        lines.append(words["title"])
        if words.get("description"):
            lines.append(words["description"])
    title = tool_call.tool_call_title(call, str(call.get("toolCallId")))
    if not words or title != words["title"]:
        lines.append(f"{title} [{call.get('kind') or 'other'}]")
    detail = summary(call)
    return lines + ([detail] if detail else [])


DECLINE = "Decline"
"""The first action of a permission question whose options are all allows."""


def safe_first(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The options with a reject first, then the others in the agent's order.

    Editors pre-select or default to the first action (eglot pre-fills it, so RET takes it;
    a numbered list puts it under the finger): the first must never be an allow."""
    rejects = [o for o in options if str(o.get("kind", "")).startswith("reject")]
    rejects.sort(key=lambda o: o.get("kind") != acp.REJECT_KINDS[0])  # reject_once first
    return rejects + [o for o in options if o not in rejects]


def auth_request(methods: list[dict[str, Any]], with_properties: bool) -> dict[str, Any]:
    actions = []
    for method in methods:
        action: dict[str, Any] = {"title": str(method.get("name") or method.get("id"))}
        if with_properties:
            action["methodId"] = method.get("id")
        actions.append(action)
    lines = []
    for method in methods:
        how = " (a command in a terminal)" if method.get("type") == "terminal" else ""
        about = method.get("description")
        said = f": {about.strip()}" if isinstance(about, str) and about.strip() else ""
        lines.append(f"- {method.get('name') or method.get('id')}{how}{said}")
    return {
        "type": lsp.MessageType.Warning.value,
        "message": "The agent needs you to sign in. Choose how:\n" + "\n".join(lines),
        "actions": actions,
    }


def choice_from_answer(answer: Any, options: list[dict[str, Any]], id_key: str) -> str | None:
    """The chosen id from a showMessageRequest answer (None: dismissed or unknown).

    Clients with ``additionalPropertiesSupport`` echo the id back; others only the title, so the
    title is matched against the option names as a fallback (and an echoed id we did not offer
    falls back to the title too). This only maps the answer back; whether the agent offered the
    option is checked once, by ``agent.serving.asking``.
    """
    if not isinstance(answer, dict):
        return None
    chosen = answer.get(id_key)
    if isinstance(chosen, str) and any(o.get("optionId") == chosen for o in options):
        return chosen
    title = answer.get("title")
    for option in options:
        name = option.get("name") or KIND_WORDS.get(str(option.get("kind")), option.get("optionId"))
        if title == name and isinstance(option.get("optionId"), str):
            return str(option["optionId"])
    return None
