"""The demo agent's ACP v2: the same scenarios, said the v2 way, and what only v2 has.

Scenarios are written once, in v1's words; ``to_v2`` says each update in v2's shape (tool calls
are ``tool_call_update`` upserts, plans carry a ``planId``, a diff is structured ``changes`` plus
a ``git_patch``). A v2 agent has no client ``fs/*`` or ``terminal/*``: it writes files itself and
runs commands itself (``display_terminals``).

Schema 1.25 lets the client stop one tool call or one terminal (``tool_call/cancel``,
``terminal/cancel``) while it advertises ``capabilities.cancel``, and has the agent list work
still running while idle (``background`` on every state update, once it reports any). A
session's ``Work`` keeps both; ``state_update`` says the session's state with its background.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from acp_editor.errors import InvalidParams
from acp_editor.protocol.acp import nonempty_str

PLAN_ID = "plan_demo"
"""The demo has one plan per session, updated whole at each step."""


@dataclass
class Work:
    """One session's v2 work beyond the turn: what the client may cancel, what runs on."""

    cancels: dict[str, asyncio.Event] = field(default_factory=dict)
    """Tool calls and terminals advertising ``capabilities.cancel``, by id: set to cancel."""
    background: dict[str, dict[str, Any]] = field(default_factory=dict)
    """``BackgroundWork`` items still running after their tool call returned, by id."""
    reported: bool = False
    """Background work was reported once: every state update lists it from then on."""
    state: str = "idle"
    """The foreground state last reported (``running``, ``requires_action``, ``idle``)."""
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    """What runs on after the turn (owned: cancelled when the agent shuts down)."""

    def run_on(self, item_id: str, item: dict[str, Any], task: asyncio.Task[Any]) -> None:
        """``task`` runs on in the background, listed as ``item`` until it ends."""
        self.background[item_id], self.reported = item, True
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def state_update(work: Work, state: str, **more: Any) -> dict[str, Any]:
    """A ``state_update`` of ``state`` (and ``more``: a ``stopReason``), with the background
    work as a complete list once any was reported; remembered as the state last reported."""
    work.state = state
    update = {"sessionUpdate": "state_update", "state": state, **more}
    if work.reported:
        update["background"] = list(work.background.values())
    return update


@contextlib.contextmanager
def cancellable(work: Work, item_id: str, version: int) -> Iterator[asyncio.Event]:
    """While inside, ``tool_call/cancel`` or ``terminal/cancel`` of ``item_id`` sets the event
    (v2; v1 has neither request, so nothing is registered)."""
    event = asyncio.Event()
    if version >= 2:
        work.cancels[item_id] = event
    try:
        yield event
    finally:
        if work.cancels.get(item_id) is event:
            del work.cancels[item_id]


def cancel_fields(version: int, offered: bool) -> dict[str, Any]:
    """A v2 tool call's or terminal's ``capabilities``: cancel offered, or withdrawn (null)."""
    if version < 2:
        return {}
    return {"capabilities": {"cancel": {}} if offered else None}


def cancel_one(work: Work, params: dict[str, Any], key: str) -> dict[str, Any]:
    """``tool_call/cancel`` (``key``: toolCallId) or ``terminal/cancel`` (terminalId): taken
    (the work confirms with its own final update), or -32602 for one that is unknown, over or
    not cancellable."""
    item_id = nonempty_str(params, key)
    event = work.cancels.get(item_id)
    if event is None:
        raise InvalidParams(f"{key} {item_id!r} is unknown, over, or cannot be cancelled")
    event.set()
    return {}


def to_v2(update: dict[str, Any]) -> dict[str, Any]:
    """One v1-shaped session update in the v2 draft's shape (unchanged where they agree)."""
    kind = update.get("sessionUpdate")
    if kind == "available_commands_update":  # schema 1.25: each command says its type
        listed = update.get("availableCommands", [])
        return {**update, "availableCommands": [{"type": "command", **c} for c in listed]}
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
