"""What the editor-context MCP server adds to ``session/new``, measured in one run.

    python bench/session_new.py [--runs 30] [--transport stdio|acp|http]

One agent process (the scripted agent, ``--fast``, advertising one MCP transport) and one
client; sessions are created one after another, alternately without and with the ``editor``
server in ``mcpServers`` (a token minted, the socket started at the first stdio one, the token
bound once the answer names the session), so both meet the same machine state. Prints the
medians and their difference; the goal is at most +50 ms. The agent does not start or connect to
the MCP server here (the scripted agent ignores ``mcpServers``): real agents start it in the
background, after ``session/new`` answered (claude-agent-acp's ``session/new`` took 0.60 s with a
server that sleeps 3 s before answering, 0.61-0.66 s with none, measured when this was written).

``--transport http``: the agent (``tests/agents/scripted.py --mcp http`` on the v2 draft) takes
only HTTP servers, so the sidecar serves the tools itself on 127.0.0.1. The endpoint starts in
the background once ``initialize`` says so (the MCP SDK and uvicorn imported in a thread); the
first session, asked for at once here, waits for the rest of that start, printed apart.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments


class NoBuffers:
    """An editor with nothing open: the tools are never called here."""

    open_documents: Mapping[str, Any] = {}

    async def apply_edit(self, *args: Any) -> tuple[bool, str | None]:
        return False, "not in this benchmark"


REPO = Path(__file__).resolve().parents[1]


def agent_config(transport: str) -> AgentConfig:
    """The scripted agent advertising only ``transport`` (v1 takes stdio whatever it says, so
    HTTP alone needs the v2 draft)."""
    scripted = [sys.executable, str(REPO / "tests" / "agents" / "scripted.py"), "--fast"]
    version = 2 if transport == "http" else 1
    return AgentConfig(command=[*scripted, "--mcp", transport], protocol_version=version)


async def run(runs: int, transport: str) -> tuple[list[float], list[float]]:
    context = ContextServer(ContextTools(EditorDocuments(NoBuffers()), lambda: None))
    plain = AcpClient(agent_config(transport))
    with_server = AcpClient(replace(agent_config(transport), editor_context=context))
    times: tuple[list[float], list[float]] = ([], [])
    with tempfile.TemporaryDirectory() as workspace:
        try:
            for client in (plain, with_server):
                await client.start(workspace)
            for _ in range(runs):
                for client, into in ((plain, times[0]), (with_server, times[1])):
                    began = time.perf_counter()
                    await client.new_session(workspace)
                    into.append((time.perf_counter() - began) * 1000)
        finally:
            for client in (plain, with_server):
                await client.shutdown()
            await context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--transport", choices=("stdio", "acp", "http"), default="stdio")
    args = parser.parse_args()
    without, with_server = asyncio.run(run(args.runs, args.transport))
    a, b = statistics.median(without), statistics.median(with_server)
    print(f"command: python bench/session_new.py --runs {args.runs} --transport {args.transport}")
    print(f"session/new without the editor server  median {a:6.2f} ms")
    print(f"session/new with the editor server      median {b:6.2f} ms")
    print(f"the editor server adds {b - a:+.2f} ms (goal: at most +50 ms); ratio {b / a:.2f}")
    first = with_server[0] - without[0]
    print(f"the first session (the socket or endpoint starts then) adds {first:+.2f} ms")


if __name__ == "__main__":
    main()
