"""The scripted demo agent with the switches only tests need: ``python tests/agents/scripted.py``.

It is the product's agent (``acp_editor.demo.agent``): the same parser, flags, methods and
scenarios, served by the same ``serve``. On top it takes switches that no demo user wants, each
reproducing an awkward agent so the client's handling of it can be tested against a real process:

* ``--fast``: no streaming delays, so turns end as soon as the client has read them.
* ``--slow``: every turn starts with the ``wait`` scenario (there is always a turn to cancel).
* ``--answer-version N``: answer ``initialize`` with protocol version N, whatever was asked.
* ``--stderr-flood BYTES``: write BYTES to stderr before serving, blocking until it is read.
* ``--ignore-stdin-eof``: outlive stdin EOF and SIGTERM, with a child that ignores SIGTERM too.
* ``--record FILE``: append every message received from the client to FILE, one JSON per line.
* ``--mcp TRANSPORT`` (repeatable): advertise MCP servers over TRANSPORT (``stdio``, ``http``,
  ``acp``) instead of the demo's MCP-over-ACP.

Tests start it by file path with a temporary working directory, so it imports only
``acp_editor`` (installed in the venv), never ``tests``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from acp_editor import log as logs
from acp_editor.agent.rpc import Tracer
from acp_editor.demo import agent
from acp_editor.demo.agent_prompts import Tuning

log = logs.get_logger("tests.agents.scripted")
_STUBBORN: list[subprocess.Popen[bytes]] = []
"""Children of ``--ignore-stdin-eof``: kept referenced (never waited for) until a group kill."""


@dataclass(frozen=True)
class Switches:
    """The test-only switches, parsed; the product's flags stay in ``agent.Options``."""

    tuning: Tuning
    stderr_flood: int = 0
    ignore_stdin_eof: bool = False
    record: str | None = None


def parse_args(argv: Sequence[str] | None = None) -> tuple[agent.Options, Switches]:
    p = agent.parser(prog="tests/agents/scripted.py")
    tests = p.add_argument_group("test-only switches")
    tests.add_argument("--fast", action="store_true", help="no streaming delays")
    tests.add_argument("--slow", action="store_true", help="start every turn with 'wait'")
    tests.add_argument(
        "--answer-version", type=int, metavar="N", help="answer initialize with version N"
    )
    tests.add_argument(
        "--stderr-flood", type=int, default=0, metavar="BYTES", help="write BYTES to stderr first"
    )
    tests.add_argument(
        "--ignore-stdin-eof",
        action="store_true",
        help="outlive stdin EOF and SIGTERM, with a 'sleep 1000' child doing the same",
    )
    tests.add_argument("--record", metavar="FILE", help="append each received message as JSON")
    tests.add_argument(
        "--mcp", action="append", default=[], metavar="TRANSPORT", help="advertise MCP over it"
    )
    a = p.parse_args(argv)
    tuning = Tuning(
        fast=a.fast,
        wait_first=a.slow,
        answer_version=a.answer_version,
        mcp_transports=tuple(a.mcp) if a.mcp else None,
    )
    switches = Switches(
        tuning=tuning,
        stderr_flood=max(0, a.stderr_flood),
        ignore_stdin_eof=a.ignore_stdin_eof,
        record=a.record,
    )
    return agent.options(a), switches


def flood_stderr(size: int) -> None:
    """Write ``size`` bytes of log-like lines to stderr, blocking until the reader takes them:
    a client that does not drain the agent's stderr hangs here, which is the point."""
    line = b"demo agent stderr flood " + b"." * 87 + b"\n"
    out = sys.stderr.buffer
    left = size
    while left > 0:
        block = (line * (65536 // len(line) + 1))[: min(left, 65536)]
        out.write(block)
        left -= len(block)
    out.flush()


def start_stubborn_child() -> None:
    """A child in our process group that, like us, ignores SIGTERM (SIG_IGN survives exec):
    only a SIGKILL of the whole group ends both."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen(
        ["sleep", "1000"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    log.warning("ignoring SIGTERM and stdin EOF; child 'sleep 1000' has pid %d", child.pid)
    _STUBBORN.append(child)


def recorder(fh: IO[str]) -> Tracer:
    """A peer tracer appending every message received from the client to ``fh`` as JSON."""

    def trace(direction: str, message: dict[str, Any]) -> None:
        if direction == "recv":
            fh.write(json.dumps(message, ensure_ascii=False) + "\n")

    return trace


async def serve(
    opts: agent.Options, switches: Switches, stdin: IO[bytes], stdout: IO[bytes]
) -> int:
    """The product's ``serve``, with the misbehaviour the switches ask for around it."""
    if switches.stderr_flood:
        flood_stderr(switches.stderr_flood)
    if switches.ignore_stdin_eof:
        start_stubborn_child()
    with contextlib.ExitStack() as stack:
        tracers: list[Tracer] = []
        if switches.record:
            # Line-buffered: a test reads the file while the agent still runs.
            fh = stack.enter_context(open(switches.record, "a", encoding="utf-8", buffering=1))
            tracers.append(recorder(fh))
        code = await agent.serve(opts, stdin, stdout, tuning=switches.tuning, tracers=tracers)
    if switches.ignore_stdin_eof:
        log.warning("stdin closed; staying alive on purpose (--ignore-stdin-eof)")
        await asyncio.Event().wait()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    opts, switches = parse_args(argv)
    return agent.run(opts, lambda stdin, stdout: serve(opts, switches, stdin, stdout))


if __name__ == "__main__":
    sys.exit(main())
