"""What the demo agent does in one prompt turn, chosen by words in the prompt: the words and
their scenarios, and the scenarios that only send updates (a plan, streamed text, custom kinds,
content chunks, a long wait, the usage, a walk through a file).

Each scenario reproduces something real agents send (see notes/real-agents.md), so that the
sidecar, the editors and the tests meet those shapes without a model behind them. The others live
by what they touch: files (``file_scenarios``), shell commands (``command_scenarios``), questions
to the user (``elicit``), the editor's buffers (``editor_context``), what a client opts in to
(``opt_in_scenarios``), a subagent (``subagent_scenarios``).

A client error (a refused write, a missing file, a timeout) fails that tool call with the
client's message and the turn goes on; a rejected permission ends the turn (``end_turn``); a
``cancelled`` permission outcome ends it with ``cancelled``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from acp_editor.demo_agent.scenarios import (
    editor_context,
    elicit,
    opt_in_scenarios,
    subagent_scenarios,
)
from acp_editor.demo_agent.scenarios.command_scenarios import (
    GENERATED,
    MADE,
    files,
    generate,
    long_shell,
    remove_generated,
    shell,
    slow_files,
)
from acp_editor.demo_agent.scenarios.file_scenarios import (
    HELLO,
    NOTES,
    early_permission,
    edit,
    hunks,
    read,
)
from acp_editor.demo_agent.turn.prompt_turn import Turn, TurnStopped, text_item
from acp_editor.demo_agent.turn.shell import background
from acp_editor.demo_agent.turn.v2 import cancel_fields, cancellable

Scenario = Callable[[Turn], Awaitable[None]]

WALK_LINES = 20
"""Lines of ``hello.py`` that ``walk`` steps through, one location each."""
SENT_NS = "acp-editor.demo/sentNs"
"""``_meta`` key of each ``walk`` location: the agent's ``time.monotonic_ns()`` as it sent it
(one clock for every process on Linux), so a viewer can tell how late it showed the location
(``bench/sessions.py``)."""


async def plan(turn: Turn) -> None:
    """Resend the whole plan at each step, as the spec requires; statuses only move forward."""
    steps = [f"Read {HELLO}", f"Edit {HELLO}", "Run a command", "Summarise"]
    for current in range(-1, len(steps) + 1):
        entries = [
            {
                "content": step,
                "priority": "high" if i == 0 else "medium",
                "status": "completed"
                if i < current
                else "in_progress"
                if i == current
                else "pending",
            }
            for i, step in enumerate(steps)
        ]
        await turn.update({"sessionUpdate": "plan", "entries": entries})
        await turn.pause(0.15)


async def stream(turn: Turn) -> None:
    """Thoughts then a message, in many small chunks, so a viewer sees text arrive."""
    await turn.stream(
        "agent_thought_chunk",
        "The user wants to see streaming. I will think out loud for a moment, "
        "then answer in small pieces so every chunk shows up on its own.",
    )
    await turn.stream(
        "agent_message_chunk",
        "Here is a streamed answer. Each word arrives as its own chunk, "
        "all sharing one messageId, so the client can join them into one message.",
    )


async def walk(turn: Turn) -> None:
    """Go through a file a line at a time, thinking aloud about each line, as an agent reading
    code does: text streams all along and the location moves down every ~0.35 s (a little
    slower than follow-along's jumps, so each one can be shown). Each location carries when it
    was sent (``SENT_NS``)."""
    path, tid = turn.path(HELLO), turn.new_id("walk")
    await turn.tool_call(
        tid,
        {
            "title": f"Walk through {HELLO}",
            "kind": "read",
            "status": "in_progress",
            "rawInput": {"path": path},
        },
    )
    for line in range(1, WALK_LINES + 1):
        where = {"locations": [{"path": path, "line": line}]}
        await turn.tool_update(tid, {**where, "_meta": {SENT_NS: time.monotonic_ns()}})
        await turn.stream(
            "agent_thought_chunk",
            f"Line {line} of {HELLO}: reading what it does and whether the lines after it "
            "depend on it.",
        )
    await turn.tool_update(tid, {"status": "completed"})


async def custom(turn: Turn) -> None:
    """Extension points a client must keep verbatim: ``_`` kinds/statuses/content, ``_meta``."""
    tid = turn.new_id("deploy")
    await turn.tool_call(
        tid,
        {
            "title": "Deploy a preview",
            "kind": "_deploy",
            "status": "_queued",
            "rawInput": {"target": "preview"},
            "_meta": {"acp-editor.demo/queuePosition": 1},
        },
    )
    await turn.pause(0.1)
    await turn.tool_update(
        tid,
        {
            "status": "_custom_status",
            "content": [
                text_item("Deploying the preview..."),
                {"type": "_chart", "data": {"label": "latency ms", "points": [12, 9, 14, 8]}},
            ],
            "_meta": {"acp-editor.demo/progress": 0.5},
        },
    )
    await turn.update(
        {
            "sessionUpdate": "_agent_note",
            "note": "An update variant no client knows: keep it and show it generically.",
            "_meta": {"acp-editor.demo/severity": "info"},
        }
    )
    await turn.pause(0.1)
    await turn.tool_update(tid, {"status": "completed"})


async def chunks(turn: Turn) -> None:
    """v2 appends content one item at a time; v1 has no chunks, so it resends the whole array."""
    tid = turn.new_id("chunks")
    await turn.tool_call(
        tid, {"title": "Collect test results", "kind": "search", "status": "in_progress"}
    )
    items = []
    for name in ("test_read", "test_edit", "test_shell"):
        item = text_item(f"{name} passed")
        items.append(item)
        if turn.version >= 2:
            await turn.update(
                {"sessionUpdate": "tool_call_content_chunk", "toolCallId": tid, "content": item}
            )
        else:
            await turn.tool_update(tid, {"content": list(items)})
        await turn.pause(0.05)
    summary = text_item(f"{len(items)} tests passed")
    await turn.tool_update(tid, {"status": "completed", "content": [summary]})


async def wait(turn: Turn) -> None:
    """A long tool call (even when the agent runs fast) that gives time to cancel mid-turn: the
    turn (``session/cancel``), or on v2 only this tool call (``tool_call/cancel``, advertised
    while it waits), after which the turn goes on."""
    tid = turn.new_id("wait")
    seconds = turn.wait_seconds
    title = f"Wait {seconds:g} s (cancel me)"
    with cancellable(turn.session.work, tid, turn.version) as cancelled:
        fields = {"title": title, "kind": "other", "status": "in_progress"}
        await turn.tool_call(tid, {**fields, **cancel_fields(turn.version, True)})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(cancelled.wait(), seconds)
    status = "cancelled" if cancelled.is_set() else "completed"
    await turn.tool_update(tid, {"status": status, **cancel_fields(turn.version, False)})


async def usage(turn: Turn) -> None:
    """The context window and cost so far (ACP ``usage_update``), as Claude Code reports them."""
    await turn.update(
        {
            "sessionUpdate": "usage_update",
            "used": 53000,
            "size": 200000,
            "cost": {"amount": 0.045, "currency": "USD"},
        }
    )


SCENARIOS: dict[str, tuple[Scenario, str]] = {
    "read": (read, f"Read {HELLO} through the client"),
    "edit": (edit, f"Edit {HELLO} after asking permission"),
    "hunks": (hunks, f"Edit {HELLO} in two places (two hunks to review)"),
    "shell": (shell, "Run a shell command in a client terminal"),
    "plan": (plan, "Show a plan whose steps advance"),
    "stream": (stream, "Stream thoughts and a message in small chunks"),
    "custom": (custom, "Send custom kinds, statuses, content and updates"),
    "early-permission": (early_permission, f"Ask to write {NOTES} before announcing the call"),
    "chunks": (chunks, "Stream tool-call content item by item"),
    "wait": (wait, "A tool call that waits long enough to be cancelled"),
    "usage": (usage, "Report the tokens used of the context window and the cost so far"),
    "walk": (walk, f"Go through {HELLO} line by line, thinking aloud (follow-along)"),
    "long-shell": (long_shell, "Run a command for a minute in a client terminal"),
    "files": (files, f"Change {HELLO}, create {MADE} and delete {NOTES} with one command"),
    "slow-files": (slow_files, "The same, then the command keeps running (cancel me)"),
    "generate": (generate, f"Write many files in {GENERATED}/ with one command (a bulk change)"),
    "remove-generated": (remove_generated, f"Delete {GENERATED}/ with one command"),
    "ask-form": (elicit.ask_form, "Ask you a question with a form (elicitation)"),
    "ask-page": (elicit.ask_page, "Ask you to open a web page (URL elicitation)"),
    "look": (editor_context.look, "Look at your open buffers through the editor MCP server"),
    "notice": (opt_in_scenarios.notice, "Send a warning notice, apart from the conversation"),
    "compact": (opt_in_scenarios.compact, "Compact the context window, with a summary"),
    "plans": (opt_in_scenarios.plans, "Keep two plans by id and remove one (plan operations)"),
    "subagent": (
        subagent_scenarios.subagent,
        f"Hand {HELLO} to a subagent: it reads it and asks to edit it",
    ),
    "subagent-fails": (subagent_scenarios.subagent_fails, "A subagent that fails with an error"),
    "untitled": (opt_in_scenarios.untitled, "A tool call with no title, only its tool's name"),
    "background": (background, "Run a command that goes on after the turn (v2 background work)"),
}
ALL_ORDER = ("stream", "plan", "read", "edit", "shell", "early-permission", "custom", "chunks")


def commands() -> list[dict[str, Any]]:
    """The scenario words, advertised as slash commands so editors can offer them."""
    listed = [{"name": word, "description": about} for word, (_, about) in SCENARIOS.items()]
    listed.append({"name": "all", "description": "Every scenario except wait, in a sensible order"})
    return listed


def chosen(text: str) -> list[str]:
    """The scenario words in ``text`` in order of appearance (``/read`` counts as ``read``)."""
    words: list[str] = []
    for token in re.findall(r"[a-z][a-z-]*", text.lower()):
        for word in ALL_ORDER if token == "all" else (token,):
            if word in SCENARIOS and word not in words:
                words.append(word)
    return words


async def run_turn(turn: Turn, text: str, *, wait_first: bool = False) -> str:
    """Run the scenarios the prompt names (after ``wait``, when ``wait_first``) and return the
    stop reason."""
    words = chosen(text)
    if wait_first and "wait" not in words:
        words.insert(0, "wait")
    try:
        if turn.session.think_aloud:  # the think-aloud config option
            named = ", ".join(words) or "no scenario"
            await turn.stream("agent_thought_chunk", f"Thinking aloud: the prompt names {named}.")
        if not words:
            await turn.stream(
                "agent_message_chunk",
                f"You said: {text.strip() or '(nothing)'}. Try one of: "
                + ", ".join([*SCENARIOS, "all"])
                + ".",
            )
            return "end_turn"
        for word in words:
            await SCENARIOS[word][0](turn)
        await turn.stream("agent_message_chunk", f"Done: {', '.join(words)}.")
    except TurnStopped as stop:
        return stop.stop_reason
    return "end_turn"
