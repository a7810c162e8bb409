"""The demo agent's scenarios that run shell commands: in a client terminal (``terminal/*``),
else run by the agent itself (``--writes-itself``, and the v2 draft, which has no client
terminals: shown live as display terminals). The commands, run in the session's ``cwd``:

* ``shell`` runs ``echo hello from the demo agent && ls``; ``long-shell`` runs for a minute.
* ``files`` runs one command that edits ``hello.py`` (``sed -i``), creates ``MADE.txt`` and
  deletes ``NOTES.md``: no edit tool call names them, only comparing the workspace before and
  after shows what it did.
* ``generate`` runs one command that writes 40 files (``ACP_DEMO_FILES``) in ``generated/``
  (or its subfolders: ``ACP_DEMO_FOLDERS``);
  ``remove-generated`` deletes that folder.
"""

from __future__ import annotations

import asyncio
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import HELLO, NOTES
from acp_editor.demo_agent.turn.prompt_turn import Turn, text_item
from acp_editor.demo_agent.turn.shell import run_displayed

SHELL_COMMAND = "echo hello from the demo agent && ls"
LONG_COMMAND = "sleep 60 & sleep 60; wait"
MADE = "MADE.txt"
FILES_COMMAND = (
    f"sed -i 's/world/the files/' {HELLO} && printf 'made by a command\\n' > {MADE} "
    f"&& rm -f {NOTES} && echo changed three files"
)
GENERATED = "generated"
GENERATE_COMMAND = (
    f"n=${{ACP_DEMO_FILES:-40}}; k=${{ACP_DEMO_FOLDERS:-0}}; mkdir -p {GENERATED} && "
    f"j=0 && while [ $j -lt $k ]; do mkdir -p {GENERATED}/d$j; j=$((j+1)); done && "
    f"stamp=$(date +%s%N) && i=0 && while [ $i -lt $n ]; do i=$((i+1)); d={GENERATED}; "
    f"if [ $k -gt 0 ]; then d={GENERATED}/d$((i % k)); fi; "
    f"printf 'export const n = %s; // %s\\n' $i $stamp > $d/file$i.js; done "
    f"&& echo wrote $n files in {GENERATED}/"
)
"""A code generator: ACP_DEMO_FILES files (40 unless set) in ``generated/``, created the first
time and all changed the next (a bulk change, reviewed as one group); with ACP_DEMO_FOLDERS
set, spread over that many subfolders ``generated/d0/``... (a group each, 25 files or more)."""
REMOVE_GENERATED_COMMAND = f"rm -rf {GENERATED} && echo removed {GENERATED}/"


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
