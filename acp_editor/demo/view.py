"""The terminal view of ``acp-editor demo``: what an editor is told, printed as it happens.

It is a ``Frontend`` like the editor link, so the demo exercises the same client code an editor
uses: follow-along jumps, diff previews, permission prompts, terminal output, plans (the whole
plan, and plans by id), streamed messages and thoughts, notices, context compactions, the
tokens of a turn, subagents (each child session's lines under its title, indented) and signing
in (choosing a method, a terminal sign-in run where the user types). It says what to print;
``demo.printer`` prints it (colour, indentation, streamed lines, questions).
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from acp_editor.agent.frontend import Frontend
from acp_editor.demo import wording
from acp_editor.demo.printer import Key, Printer
from acp_editor.demo.terminal import ask_number, is_terminal, run_sign_in
from acp_editor.demo.tool_content import item_lines
from acp_editor.protocol import acp
from acp_editor.protocol.tool_call import tool_call_title

if TYPE_CHECKING:
    from acp_editor.agent.auth_methods import TerminalSignIn
    from acp_editor.session.state import SessionView

LABELS = {
    "agent": ("agent> ", "bold"),
    "thought": ("thinking> ", "dim"),
    "compaction": ("summary> ", "dim"),
}
"""How a streamed message of each role starts (a message between sessions names the other)."""
DIM_ROLES = frozenset({"thought", "compaction"})
COMPACTION = {
    "in_progress": ("compacting the context", "yellow"),
    "completed": ("context compacted", "green"),
}
"""A compaction's status as said (any other: it ended so, in red, with its error)."""


