"""What the scripted agent does in one prompt turn, chosen by words in the prompt.

Each scenario reproduces something real agents send (see notes/real-agents.md), so that the
sidecar, the editors and the tests meet those shapes without a model behind them. Every file
access goes through the client (``fs/*``, ``terminal/*``): the agent never touches the disk, so
what the client shows is all that happens. Files used, relative to the session's ``cwd``:

* ``hello.py``: ``read`` reads lines 1-20; ``edit`` appends one line (creates it when missing).
* ``NOTES.md``: ``early-permission`` appends a line (creates it when missing).
* ``shell`` runs ``echo hello from the demo agent && ls`` in the cwd.
* ``files`` runs one command that edits ``hello.py`` (``sed -i``), creates ``MADE.txt`` and
  deletes ``NOTES.md``.
* ``generate`` runs one command that writes 40 files (``ACP_DEMO_FILES``) in ``generated/``;
  ``remove-generated`` deletes that folder.

A client error (a refused write, a missing file, a timeout) fails that tool call with the
client's message and the turn goes on; a rejected permission ends the turn (``end_turn``); a
``cancelled`` permission outcome ends it with ``cancelled``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from acp_editor.demo_agent import editor_context, elicit
from acp_editor.demo_agent.display_terminals import run_displayed
from acp_editor.demo_agent.turn import Turn, TurnStopped, text_item
from acp_editor.errors import RpcError

HELLO = "hello.py"
NOTES = "NOTES.md"
SHELL_COMMAND = "echo hello from the demo agent && ls"
LONG_COMMAND = "sleep 60 & sleep 60; wait"
MADE = "MADE.txt"
FILES_COMMAND = (
    f"sed -i 's/world/the files/' {HELLO} && printf 'made by a command\\n' > {MADE} "
    f"&& rm -f {NOTES} && echo changed three files"
)
GENERATED = "generated"
GENERATE_COMMAND = (
    f"n=${{ACP_DEMO_FILES:-40}}; mkdir -p {GENERATED} && stamp=$(date +%s%N) && i=0 && "
    f"while [ $i -lt $n ]; do i=$((i+1)); "
    f"printf 'export const n = %s; // %s\\n' $i $stamp > {GENERATED}/file$i.js; done "
    f"&& echo wrote $n files in {GENERATED}/"
)
"""A code generator: ACP_DEMO_FILES files (40 unless set) in ``generated/``, created the first
time and all changed the next (a bulk change, reviewed as one group)."""
REMOVE_GENERATED_COMMAND = f"rm -rf {GENERATED} && echo removed {GENERATED}/"
READ_LIMIT = 20
EDIT_LINE = 'print("edited by the demo agent")\n'
NEW_HELLO = 'print("hello from the demo agent")\n'
NOTE_LINE = "- The demo agent was here.\n"
HUNK_MARK = "  # reviewed by the demo agent"

Scenario = Callable[[Turn], Awaitable[None]]


async def read(turn: Turn) -> None:
    """Announce the read twice (empty input first, as real agents do), then read via the client."""
    path, tid = turn.path(HELLO), turn.new_id("read")
    await turn.tool_call(
        tid, {"title": "Read", "kind": "read", "status": "pending", "rawInput": {}}
    )
    await turn.pause()
    await turn.tool_call(
        tid,
        {
            "title": f"Read {HELLO} (lines 1-{READ_LIMIT})",
            "kind": "read",
            "status": "pending",
            "rawInput": {"path": path, "line": 1, "limit": READ_LIMIT},
            "locations": [{"path": path, "line": 1}],
        },
    )
    async with turn.tool_errors(tid, f"Reading {HELLO}"):
        await turn.tool_update(tid, {"status": "in_progress"})
        text = await turn.read_file(path, line=1, limit=READ_LIMIT)
        await turn.tool_update(tid, {"status": "completed", "content": [text_item(text)]})


async def edit(turn: Turn) -> None:
    """Propose a whole-file diff, ask with all four option kinds, write only when allowed."""
    path, tid = turn.path(HELLO), turn.new_id("edit")
    async with turn.tool_errors(tid, f"Editing {HELLO}"):
        old = await turn.read_optional(path)
        new = NEW_HELLO if old is None else _with_newline(old) + EDIT_LINE
        await _propose_and_write(turn, tid, f"Edit {HELLO}", path, old, new, new.count("\n"))


async def hunks(turn: Turn) -> None:
    """An edit with two separate hunks (the first line and the end), to review one by one."""
    path, tid = turn.path(HELLO), turn.new_id("edit")
    async with turn.tool_errors(tid, f"Editing {HELLO}"):
        old = await turn.read_optional(path)
        if old is None:
            raise RpcError(f"{HELLO} does not exist")
        lines = old.splitlines(keepends=True)
        first = lines[0].rstrip("\r\n")
        lines[0] = lines[0].replace(first, first + HUNK_MARK, 1)
        new = _with_newline("".join(lines)) + EDIT_LINE
        await _propose_and_write(turn, tid, f"Edit {HELLO} in two places", path, old, new, 1)


async def _propose_and_write(
    turn: Turn, tid: str, title: str, path: str, old: str | None, new: str, line: int
) -> None:
    """Announce an edit with its diff and location, ask, then write (through the client, or
    straight to disk with ``--writes-itself``)."""
    await turn.tool_call(
        tid,
        {
            "title": title,
            "kind": "edit",
            "status": "pending",
            "content": [{"type": "diff", "path": path, "oldText": old, "newText": new}],
            "locations": [{"path": path, "line": line}],
            "rawInput": {"path": path, "newText": new},
        },
    )
    await turn.permit(tid, {"toolCallId": tid, "title": f"Edit {HELLO}"}, f"edit of {HELLO}")
    await turn.tool_update(tid, {"status": "in_progress"})
    await turn.write_file(path, new)
    await turn.tool_update(tid, {"status": "completed"})


async def early_permission(turn: Turn) -> None:
    """Ask before any ``tool_call`` exists, carrying the whole call; later updates name its id."""
    path, tid = turn.path(NOTES), turn.new_id("write")
    async with turn.tool_errors(tid, f"Writing {NOTES}"):
        old = await turn.read_optional(path)
        new = ("# Notes\n" if old is None else _with_newline(old)) + NOTE_LINE
        tool = {
            "toolCallId": tid,
            "title": f"Write {NOTES}",
            "kind": "edit",
            "status": "pending",
            "content": [{"type": "diff", "path": path, "oldText": old, "newText": new}],
            "locations": [{"path": path, "line": new.count("\n")}],
            "rawInput": {"path": path, "content": new},
        }
        await turn.permit(tid, tool, f"write to {NOTES}")
        await turn.tool_update(tid, {"status": "in_progress"})
        await turn.write_file(path, new)
        await turn.tool_update(tid, {"status": "completed"})


async def shell(turn: Turn) -> None:
    """A whole command line in ``command`` and no ``args``, shown live as a terminal."""
    await _run_command(turn, SHELL_COMMAND, "The command")


async def long_shell(turn: Turn) -> None:
    """A command that runs for a minute, in a client terminal: for tests of what dies with what."""
    await _run_command(turn, LONG_COMMAND, "The long command")


async def _run_command(turn: Turn, command: str, what: str) -> None:
    """Run ``command`` in a client terminal shown in an execute tool call; report its output."""
    tid = turn.new_id("shell")
    if turn.version >= 2:  # no client terminals: run it ourselves, shown as it runs
        await turn.tool_call(tid, _command_call(command))
        code, text, shown = await run_displayed(turn, tid, command)
        await _command_done(turn, tid, code, text, [shown])
        return
    async with turn.tool_errors(tid, what):
        terminal_id = await turn.create_terminal(command)
        terminal = {"type": "terminal", "terminalId": terminal_id}
        try:
            await turn.tool_call(tid, {**_command_call(command), "content": [terminal]})
            exit_status = await turn.terminal_call("terminal/wait_for_exit", terminal_id)
            output = await turn.terminal_call("terminal/output", terminal_id)
        finally:
            await turn.release_terminal(terminal_id)
        text = str(output.get("output", ""))
        await _command_done(turn, tid, exit_status.get("exitCode"), text, [terminal])


def _command_call(command: str) -> dict[str, Any]:
    return {
        "title": f"Run `{command}`",
        "kind": "execute",
        "status": "in_progress",
        "rawInput": {"command": command},
    }


async def _command_done(
    turn: Turn, tid: str, code: Any, text: str, shown: list[dict[str, Any]] | None = None
) -> None:
    await turn.tool_update(
        tid,
        {
            "status": "completed" if code == 0 else "failed",
            "content": [*(shown or []), text_item(text)],
            "rawOutput": {"exitCode": code, "output": text},
        },
    )


async def files(turn: Turn) -> None:
    """One shell command that changes, creates and deletes files: no edit tool call names them,
    so only comparing the workspace before and after shows what it did. Run by the agent itself
    with ``--writes-itself`` (as current agents do), else in a client terminal."""
    await _change_files(turn, FILES_COMMAND, linger=0)


async def slow_files(turn: Turn) -> None:
    """``files``, then the tool call keeps running (a build, a watcher): what it changed must
    show while it runs, not only when it ends."""
    await _change_files(turn, FILES_COMMAND, linger=turn.wait_seconds)


async def generate(turn: Turn) -> None:
    """A command that writes many files at once (``GENERATE_COMMAND``)."""
    await _change_files(turn, GENERATE_COMMAND, linger=0)


async def remove_generated(turn: Turn) -> None:
    """A command that deletes what ``generate`` wrote."""
    await _change_files(turn, REMOVE_GENERATED_COMMAND, linger=0)


async def _change_files(turn: Turn, command: str, linger: float) -> None:
    if not turn.writes_itself:
        lingering = f"{command} && sleep {linger:g}" if linger else command
        await _run_command(turn, lingering, "The command")
        return
    tid = turn.new_id("shell")
    fields = {"title": f"Run `{command}`", "kind": "execute", "status": "in_progress"}
    await turn.tool_call(tid, {**fields, "rawInput": {"command": command}})
    code, text = await turn.run_itself(command)
    await asyncio.sleep(linger)  # here, not in the shell: a cancelled turn leaves no sleeper
    await turn.tool_update(
        tid,
        {
            "status": "completed" if code == 0 else "failed",
            "content": [text_item(text)],
            "rawOutput": {"exitCode": code, "output": text},
        },
    )


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
    """A long tool call (even when the agent runs fast) that gives time to cancel mid-turn."""
    tid = turn.new_id("wait")
    seconds = turn.wait_seconds
    title = f"Wait {seconds:g} s (cancel me)"
    await turn.tool_call(tid, {"title": title, "kind": "other", "status": "in_progress"})
    await asyncio.sleep(seconds)
    await turn.tool_update(tid, {"status": "completed"})


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
    "long-shell": (long_shell, "Run a command for a minute in a client terminal"),
    "files": (files, f"Change {HELLO}, create {MADE} and delete {NOTES} with one command"),
    "slow-files": (slow_files, "The same, then the command keeps running (cancel me)"),
    "generate": (generate, f"Write many files in {GENERATED}/ with one command (a bulk change)"),
    "remove-generated": (remove_generated, f"Delete {GENERATED}/ with one command"),
    "ask-form": (elicit.ask_form, "Ask you a question with a form (elicitation)"),
    "ask-page": (elicit.ask_page, "Ask you to open a web page (URL elicitation)"),
    "look": (editor_context.look, "Look at your open buffers through the editor MCP server"),
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


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
