"""The ``acp-editor mcp`` bridge as an agent runs it: a real process on the sidecar's real
socket. An agent that closes its pipes at shutdown, while an answer is on its way, must find
the bridge gone quietly: exit 0, no traceback in the agent's log (fast-agent showed one)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from acp_editor.context.bridge import agent_hung_up
from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments
from tests.support.fake_editor import FakeChannel


@pytest.fixture
async def server() -> AsyncIterator[ContextServer]:
    served = ContextServer(ContextTools(EditorDocuments(FakeChannel()), lambda: None))
    yield served
    await served.close()


def line(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


INITIALIZE = {
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "an agent", "version": "1"},
    },
}


async def test_the_agent_closing_its_pipes_ends_the_bridge_quietly(
    server: ContextServer, tmp_path: Path
) -> None:
    entry, _token = await server.entry([str(tmp_path)])
    env = {**os.environ, **{e["name"]: e["value"] for e in entry["env"]}}
    read_end, write_end = os.pipe()  # the bridge's stdout, whose reading end the agent holds
    bridge = await asyncio.create_subprocess_exec(
        entry["command"],
        *entry["args"],
        stdin=subprocess.PIPE,
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(write_end)
    assert bridge.stdin is not None and bridge.stderr is not None
    with os.fdopen(read_end, "rb") as answers:
        bridge.stdin.write(line(INITIALIZE))
        await bridge.stdin.drain()
        hello = await asyncio.wait_for(asyncio.to_thread(answers.readline), 10)
        assert json.loads(hello)["id"] == 1
    # The agent shuts down: its reading end is closed, then its writing end, and what it
    # asked last gets answered into the closed pipe.
    bridge.stdin.write(line({"method": "notifications/initialized"}))
    bridge.stdin.write(line({"id": 2, "method": "tools/list"}))
    await bridge.stdin.drain()
    bridge.stdin.close()
    code = await asyncio.wait_for(bridge.wait(), 10)
    said = (await bridge.stderr.read()).decode()
    assert (code, said) == (0, "")


def test_only_a_closed_pipe_counts_as_the_agent_hanging_up() -> None:
    assert agent_hung_up(BrokenPipeError())
    assert agent_hung_up(ExceptionGroup("stdio", [BrokenPipeError(), ConnectionResetError()]))
    assert agent_hung_up(BaseExceptionGroup("outer", [ExceptionGroup("i", [BrokenPipeError()])]))
    assert not agent_hung_up(ExceptionGroup("stdio", [BrokenPipeError(), ValueError("bug")]))
    assert not agent_hung_up(OSError("no such socket"))
    assert not agent_hung_up(KeyboardInterrupt())
