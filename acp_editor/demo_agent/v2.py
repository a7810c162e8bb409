"""The demo agent's ACP v2 draft: the same scenarios, said the v2 way.

Scenarios are written once, in v1's words; ``to_v2`` says each update in v2's shape (tool calls
are ``tool_call_update`` upserts, plans carry a ``planId``, a diff is structured ``changes`` plus
a ``git_patch``). A v2 agent has no client ``fs/*`` or ``terminal/*``: it writes files itself and
runs commands itself (``display_terminals``).
"""

from __future__ import annotations

import difflib
from typing import Any

PLAN_ID = "plan_demo"
"""The demo has one plan per session, updated whole at each step."""


def to_v2(update: dict[str, Any]) -> dict[str, Any]:
    """One v1-shaped session update in the v2 draft's shape (unchanged where they agree)."""
    kind = update.get("sessionUpdate")
    if kind == "plan":
        entries = update.get("entries", [])
        return {
            "sessionUpdate": "plan_update",
            "plan": {"type": "items", "planId": PLAN_ID, "entries": entries},
        }
    if kind not in ("tool_call", "tool_call_update"):
        return update
    v2 = {**update, "sessionUpdate": "tool_call_update"}
    if isinstance(update.get("content"), list):
        v2["content"] = [diff_v2(item) for item in update["content"]]
    return v2


def tool_call_v2(tool_call: dict[str, Any]) -> dict[str, Any]:
    """A permission request's tool call, its diffs said the v2 way."""
    content = tool_call.get("content")
    if not isinstance(content, list):
        return tool_call
    return {**tool_call, "content": [diff_v2(item) for item in content]}


def diff_v2(item: Any) -> Any:
    """A v1 diff (``path``, ``oldText``, ``newText``) as v2's ``changes`` with a ``git_patch``."""
    if not isinstance(item, dict) or item.get("type") != "diff" or "newText" not in item:
        return item
    path, old, new = item["path"], item.get("oldText"), item["newText"]
    operation = "add" if old is None else "modify"
    return {
        "type": "diff",
        "changes": [{"operation": operation, "path": path, "fileType": "text"}],
        "patch": {"format": "git_patch", "text": git_patch(path, old, new)},
    }


def git_patch(path: str, old: str | None, new: str) -> str:
    """One ``diff --git`` section from ``old`` (None: a new file) to ``new``; absolute paths,
    as v2 requires."""
    head = [f"diff --git {path} {path}\n"]
    if old is None:
        head.append("new file mode 100644\n")
    lines = difflib.unified_diff(
        _lines(old or ""),
        _lines(new),
        fromfile="/dev/null" if old is None else path,
        tofile=path,
        lineterm="\n",
    )
    return "".join(head) + "".join(_marked(lines))


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _marked(lines: Any) -> list[str]:
    """Git's marker after a line without its newline (the last line of such a file)."""
    out = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:
            out.extend((line + "\n", "\\ No newline at end of file\n"))
    return out
