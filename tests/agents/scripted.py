"""The scripted demo agent with the switches only tests need: ``python tests/agents/scripted.py``.

It is the product's agent (``acp_editor.demo_agent``): the same parser, flags, methods and
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
* ``--mcp-at-new``: start every stdio and HTTP MCP server ``session/new`` names *before*
  answering it (connect, initialize, list its tools: the official MCP SDK's client, as real
  agents use one), and fail ``session/new`` with ``Internal error`` naming the server in
  ``data.details`` when one fails, as fast-agent does (gemini-cli, opencode and claude-code-acp
  also start them before answering, but go on without a failed one). Once answered, the session
  is told what was started, in an agent message.
* ``--reads-disk``: read files from the disk itself instead of ``fs/read_text_file``, but still
  write through ``fs/write_text_file`` (opencode's pattern): its writes are made from the disk's
  text, never from an unsaved buffer.
* ``--writes-twice``: write each file to the disk itself, then send ``fs/write_text_file`` of
  the same text (opencode 1.18's pattern): one change, told twice.
* ``--mcp-drop-secrets``: with ``--mcp-at-new``, start the servers without the ``env`` and
  ``headers`` they were given (their tokens): an agent that loses them, or a server that
  cannot start.
* ``--mcp-connect``: the ``look`` scenario speaks MCP-over-ACP as agents did before ACP schema
  1.24 (``mcp/connect``, ``mcp/message`` by ``connectionId``, ``mcp/disconnect``) instead of
  the request-scoped ``mcp/message``.
* ``--notice-at-new``: send a notice right after answering ``session/new``, before any prompt
  (an agent message to a client without ``session.notices``).
* ``--scripts``: a prompt ``script <json>`` does exactly the file work its JSON lists
  (``tests/agents/script_ops.py``), for the model-based review test.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from acp_editor import log as logs
from acp_editor.agent.link.rpc import Tracer
from acp_editor.demo_agent.scenarios import editor_context, words
from acp_editor.demo_agent.server import cli
from acp_editor.demo_agent.server.methods import ScriptedAgent
from acp_editor.demo_agent.server.prompts import Tuning
from acp_editor.errors import InternalError, ResourceNotFound

log = logs.get_logger("tests.agents.scripted")
_STUBBORN: list[subprocess.Popen[bytes]] = []
"""Children of ``--ignore-stdin-eof``: kept referenced (never waited for) until a group kill."""


@dataclass(frozen=True)
class Switches:
    """The test-only switches, parsed; the product's flags stay in ``cli.Options``."""

    tuning: Tuning
    stderr_flood: int = 0
    ignore_stdin_eof: bool = False
    record: str | None = None
    mcp_at_new: bool = False
    mcp_drop_secrets: bool = False
    reads_disk: bool = False
    writes_twice: bool = False
    mcp_connect: bool = False
    scripts: bool = False


def parse_args(argv: Sequence[str] | None = None) -> tuple[cli.Options, Switches]:
    p = cli.parser(prog="tests/agents/scripted.py")
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
    tests.add_argument(
        "--mcp-at-new", action="store_true", help="start MCP servers before answering session/new"
    )
    tests.add_argument(
        "--mcp-drop-secrets", action="store_true", help="start them without their env and headers"
    )
    tests.add_argument(
        "--reads-disk", action="store_true", help="read the disk itself, write through fs/*"
    )
    tests.add_argument(
        "--writes-twice", action="store_true", help="write the disk, then fs/* the same text"
    )
    tests.add_argument(
        "--mcp-connect", action="store_true", help="'look' speaks MCP-over-ACP's old shape"
    )
    tests.add_argument(
        "--notice-at-new", action="store_true", help="a notice right after session/new"
    )
    tests.add_argument("--scripts", action="store_true", help="run 'script <json>' prompts")
    a = p.parse_args(argv)
    tuning = Tuning(
        fast=a.fast,
        wait_first=a.slow,
        answer_version=a.answer_version,
        mcp_transports=tuple(a.mcp) if a.mcp else None,
        notice_at_new=a.notice_at_new,
    )
    switches = Switches(
        tuning=tuning,
        stderr_flood=max(0, a.stderr_flood),
        ignore_stdin_eof=a.ignore_stdin_eof,
        record=a.record,
        mcp_at_new=a.mcp_at_new,
        mcp_drop_secrets=a.mcp_drop_secrets,
        reads_disk=a.reads_disk,
        writes_twice=a.writes_twice,
        mcp_connect=a.mcp_connect,
        scripts=a.scripts,
    )
    return cli.options(a), switches


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


MCP_START_TIMEOUT = 60.0


