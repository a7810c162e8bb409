"""The conversation as a Markdown file any editor can open: the live transcript of plugin-less
editors.

An editor with no plugin has no chat view; ``acp.transcript`` gives it a file to open instead.
The file lives in acp-editor's state directory (never in the workspace, where it would reach the
user's repository and the agent's searches), is read-only (it is a view: edits to it would be
lost at the next update) and is rewritten from the session state shortly after each change while
someone asked for it, so an editor that reloads changed files shows the turn as it runs.
Nothing is written for sessions nobody asked about.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.editor.show.replies import block_text, message_text
from acp_editor.log import get_logger
from acp_editor.protocol import prompt, tool_call
from acp_editor.storage import state_dir

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

log = get_logger(__name__)

WRITE_DELAY = 0.2
"""Seconds between a change and the rewrite: a streamed reply rewrites the file a few times a
second, not once per chunk."""

ROLE_HEADINGS = {"user": "## You", "agent": "## Agent"}
STATUS_MARKS = {"completed": "✓", "failed": "✗", "in_progress": "…", "pending": "·"}


NOT_SENT = "_Not sent: removed, or dropped with a cancel, before its turn._"
WAITING = "_Waiting: it goes when the turn before it ends._"


def render(state: SessionView) -> str:
    """The session's transcript as Markdown: the user's and the agent's messages under headings,
    thoughts quoted, each tool call one line with its status. A prompt reads as its typed text
    with each attachment an item of its own; one that waited reads after the turn it waited
    behind (``reading_order``); a removed one is marked not sent."""
    lines = [
        f"# acp-editor: session {state.session_id}",
        "",
        "_Kept up to date by acp-editor while the agent works; read-only._",
    ]
    heading = None
    entries = state.peek_entries()
    for index in reading_order(entries):
        entry = entries[index]
        shown = _entry_lines(state, entry)
        if not shown:
            continue  # an update nobody defined: the rich editors show it, a file need not
        wanted = ROLE_HEADINGS["user"] if entry.get("role") == "user" else ROLE_HEADINGS["agent"]
        if wanted != heading:
            lines += ["", wanted, ""]
            heading = wanted
        if entry.get("kind") == "message" and lines[-1]:
            lines.append("")  # a message after a tool call's list item starts a paragraph
        lines += shown
    return "\n".join(lines).rstrip("\n") + "\n"


def reading_order(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    """The entries' indexes in the order they read: a prompt sent while a turn ran is at the
    index it was sent at, but reads after the entries before its ``waitedUntil`` (the turn it
    waited behind, and that turn's reply), a removed one before a prompt that went there (it
    would read as that prompt's reply's); one still waiting reads last."""

    def place(index: int) -> tuple[float, int, int]:
        entry = entries[index]
        if entry.get("kind") != "message" or entry.get("role") != "user":
            return (index, 1, index)
        if entry.get("queued"):
            return (math.inf, 1, index)
        waited = entry.get("waitedUntil")
        if isinstance(waited, int) and waited > index:
            return (waited - 0.5, 0 if entry.get("dropped") else 1, index)
        return (index, 1, index)

    return sorted(range(len(entries)), key=place)


def _prompt_lines(entry: Mapping[str, Any]) -> list[str]:
    """A prompt: what was typed, then each attachment on a line of its own, then whether it
    waits or was never sent."""
    content = entry.get("content")
    blocks = content if isinstance(content, list) else []
    lines = [prompt.typed_text(blocks), ""] if prompt.typed_text(blocks) else []
    attached = prompt.attachments(blocks)
    if attached:
        lines += ["Attached:", *(f"- {_attachment(a)}" for a in attached), ""]
    if entry.get("queued"):
        lines += [WAITING, ""]
    elif entry.get("dropped"):
        lines += [NOT_SENT, ""]
    return lines or ["(an empty prompt)", ""]


def _attachment(item: prompt.Attachment) -> str:
    """One attachment as a Markdown list item: a file or a page as a link, a text by its first
    line, with how much it holds (``file [a.py](<file:///w/a.py>)``)."""
    if item.kind == "text":
        shown = f"“{item.label}”"
    elif item.uri:
        name = item.label.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        shown = f"[{name}](<{item.uri}>)"
    else:
        shown = "" if item.label == item.kind else f"`{item.label.replace('`', '')}`"
    detail = f" ({item.detail})" if item.detail else ""
    return f"{item.kind} {shown}".rstrip() + detail


def _entry_lines(state: SessionView, entry: Mapping[str, Any]) -> list[str]:
    kind, role = entry.get("kind"), entry.get("role")
    if kind == "message" and role == "user":
        return _prompt_lines(entry)
    if kind == "message" and role == "thought":
        return [*(f"> {line}" for line in message_text(entry).splitlines()), ""]
    if kind == "message":
        return [message_text(entry).rstrip("\n"), ""]
    if kind == "toolCall":
        return [_tool_call_line(state.peek_tool_call(str(entry.get("toolCallId"))) or {})]
    return []


def _tool_call_line(call: Mapping[str, Any]) -> str:
    status = str(call.get("status") or "pending")
    title = tool_call.tool_call_title(call).replace("\n", " ")
    line = f"- {STATUS_MARKS.get(status, '?')} {title} ({status})"
    if status == "failed":
        content = call.get("content")
        for item in content if isinstance(content, list) else []:
            if isinstance(item, dict) and item.get("type") == "content":
                reason = block_text(item.get("content")).strip().replace("\n", " ")
                line += f": {reason[:200]}" if reason else ""
                break
    return line


def path_for(session_id: str, directory: Path | None = None) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", session_id)[:100] or "session"
    return (directory or state_dir() / "transcripts") / f"{safe}.md"


class Transcripts:
    """Transcript files of the sessions someone asked for, rewritten after changes."""

    def __init__(
        self,
        state_of: Callable[[str], SessionView | None],
        directory: Path | None = None,
    ) -> None:
        self.state_of = state_of
        self.directory = directory
        self._paths: dict[str, Path] = {}
        self._pending: dict[str, asyncio.TimerHandle] = {}

    def open(self, session_id: str) -> Path:
        """Start keeping ``session_id``'s transcript; write it now and return where it is."""
        path = self._paths.setdefault(session_id, path_for(session_id, self.directory))
        self.write(session_id)
        return path

    def changed(self, session_id: str) -> None:
        """The session changed: rewrite its file soon, if anyone asked for it."""
        if session_id not in self._paths or session_id in self._pending:
            return
        loop = asyncio.get_running_loop()
        self._pending[session_id] = loop.call_later(WRITE_DELAY, self.write, session_id)

    def write(self, session_id: str) -> None:
        """Write the file now (a turn ended, or the delay passed)."""
        timer = self._pending.pop(session_id, None)
        if timer is not None:
            timer.cancel()
        path, state = self._paths.get(session_id), self.state_of(session_id)
        if path is None or state is None:
            return
        try:
            write_read_only(path, render(state))
        except OSError as exc:  # a full disk must not stop the agent
            log.warning("could not write the transcript %s: %s", path, exc)

    def close(self) -> None:
        for timer in self._pending.values():
            timer.cancel()
        self._pending.clear()


def write_read_only(path: Path, text: str) -> None:
    """Replace ``path`` at once (a temporary file renamed over it) with a read-only file, so an
    editor never reads half of it and the user is told not to edit it."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    import tempfile  # at the first write: not before the initialize answer

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o444)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
