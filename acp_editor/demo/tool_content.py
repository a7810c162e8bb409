"""A tool call's content as the demo prints it: a proposed edit as a coloured unified diff, a v2
structured change (the files and what happens to them, then its patch), a terminal, the first
lines of text, anything else by its type. Pure: lines and their styles."""

from __future__ import annotations

import difflib
from typing import Any

Line = tuple[str, tuple[str, ...]]
"""A line and its styles (``demo.printer.STYLES``)."""
TEXT_LINES = 3
"""Lines of a text content shown (a command's whole output is in the terminal's lines)."""


def diff_lines(path: str, old: str | None, new: str) -> list[str]:
    """A unified diff of a proposed edit (``old`` None: a new file)."""
    before = (old or "").splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    label = "/dev/null" if old is None else f"a{path}"
    return [
        line.rstrip("\n") for line in difflib.unified_diff(before, after, label, f"b{path}", n=2)
    ]


def diff_line(text: str) -> Line:
    colour = "green" if text.startswith("+") else "red" if text.startswith("-") else ""
    return f"    {text}", (colour,) if colour else ()


def item_lines(item: dict[str, Any]) -> list[Line]:
    kind = item.get("type")
    if kind == "diff" and isinstance(item.get("newText"), str):
        path = str(item.get("path"))
        diff = diff_lines(path, item.get("oldText"), item["newText"])
        return [(f"  proposed edit: {path}", ("bold",)), *(diff_line(t) for t in diff)]
    if kind == "diff" and isinstance(item.get("changes"), list):
        return changes_lines(item)
    if kind == "terminal":
        return [(f"  terminal {item.get('terminalId')}", ("dim",))]
    if kind == "content":
        inner = item.get("content")
        if isinstance(inner, dict) and inner.get("type") == "text":
            text = str(inner.get("text", ""))
            return [(f"  | {line}", ("dim",)) for line in text.splitlines()[:TEXT_LINES]]
        return []
    return [(f"  [{kind} content]", ("dim",))]


def changes_lines(item: dict[str, Any]) -> list[Line]:
    """A v2 diff: the files and what happens to them, then the patch when there is one."""
    lines: list[Line] = []
    for change in item["changes"]:
        if isinstance(change, dict):
            moved = f"{change.get('oldPath')} -> " if change.get("oldPath") else ""
            said = f"  proposed {change.get('operation')}: {moved}{change.get('path')}"
            lines.append((said, ("bold",)))
    patch = item.get("patch")
    text = patch.get("text") if isinstance(patch, dict) else None
    for line in text.splitlines() if isinstance(text, str) else []:
        if not line.startswith(("diff --git", "---", "+++", "new file", "index ")):
            lines.append(diff_line(line))
    return lines