async def list_tools(server: dict[str, Any], drop_secrets: bool) -> list[str]:
    """Start one MCP server as an agent does and list its tools (then stop it again)."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    if server.get("type", "stdio") == "http":
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        given = {h["name"]: h["value"] for h in server.get("headers", [])}
        headers = {} if drop_secrets else given
        async with (
            create_mcp_http_client(headers=headers) as http,
            streamable_http_client(server["url"], http_client=http) as (read, write, *_),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return [t.name for t in (await session.list_tools()).tools]
    env = {e["name"]: e["value"] for e in server.get("env", [])}
    params = StdioServerParameters(
        command=server["command"], args=server.get("args", []), env=None if drop_secrets else env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return [t.name for t in (await session.list_tools()).tools]


def start_servers_first(scripted: ScriptedAgent, drop_secrets: bool) -> None:
    """``session/new`` starts the servers it names before it answers (``--mcp-at-new``)."""
    answer = scripted.new_session

    async def new_session(params: Any) -> dict[str, Any]:
        servers = params.get("mcpServers", []) if isinstance(params, dict) else []
        started = []
        for server in servers:
            if server.get("type", "stdio") not in ("stdio", "http"):
                continue
            name = server.get("name")
            try:
                tools = await asyncio.wait_for(list_tools(server, drop_secrets), MCP_START_TIMEOUT)
            except Exception as exc:  # as fast-agent: a server that fails fails the session
                detail = f"MCP Server: '{name}': Failed to initialize - {exc!r}"
                raise InternalError(data={"details": detail}) from exc
            started.append(f"{name} ({', '.join(sorted(tools))})")
        result = await answer(params)
        said = "MCP servers started before answering session/new: " + ("; ".join(started) or "none")
        update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": said}}
        note = {"sessionId": result["sessionId"], "update": update}
        scripted._after_answer(scripted.peer.notify("session/update", note))
        return result

    scripted.peer.on_request("session/new", new_session)


def read_the_disk(scripted: ScriptedAgent) -> None:
    """``fs/read_text_file`` is answered from the disk by the agent itself (``--reads-disk``):
    the client never sees the read, as with opencode."""
    ask = scripted.peer.request

    async def request(method: str, params: Any = None, **kw: Any) -> Any:
        if method != "fs/read_text_file":
            return await ask(method, params, **kw)
        try:
            text = Path(params["path"]).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ResourceNotFound(f"file not found: {params['path']}") from None
        return {"content": text}

    scripted.peer.request = request  # type: ignore[method-assign]


def write_twice(scripted: ScriptedAgent) -> None:
    """``fs/write_text_file`` is preceded by the agent's own write of the same text to the disk
    (``--writes-twice``): the client finds the change on disk and is then asked to make it."""
    ask = scripted.peer.request

    async def request(method: str, params: Any = None, **kw: Any) -> Any:
        if method == "fs/write_text_file":
            path = Path(params["path"])
            await asyncio.to_thread(path.write_text, params["content"], encoding="utf-8")
        return await ask(method, params, **kw)

    scripted.peer.request = request  # type: ignore[method-assign]


def connects_first(_scripted: ScriptedAgent) -> None:
    """``look`` opens a connection with ``mcp/connect`` first (``--mcp-connect``): the shape of
    MCP-over-ACP before ACP schema 1.24, which clients still serve."""
    _, about = words.SCENARIOS["look"]
    words.SCENARIOS["look"] = (editor_context.look_connected, about)


def bends(switches: Switches) -> Callable[[ScriptedAgent], None] | None:
    """The handlers the switches replace, once the agent registered its own."""
    chosen: list[Callable[[ScriptedAgent], None]] = []
    if switches.mcp_at_new:
        chosen.append(lambda scripted: start_servers_first(scripted, switches.mcp_drop_secrets))
    if switches.reads_disk:
        chosen.append(read_the_disk)
    if switches.writes_twice:
        chosen.append(write_twice)
    if switches.mcp_connect:
        chosen.append(connects_first)
    if not chosen:
        return None

    def bend(scripted: ScriptedAgent) -> None:
        for one in chosen:
            one(scripted)

    return bend


async def serve(opts: cli.Options, switches: Switches, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The product's ``serve``, with the misbehaviour the switches ask for around it."""
    if switches.stderr_flood:
        flood_stderr(switches.stderr_flood)
    if switches.ignore_stdin_eof:
        start_stubborn_child()
    if switches.scripts:  # a sibling module: this file runs by path, with tests/agents on sys.path
        from script_ops import scripts_first

        scripts_first()
    with contextlib.ExitStack() as stack:
        tracers: list[Tracer] = []
        if switches.record:
            # Line-buffered: a test reads the file while the agent still runs.
            fh = stack.enter_context(open(switches.record, "a", encoding="utf-8", buffering=1))
            tracers.append(recorder(fh))
        code = await cli.serve(
            opts, stdin, stdout, tuning=switches.tuning, tracers=tracers, bend=bends(switches)
        )
    if switches.ignore_stdin_eof:
        log.warning("stdin closed; staying alive on purpose (--ignore-stdin-eof)")
        await asyncio.Event().wait()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    opts, switches = parse_args(argv)
    return cli.run(opts, lambda stdin, stdout: serve(opts, switches, stdin, stdout))


if __name__ == "__main__":
    sys.exit(main())
