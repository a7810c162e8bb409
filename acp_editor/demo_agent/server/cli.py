"""The demo agent's process: its command line, and serving one client on stdio. A real agent
process with no model behind it (``python -m acp_editor.demo_agent`` runs ``main``).

``acp-editor demo`` runs it as the built-in agent, so it speaks ACP over stdio exactly as an agent
would: ``initialize``, ``authenticate``, ``session/new``/``load``/``list``/``close``/``set_mode``/
``set_config_option``/``prompt`` and the ``session/cancel`` notification. What a prompt does is
chosen by its words (see ``scenarios``). The flags show what a user of the demo may want to see:
an agent that asks to log in (``--require-auth``) or to sign in in a terminal
(``--require-login``, whose sign-in program is ``--login``: see ``signin``), one that writes the
disk itself, sessions kept across restarts.

The switches that make it misbehave or hurry on purpose (a wrong version, a stderr flood,
ignoring stdin EOF, no delays, a record of what it received) are only in the test agent,
``tests/agents/scripted.py``, which runs this module's ``serve`` with a ``Tuning`` and tracers.

stdout carries only protocol lines: ``sys.stdout`` is pointed at stderr before serving, so a
stray ``print`` cannot corrupt the stream.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import IO, Any

from acp_editor import log as logs
from acp_editor.agent.link.rpc import JsonRpcPeer, Tracer, Writer
from acp_editor.demo_agent.server.methods import ScriptedAgent
from acp_editor.demo_agent.server.prompts import AS_IS, Tuning
from acp_editor.demo_agent.server.signin import default_login_file, login_program

Serving = Callable[[IO[bytes], IO[bytes]], Coroutine[Any, Any, int]]
"""Serves one client on (stdin, stdout) and returns the exit code."""


@dataclass(frozen=True)
class Options:
    """The command line, parsed: see ``parser`` for what each flag is for."""

    require_auth: bool = False
    require_login: bool = False
    login_file: str | None = None
    """An absolute path (None: ``signin.default_login_file()``)."""
    wait_seconds: float = 30.0
    login: bool = False
    log_level: str = "WARNING"
    writes_itself: bool = False
    state_dir: str | None = None


def parser(prog: str = "python -m acp_editor.demo_agent") -> argparse.ArgumentParser:
    """The product's flags (the test agent adds its own switches to this parser)."""
    p = argparse.ArgumentParser(
        prog=prog, description="A scripted ACP agent on stdio (prompt words choose scenarios)."
    )
    p.add_argument(
        "--require-auth",
        action="store_true",
        help="session/new and session/load fail with -32000 until authenticate",
    )
    p.add_argument(
        "--wait-seconds", type=float, default=30.0, help="how long 'wait' waits (default 30)"
    )
    p.add_argument(
        "--require-login",
        action="store_true",
        help="a terminal-only sign-in: prompts fail with -32000 until the login file exists",
    )
    p.add_argument(
        "--login",
        action="store_true",
        help="the terminal sign-in: ask for a name, write the login file, exit 0 (1: none typed)",
    )
    p.add_argument(
        "--login-file",
        metavar="FILE",
        help="where --login keeps the sign-in (default: acp-editor's state directory)",
    )
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
    return p


def options(a: argparse.Namespace) -> Options:
    """The product's flags out of what ``parser()`` (or a parser built on it) parsed."""
    return Options(
        require_auth=a.require_auth,
        require_login=a.require_login,
        login_file=os.path.abspath(a.login_file or default_login_file()),
        wait_seconds=max(0.0, a.wait_seconds),
        login=a.login,
        log_level=a.log_level,
        writes_itself=a.writes_itself,
        state_dir=a.state_dir,
    )


def parse_args(argv: Sequence[str] | None = None) -> Options:
    return options(parser().parse_args(argv))


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


async def serve(
    opts: Options,
    stdin: IO[bytes],
    stdout: IO[bytes],
    *,
    tuning: Tuning = AS_IS,
    tracers: Sequence[Tracer] = (),
    bend: Callable[[ScriptedAgent], None] | None = None,
) -> int:
    """Serve one client until stdin closes; ``tracers`` see every message either way; ``bend``
    may replace handlers once they are registered (tests' awkward agents)."""
    reader, writer = await _connect(stdin, stdout)
    peer = JsonRpcPeer("client", writer)
    peer.tracers.extend(tracers)
    agent = ScriptedAgent(
        peer,
        require_auth=opts.require_auth,
        require_login=opts.require_login,
        login_file=opts.login_file,
        wait_seconds=opts.wait_seconds,
        writes_itself=opts.writes_itself,
        state_dir=opts.state_dir,
        tuning=tuning,
    )
    agent.register()
    if bend is not None:
        bend(agent)
    try:
        await peer.run(reader)
    finally:
        await agent.shutdown()
    return 0


def run(opts: Options, serving: Serving) -> int:
    """Log as asked, then either run the terminal sign-in (``--login``) or serve stdio."""
    logs.configure(opts.log_level)
    if opts.login:
        login_file = opts.login_file or default_login_file()
        return login_program(login_file, sys.stdin, sys.stdout, sys.stderr)
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # only protocol lines may reach the real stdout
    try:
        return asyncio.run(serving(sys.stdin.buffer, stdout))
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    opts = parse_args(argv)
    return run(opts, lambda stdin, stdout: serve(opts, stdin, stdout))
