"""The terminal view of ``acp-editor demo``: what an editor is told, printed as it happens.

It is a ``Frontend`` like the editor link, so the demo exercises the same client code an editor
uses: follow-along jumps, diff previews, permission prompts, terminal output, the plan, streamed
messages and thoughts. This module (and only this one) writes to the terminal on purpose.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from acp_editor.agent.frontend import Frontend
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.session.state import SessionView

STYLES = {
    "dim": "2",
    "bold": "1",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}
PLAN_MARKS = {"completed": "[x]", "in_progress": "[>]", "pending": "[ ]"}


def use_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or stream.isatty()


def diff_lines(path: str, old: str | None, new: str) -> list[str]:
    """A unified diff of a proposed edit (``old`` None: a new file)."""
    before = (old or "").splitlines(keepends=True)
    after = new.splitlines(keepends=True)
    label = "/dev/null" if old is None else f"a{path}"
    return [
        line.rstrip("\n") for line in difflib.unified_diff(before, after, label, f"b{path}", n=2)
    ]


class TerminalView(Frontend):
    """Prints each change once, in order. ``auto_yes`` answers permissions without asking."""

    def __init__(self, out: TextIO | None = None, *, auto_yes: bool = False) -> None:
        self.out = out or sys.stdout
        self.auto_yes = auto_yes
        self.colour = use_colour(self.out)
        self._open_line: str | None = None  # role of a streamed message line still open
        self._followed: dict[str, str] = {}
        self._roles: dict[int, str] = {}  # transcript index -> message role
        self._shown_items: dict[str, set[str]] = {}
        self._titled: set[str] = set()  # tool calls whose line was printed once they had a title

    # -- output ---------------------------------------------------------------------------------

    def _style(self, text: str, *names: str) -> str:
        if not self.colour or not names:
            return text
        codes = ";".join(STYLES[n] for n in names)
        return f"\033[{codes}m{text}\033[0m"

    def line(self, text: str = "", *styles: str) -> None:
        self._close_stream()
        self.out.write(self._style(text, *styles) + "\n")  # stdout-ok
        self.out.flush()

    def _stream(self, role: str, text: str) -> None:
        if self._open_line != role:
            self._close_stream()
            label = "agent" if role == "agent" else "thinking"
            self.out.write(
                self._style(f"{label}> ", "bold" if role == "agent" else "dim")
            )  # stdout-ok
            self._open_line = role
        self.out.write(self._style(text, "dim") if role == "thought" else text)  # stdout-ok
        self.out.flush()

    def _close_stream(self) -> None:
        if self._open_line is not None:
            self.out.write("\n")  # stdout-ok
            self._open_line = None

    # -- Frontend -------------------------------------------------------------------------------

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        for change in changes:
            self._show(state, change)

    def _show(self, state: SessionView, change: dict[str, Any]) -> None:
        kind = change.get("type")
        if kind == "entry":
            entry = change["entry"]
            self._roles[change.get("index", -1)] = str(entry.get("role", ""))
            if entry.get("kind") == "message":
                for block in entry.get("content", []):
                    self._block(entry.get("role", "agent"), block)
            elif entry.get("kind") == "update":
                update = entry.get("update", {})
                self.line(f"(agent sent {update.get('sessionUpdate')!s}: shown generically)", "dim")
        elif kind == "message_chunk":
            # Chunks of the user's own prompt are not echoed back.
            self._block(self._roles.get(change.get("index", -1), "agent"), change["content"])
        elif kind == "tool_call":
            self._tool_call(state.peek_tool_call(change["toolCallId"]) or {}, change)
        elif kind == "tool_call_content":
            self._content(change["toolCallId"], [change["content"]])
        elif kind == "plan":
            self._plan(change.get("plan") or {})
        elif kind == "modes":
            modes = change.get("modes") or {}
            self.line(f"mode: {modes.get('currentModeId')}", "dim")

    def _block(self, role: str, block: Any) -> None:
        if role == "user":
            return
        if isinstance(block, dict) and block.get("type") == "text":
            self._stream(role, str(block.get("text", "")))
        else:
            kind = block.get("type") if isinstance(block, dict) else type(block).__name__
            self.line(f"[{kind} content]", "dim")

    def _tool_call(self, call: Mapping[str, Any], change: dict[str, Any]) -> None:
        call_id = change["toolCallId"]
        fields = change.get("set", {})
        new = "title" in fields and call_id not in self._titled
        if "title" in fields:
            self._titled.add(call_id)
        if new or "status" in fields:
            status = call.get("status", "pending")
            colour = {"completed": "green", "failed": "red", "cancelled": "red"}.get(status, "cyan")
            self.line(
                f"tool  {call.get('title', call_id)}  [{call.get('kind', 'other')}] {status}",
                colour,
            )
        if "locations" in fields:
            for loc in fields["locations"] or []:
                self._follow(loc)
        if "content" in fields:
            self._content(call_id, fields["content"] or [])

    def _follow(self, loc: Any) -> None:
        if not isinstance(loc, dict) or not isinstance(loc.get("path"), str):
            return
        where = loc["path"] + (f":{loc['line']}" if isinstance(loc.get("line"), int) else "")
        self.line(f"  follow -> {where}", "blue")

    def _content(self, call_id: str, items: list[Any]) -> None:
        # Agents resend a tool call's whole content with each update: show each item once.
        shown = self._shown_items.setdefault(call_id, set())
        for item in items:
            if not isinstance(item, dict):
                continue
            key = json.dumps(item, sort_keys=True)
            if key in shown:
                continue
            shown.add(key)
            if item.get("type") == "diff" and isinstance(item.get("newText"), str):
                self.line(f"  proposed edit: {item.get('path')}", "bold")
                for text in diff_lines(str(item.get("path")), item.get("oldText"), item["newText"]):
                    colour = (
                        "green" if text.startswith("+") else "red" if text.startswith("-") else ""
                    )
                    self.line(f"    {text}", *([colour] if colour else []))
            elif item.get("type") == "diff" and isinstance(item.get("changes"), list):
                self._changes(item)
            elif item.get("type") == "terminal":
                self.line(f"  terminal {item.get('terminalId')}", "dim")
            elif item.get("type") == "content":
                inner = item.get("content")
                if isinstance(inner, dict) and inner.get("type") == "text":
                    first = str(inner.get("text", "")).splitlines()[:3]
                    for text in first:
                        self.line(f"  | {text}", "dim")
            else:
                self.line(f"  [{item.get('type')} content]", "dim")

    def _changes(self, item: dict[str, Any]) -> None:
        """A v2 diff: the files and what happens to them, then the patch when there is one."""
        for change in item["changes"]:
            if isinstance(change, dict):
                moved = f"{change.get('oldPath')} -> " if change.get("oldPath") else ""
                self.line(
                    f"  proposed {change.get('operation')}: {moved}{change.get('path')}", "bold"
                )
        patch = item.get("patch")
        text = patch.get("text") if isinstance(patch, dict) else None
        for line in text.splitlines() if isinstance(text, str) else []:
            if line.startswith(("diff --git", "---", "+++", "new file", "index ")):
                continue
            colour = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
            self.line(f"    {line}", *([colour] if colour else []))

    def _plan(self, plan: dict[str, Any]) -> None:
        self.line("plan:", "bold")
        for entry in plan.get("entries", []):
            if isinstance(entry, dict):
                mark = PLAN_MARKS.get(str(entry.get("status")), "[?]")
                self.line(f"  {mark} {entry.get('content')}")

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        self.line(f"  follow -> {path} ({kind})", "blue")

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        for out_line in text.splitlines():
            self.line(f"  $ {out_line}", "magenta")

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self.line(f"  terminal {terminal_id} exited: {status}", "dim")

    def agent_exited(
        self, agent: str, returncode: int | None, stderr_tail: str, expected: bool
    ) -> None:
        if not expected:
            self.line(f"the agent exited unexpectedly (code {returncode})", "red")
            for tail_line in stderr_tail.splitlines()[-10:]:
                self.line(f"  {tail_line}", "dim")

    def notice(self, message: str) -> None:
        self.line(f"note: {message}", "yellow")

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        if words is not None:  # v2: the agent's own question first, then the tool call
            self.line(f"permission: {words['title']}", "yellow", "bold")
            if words.get("description"):
                self.line(f"  {words['description']}", "yellow")
        called = tool_call.get("title", tool_call.get("toolCallId"))
        if words is None or called != words["title"]:
            head = "permission: " if words is None else "  "
            self.line(f"{head}{called} [{tool_call.get('kind', 'other')}]", "yellow", "bold")
        for number, option in enumerate(options, 1):
            self.line(f"  {number}) {option.get('name')} ({option.get('kind')})", "yellow")
        if self.auto_yes:
            choice = acp.first_allow(options)
            self.line(f"  --yes: {choice}", "dim")
            return choice
        answer = await asyncio.to_thread(_ask_number, len(options))
        if answer is None:
            return None
        return str(options[answer - 1]["optionId"])


def _ask_number(count: int) -> int | None:
    """Read a choice from the keyboard; EOF or an empty answer dismisses the prompt."""
    while True:
        try:
            raw = input(f"  choose 1-{count} (Enter to reject): ")
        except EOFError:
            return None
        if not raw.strip():
            return None
        if raw.strip().isdigit() and 1 <= int(raw) <= count:
            return int(raw)