class TerminalView(Printer, Frontend):
    """Prints each change once, in order. ``auto_yes`` answers permissions and picks the first
    sign-in method without asking; ``keyboard`` is where answers are typed (stdin)."""

    def __init__(
        self, out: TextIO | None = None, *, auto_yes: bool = False, keyboard: TextIO | None = None
    ) -> None:
        super().__init__(out, keyboard)
        self.auto_yes = auto_yes
        self.agent_title: str | None = None
        """What to call the agent when it asks to sign in (set once connected)."""
        self._heads: dict[Key, dict[str, Any]] = {}  # message -> its role, sender, recipient
        self._streamed: set[Key] = set()  # messages whose text was printed
        self._shown_items: dict[Key, set[str]] = {}
        self._titled: set[Key] = set()  # tool calls whose line was printed once they had a title
        self._plans: dict[str, dict[str, Any]] = {}  # a session -> its plans by id, as shown
        self._auth: dict[str, Any] | None = None

    # -- Frontend -------------------------------------------------------------------------------

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        if state.parent is not None:
            self._parents[state.session_id] = state.parent
        for change in changes:
            self._session = state.session_id
            self._show(state, change)

    def _show(self, state: SessionView, change: dict[str, Any]) -> None:
        sid, kind = state.session_id, change.get("type")
        if kind == "entry":
            self._entry((sid, change.get("index", -1)), change["entry"])
        elif kind == "message_chunk":
            self._block((sid, change.get("index", -1)), change["content"])
        elif kind == "message":
            self._message_patch(state, change)
        elif kind == "tool_call":
            self._tool_call(sid, state.peek_tool_call(change["toolCallId"]) or {}, change)
        elif kind == "tool_call_content":
            self._content((sid, change["toolCallId"]), [change["content"]])
        elif kind == "plan":
            plan = change.get("plan")
            if isinstance(plan, dict) and "planId" not in plan:  # by id: shown from `plans`
                self._plan(plan)
        elif kind == "plans":
            self._plans_changed(sid, change.get("plans"))
        elif kind == "subagents":
            self._subagents_changed(sid, change.get("subagents"))
        elif kind == "run_state" and state.parent is None:  # a subagent's: its parent's record
            self._run_state(change.get("runState"))
        elif kind == "usage" and (said := wording.context_text(change.get("usage"))):
            self._line(said, "dim")
        elif kind == "modes":
            modes = change.get("modes") or {}
            self._line(f"mode: {modes.get('currentModeId')}", "dim")

    def _entry(self, key: Key, entry: dict[str, Any]) -> None:
        kind = entry.get("kind")
        if kind == "message":
            fields = ("role", "senderSessionId", "recipientSessionId")
            self._heads[key] = {f: entry.get(f) for f in fields}
            compaction = entry.get("role") == "compaction"
            if compaction and entry.get("status") == "in_progress":
                self._compaction(entry)
            for block in entry.get("content", []):
                self._block(key, block)
            if compaction and entry.get("status") != "in_progress":
                self._compaction(entry)
        elif kind == "notice":
            self._line(wording.notice_text(entry), wording.notice_style(entry), "bold")
        elif kind == "update":
            update = entry.get("update", {})
            self._line(f"(agent sent {update.get('sessionUpdate')!s}: shown generically)", "dim")

    def _block(self, key: Key, block: Any) -> None:
        head = self._heads.get(key, {})
        role = str(head.get("role") or "agent")
        if role == "user":  # the user's own prompt is not echoed back
            return
        if isinstance(block, dict) and block.get("type") == "text":
            self._streamed.add(key)
            label = self._label(key[0], role, head)
            self._stream(key, label, str(block.get("text", "")), role in DIM_ROLES)
        else:
            kind = block.get("type") if isinstance(block, dict) else type(block).__name__
            self._line(f"[{kind} content]", "dim")

    def _label(self, session_id: str, role: str, head: dict[str, Any]) -> tuple[str, str]:
        if role != "session":
            return LABELS.get(role, (f"{role}> ", "dim"))
        sender, recipient = head.get("senderSessionId"), head.get("recipientSessionId")
        if sender == session_id:
            return f"to {self._name(str(recipient), session_id)}> ", "magenta"
        return f"from {self._name(str(sender), session_id)}> ", "magenta"

    def _name(self, other: str, own: str) -> str:
        """Another session as a session's messages name it: its subagent, or its parent."""
        if self._parents.get(other) == own:
            return wording.subagent_name(other, self._subagents.get(other))
        return "parent" if self._parents.get(own) == other else f"session {other}"

    def _message_patch(self, state: SessionView, change: dict[str, Any]) -> None:
        """A message patched: what shows of it is a compaction's summary and status."""
        key = (state.session_id, change.get("index", -1))
        if self._heads.get(key, {}).get("role") != "compaction":
            return
        fields = change.get("set", {})
        if key not in self._streamed:
            for block in fields.get("content") or []:
                self._block(key, block)
        if "status" in fields:
            entries = state.peek_entries(change["index"])
            self._compaction(dict(entries[0]) if entries else fields)

    def _compaction(self, entry: dict[str, Any]) -> None:
        status = str(entry.get("status"))
        text, style = COMPACTION.get(status, (f"context compaction {status}", "red"))
        error = entry.get("error")
        self._line(text + (f": {error}" if isinstance(error, str) and error else ""), style)

    def _tool_call(self, sid: str, call: Mapping[str, Any], change: dict[str, Any]) -> None:
        key = (sid, change["toolCallId"])
        fields = change.get("set", {})
        new = "title" in fields and key not in self._titled
        if "title" in fields:
            self._titled.add(key)
        if new or "status" in fields:
            status = call.get("status", "pending")
            colour = {"completed": "green", "failed": "red", "cancelled": "red"}.get(status, "cyan")
            title = tool_call_title(call, key[1])  # an empty title: the tool's name
            self._line(f"tool  {title}  [{call.get('kind', 'other')}] {status}", colour)
        if "locations" in fields:
            for loc in fields["locations"] or []:
                self._follow(loc)
        if "content" in fields:
            self._content(key, fields["content"] or [])

    def _follow(self, loc: Any) -> None:
        if not isinstance(loc, dict) or not isinstance(loc.get("path"), str):
            return
        where = loc["path"] + (f":{loc['line']}" if isinstance(loc.get("line"), int) else "")
        self._line(f"  follow -> {where}", "blue")

    def _content(self, key: Key, items: list[Any]) -> None:
        # Agents resend a tool call's whole content with each update: show each item once.
        shown = self._shown_items.setdefault(key, set())
        for item in items:
            said = json.dumps(item, sort_keys=True)
            if isinstance(item, dict) and said not in shown:
                shown.add(said)
                for text, styles in item_lines(item):
                    self._line(text, *styles)

    def _plan(self, plan: dict[str, Any]) -> None:
        self._line(wording.plan_header(plan), "bold")
        for text in wording.plan_lines(plan):
            self._line(text)

    def _plans_changed(self, sid: str, plans: Any) -> None:
        """Plans by id: each one new or changed, then each one removed."""
        before = self._plans.get(sid, {})
        now = copy.deepcopy(plans) if isinstance(plans, dict) else {}
        for plan_id, plan in now.items():
            if isinstance(plan, dict) and before.get(plan_id) != plan:
                self._plan({"planId": plan_id, **plan})
        for plan_id in before.keys() - now.keys():
            self._line(f"plan {plan_id} removed", "dim")
        self._plans[sid] = now

    def _subagents_changed(self, sid: str, records: Any) -> None:
        """The session's subagents: each one started, and each change of its state."""
        for child, record in (records or {}).items() if isinstance(records, dict) else ():
            if not isinstance(record, dict):
                continue
            self._parents[child] = sid
            before = self._subagents.get(child)
            self._subagents[child] = copy.deepcopy(record)
            name, state = wording.subagent_name(child, record), record.get("state")
            if before is None:
                about = record.get("description")
                said = f": {about}" if isinstance(about, str) and about.strip() else ""
                self._line(f"{name} started{said}", "magenta")
            if not isinstance(state, dict) or (before or {}).get("state") == state:
                continue
            if before is not None or state.get("state") != "running":  # "started" says running
                self._line(*wording.subagent_state(name, state))

    def _run_state(self, run: Any) -> None:
        """A turn's end carries its tokens (``runState.usage``)."""
        if isinstance(run, dict) and run.get("state") == "idle":
            said = wording.tokens_text(run.get("usage"))
            if said:
                self._line(said, "dim")

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        self._session = session_id
        self._line(f"  follow -> {path} ({kind})", "blue")

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        self._session = session_id
        for out_line in text.splitlines():
            self._line(f"  $ {out_line}", "magenta")

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self._session = session_id
        self._line(f"  terminal {terminal_id} exited: {status}", "dim")

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
        self._session = session_id  # a subagent's question comes under its title
        if words is not None:  # v2: the agent's own question first, then the tool call
            self._line(f"permission: {words['title']}", "yellow", "bold")
            if words.get("description"):
                self._line(f"  {words['description']}", "yellow")
        called = tool_call_title(tool_call, str(tool_call.get("toolCallId")))
        if words is None or called != words["title"]:
            head = "permission: " if words is None else "  "
            self._line(f"{head}{called} [{tool_call.get('kind', 'other')}]", "yellow", "bold")
        for number, option in enumerate(options, 1):
            self._line(f"  {number}) {option.get('name')} ({option.get('kind')})", "yellow")
        if self.auto_yes:
            choice = acp.first_allow(options)
            self._line(f"  --yes: {choice}", "dim")
            return choice
        answer = await self._ask(len(options), "reject")
        return None if answer is None else str(options[answer - 1]["optionId"])

    async def _ask(self, count: int, empty: str) -> int | None:
        return await asyncio.to_thread(ask_number, self._ask_line, count, empty)

    # -- signing in -----------------------------------------------------------------------------

    def auth_status(self, agent: str, status: dict[str, Any]) -> None:
        """The agent's word on the sign-in, when it changes (not required: said only when it
        follows another state)."""
        if status == self._auth:
            return
        quiet = self._auth is None and status.get("state") == "not_required"
        self._auth = status
        if not quiet:
            ok = status.get("state") in ("authenticated", "not_required")
            self.line(wording.auth_text(status), "green" if ok else "yellow")

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        who = self.agent_title or agent
        self.line(f"sign-in: {who} needs you to sign in. Choose how:", "yellow", "bold")
        for number, method in enumerate(methods, 1):
            self.line(wording.method_line(number, method), "yellow")
        if self.auto_yes and methods:
            choice = str(methods[0].get("id"))
            self.line(f"  --yes: {choice}", "dim")
            return choice
        answer = await self._ask(len(methods), "give up")
        return None if answer is None else str(methods[answer - 1].get("id"))

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        """Run the login command where the user types; with ``--yes`` and nobody at a
        terminal, say what to run instead."""
        where = f" in {request.cwd}" if request.cwd else ""
        if self.auto_yes and not is_terminal(self.keyboard):
            self.line(f"sign-in: {request.name}: run this in a terminal{where}:", "yellow")
            self.line(f"  {request.command_line()}", "bold")
            return None
        self.line(f"sign-in: {request.name}: running{where}:", "yellow")
        self.line(f"  {request.command_line()}", "bold")
        try:
            status = await run_sign_in(request, self.keyboard, self.out)
        except OSError as exc:
            self.line(f"sign-in: the command could not start: {exc}", "red")
            return None
        said = "signed in" if status == 0 else "not signed in"
        self.line(f"sign-in: the command ended with exit status {status}: {said}", "dim")
        return status
