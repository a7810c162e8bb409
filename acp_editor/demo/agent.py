"""The project's scripted ACP agent: a real agent process with no model behind it.

``acp-editor demo`` runs it as the built-in agent and the tests use it for scripted scenarios, so
it speaks ACP over stdio exactly as an agent would: ``initialize``, ``authenticate``,
``session/new``/``load``/``list``/``close``/``set_mode``/``set_config_option``/``prompt`` and the
``session/cancel`` notification. What a prompt does is chosen by its words (see ``scenarios``).
The flags reproduce awkward agents on purpose (auth, a wrong version, a stderr flood, ignoring
stdin EOF and SIGTERM), so the client's handling of each can be tested against a real process.

stdout carries only protocol lines: ``sys.stdout`` is pointed at stderr before serving, so a
stray ``print`` cannot corrupt the stream.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from acp_editor import log as logs
from acp_editor.agent.rpc import JsonRpcPeer, Writer
from acp_editor.demo.agent_methods import ScriptedAgent

log = logs.get_logger("demo.agent")
_STUBBORN: list[subprocess.Popen[bytes]] = []


@dataclass(frozen=True)
class Options:
    """The command line, parsed: see ``parse_args`` for what each flag is for."""

    require_auth: bool = False
    answer_version: int | None = None
    stderr_flood: int = 0
    ignore_stdin_eof: bool = False
    record: str | None = None
    fast: bool = False
    slow: bool = False
    wait_seconds: float = 30.0
    login: bool = False
    log_level: str = "WARNING"
    writes_itself: bool = False
    state_dir: str | None = None


def parse_args(argv: Sequence[str] | None = None) -> Options:
    p = argparse.ArgumentParser(
        prog="python -m acp_editor.demo.agent",
        description="A scripted ACP agent on stdio (prompt words choose scenarios).",
    )
    p.add_argument(
        "--require-auth",
        action="store_true",
        help="session/new and session/load fail with -32000 until authenticate",
    )
    p.add_argument(
        "--answer-version", type=int, metavar="N", help="answer initialize with version N"
    )
    p.add_argument(
        "--stderr-flood", type=int, default=0, metavar="BYTES", help="write BYTES to stderr first"
    )
    p.add_argument(
        "--ignore-stdin-eof",
        action="store_true",
        help="outlive stdin EOF and SIGTERM, with a 'sleep 1000' child doing the same",
    )
    p.add_argument("--record", metavar="FILE", help="append each received message as JSON")
    p.add_argument("--fast", action="store_true", help="no streaming delays (for tests)")
    p.add_argument("--slow", action="store_true", help="start every turn with the wait scenario")
    p.add_argument(
        "--wait-seconds", type=float, default=30.0, help="how long 'wait' waits (default 30)"
    )
    p.add_argument("--login", action="store_true", help="the terminal login flow: report, exit 0")
    p.add_argument(
        "--state-dir",
        metavar="DIR",
        help="keep sessions in DIR across restarts (for session/load after a crash)",
    )
    p.add_argument(
        "--writes-itself",
        action="store_true",
        help="read and write files directly on disk, reporting only diffs (as many agents do)",
    )
    p.add_argument("--log-level", default="WARNING", help="stderr log level (default WARNING)")
    a = p.parse_args(argv)
    return Options(
        require_auth=a.require_auth,
        answer_version=a.answer_version,
        stderr_flood=max(0, a.stderr_flood),
        ignore_stdin_eof=a.ignore_stdin_eof,
        record=a.record,
        fast=a.fast,
        slow=a.slow,
        wait_seconds=max(0.0, a.wait_seconds),
        login=a.login,
        log_level=a.log_level,
        writes_itself=a.writes_itself,
        state_dir=a.state_dir,
    )


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
    _STUBBORN.append(child)  # never waited for: only a group SIGKILL ends it


def recorder(path: str) -> tuple[Callable[[str, dict[str, Any]], None], IO[str]]:
    """A peer tracer appending every message received from the client as one JSON line."""
    fh = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (closed by serve)

    def trace(direction: str, message: dict[str, Any]) -> None:
        if direction == "recv":
            fh.write(json.dumps(message, ensure_ascii=False) + "\n")

    return trace, fh


async def _connect(stdin: IO[bytes], stdout: IO[bytes]) -> tuple[asyncio.StreamReader, Writer]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    try:
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, stdout
        )
    except ValueError:  # a regular file: plain blocking writes are fine there

        def write(data: bytes) -> None:
            stdout.write(data)

        async def flush() -> None:
            stdout.flush()

        return reader, Writer(write, flush)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return reader, Writer(writer.write, writer.drain)


async def serve(opts: Options, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Serve one client until stdin closes (or, with ``--ignore-stdin-eof``, until killed)."""
    reader, writer = await _connect(stdin, stdout)
    peer = JsonRpcPeer("client", writer)
    record = None
    if opts.record:
        trace, record = recorder(opts.record)
        peer.tracers.append(trace)
    agent = ScriptedAgent(
        peer,
        require_auth=opts.require_auth,
        answer_version=opts.answer_version,
        fast=opts.fast,
        slow=opts.slow,
        wait_seconds=opts.wait_seconds,
        writes_itself=opts.writes_itself,
        state_dir=opts.state_dir,
    )
    agent.register()
    try:
        await peer.run(reader)
        if opts.ignore_stdin_eof:
            log.warning("stdin closed; staying alive on purpose (--ignore-stdin-eof)")
            await asyncio.Event().wait()
    finally:
        await agent.shutdown()
        if record is not None:
            record.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    opts = parse_args(argv)
    logs.configure(opts.log_level)
    if opts.login:
        sys.stderr.write("demo agent: logged in (nothing to do).\n")
        return 0
    if opts.stderr_flood:
        flood_stderr(opts.stderr_flood)
    if opts.ignore_stdin_eof:
        start_stubborn_child()
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # only protocol lines may reach the real stdout
    try:
        return asyncio.run(serve(opts, sys.stdin.buffer, stdout))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
