"""Commands the demo agent runs itself on ACP v2 (which has no client terminals), shown live as
display terminals: ``terminal_update`` (the command, then its exit) and
``terminal_output_chunk`` (base64 output, as it comes).

Each terminal advertises ``capabilities.cancel`` while it runs: ``terminal/cancel`` stops its
shell (a command it started and left running holds on alone, in the agent's process group) and
the exit says so. ``background`` runs one that outlives its turn: listed as background work
until it exits.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import signal
from typing import TYPE_CHECKING, Any

from acp_editor.demo_agent.turn.v2 import cancel_fields, cancellable, state_update
from acp_editor.errors import ConnectionClosed

if TYPE_CHECKING:
    from acp_editor.demo_agent.turn.prompt_turn import Turn

BACKGROUND_COMMAND = "echo working in the background; sleep {seconds:g}; echo background work done"
"""``background``'s command: it lasts ``--wait-seconds``, as ``wait`` does."""


async def run_displayed(
    turn: Turn, tool_id: str, command: str
) -> tuple[int | None, str, dict[str, Any]]:
    """Run ``command`` ourselves, shown live as a display terminal of tool call ``tool_id``;
    returns its exit code, its output, and the terminal's content item."""
    terminal_id = turn.new_id("term")
    shown = {"type": "terminal", "terminalId": terminal_id}
    await turn.tool_update(tool_id, {"status": "in_progress", "content": [shown]})
    code, output = await _displayed(turn, terminal_id, command)
    return code, output, shown


async def background(turn: Turn) -> None:
    """v2: a command that goes on after its tool call returns and after the turn: the idle state
    lists its terminal as background work, and once it exits a state update no longer does.
    v1 has no background work: the agent says so."""
    if turn.version < 2:
        await turn.stream("agent_message_chunk", "Background work needs ACP v2.")
        return
    tid, terminal_id = turn.new_id("shell"), turn.new_id("term")
    command = BACKGROUND_COMMAND.format(seconds=turn.wait_seconds)
    shown = {"type": "terminal", "terminalId": terminal_id}
    title = f"Run `{command}` in the background"
    fields = {"title": title, "kind": "execute", "status": "in_progress", "content": [shown]}
    await turn.tool_call(tid, {**fields, "rawInput": {"command": command}})
    started = asyncio.Event()
    task = asyncio.ensure_future(_run_on(turn, terminal_id, command, started))
    turn.session.work.run_on(terminal_id, {"type": "terminal", "terminalId": terminal_id}, task)
    await started.wait()  # announced before any state update lists it, as the schema asks
    said = "Started; it goes on in the background."
    content = [shown, {"type": "content", "content": {"type": "text", "text": said}}]
    await turn.tool_update(tid, {"status": "completed", "content": content})


async def _run_on(turn: Turn, terminal_id: str, command: str, started: asyncio.Event) -> None:
    """The background command to its end; then it is no longer listed, which a state update
    says (``running`` while a turn runs that has not said so yet)."""
    work = turn.session.work
    try:
        await _displayed(turn, terminal_id, command, started)
    finally:
        started.set()  # also when it could not start: the turn does not wait for nothing
        work.background.pop(terminal_id, None)
    state = work.state
    if state == "idle" and turn.session.turn is not None and not turn.session.turn.done():
        state = "running"  # a prompt was taken and its turn has not said so yet
    with contextlib.suppress(ConnectionClosed):  # the client left: nobody to tell
        await turn.update(state_update(work, state))


async def _displayed(
    turn: Turn, terminal_id: str, command: str, started: asyncio.Event | None = None
) -> tuple[int | None, str]:
    """Run ``command`` shown as terminal ``terminal_id``, cancellable while it runs; its exit
    code (None when a signal ended it) and its output."""
    work, version = turn.session.work, turn.version
    with cancellable(work, terminal_id, version) as cancelled:
        announced = {"command": command, "cwd": turn.session.cwd, **cancel_fields(version, True)}
        await turn.update(
            {"sessionUpdate": "terminal_update", "terminalId": terminal_id, **announced}
        )
        if started is not None:
            started.set()
        proc, reader, pipe = await _spawn(turn, command)
        output = bytearray()
        try:
            await _until_exit(turn, terminal_id, proc, (reader, output), cancelled)
        finally:
            pipe.close()  # what it left running may hold its output open: no more reading
            if proc.returncode is None:  # cancelled: the command must not outlive the turn
                proc.kill()
                await proc.wait()
    code: int | None = proc.returncode
    ended: str | None = None
    if code is not None and code < 0:  # ended by a signal (terminal/cancel: SIGTERM)
        ended, code = signal.Signals(-code).name, None
    exit_status = {"exitCode": code, "signal": ended}
    await turn.update(
        {
            "sessionUpdate": "terminal_update",
            "terminalId": terminal_id,
            "exitStatus": exit_status,
            **cancel_fields(version, False),
        }
    )
    return code, output.decode("utf-8", errors="replace")


async def _spawn(
    turn: Turn, command: str
) -> tuple[asyncio.subprocess.Process, asyncio.StreamReader, asyncio.ReadTransport]:
    """``command`` in the session's cwd, in the agent's process group (whoever ends the agent's
    group ends it too), its output and errors on one pipe of ours rather than the process's
    own: its exit must not wait for the commands it started to let go of that pipe."""
    read_fd, write_fd = os.pipe()
    try:
        proc = await asyncio.create_subprocess_shell(
            command,
            cwd=turn.session.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=write_fd,
            stderr=write_fd,
        )
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    reader = asyncio.StreamReader()
    pipe, _ = await asyncio.get_running_loop().connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(read_fd, "rb", buffering=0)
    )
    return proc, reader, pipe


async def _until_exit(
    turn: Turn,
    terminal_id: str,
    proc: asyncio.subprocess.Process,
    read: tuple[asyncio.StreamReader, bytearray],
    cancelled: asyncio.Event,
) -> None:
    """Output as it comes until the command exits, or until ``terminal/cancel``: then its shell
    is stopped, and what it started (in the agent's process group) left to end on its own."""
    pump = asyncio.ensure_future(_pump(turn, terminal_id, *read))
    stop = asyncio.ensure_future(cancelled.wait())
    try:
        await asyncio.wait({pump, stop}, return_when=asyncio.FIRST_COMPLETED)
        if pump.done():
            await pump  # its failure, if any
            await proc.wait()
            return
        proc.terminate()
        await proc.wait()
    finally:
        for task in (pump, stop):
            task.cancel()
        await asyncio.gather(pump, stop, return_exceptions=True)


async def _pump(
    turn: Turn, terminal_id: str, reader: asyncio.StreamReader, output: bytearray
) -> None:
    while chunk := await reader.read(4096):
        output += chunk
        data = base64.b64encode(chunk).decode("ascii")
        await turn.update(
            {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id, "data": data}
        )
