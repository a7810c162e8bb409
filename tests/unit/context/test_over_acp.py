"""The editor-context server on the MCP SDK over in-memory streams, as MCP-over-ACP reaches it:
each request's outcome is ``{"result"}`` or ``{"error"}`` (an inner error is not raised); an
agent that sends no handshake gets one made for it, one that sends ``initialize`` or MCP's 2026
per-request envelope does not; a request nobody waits for any more is withdrawn from the server;
a closed session's connection answers nothing and is closed at the next connect."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.types import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY

from acp_editor.context import over_acp
from acp_editor.context.over_acp import AcpConnection, AcpTransport
from acp_editor.context.tools import Caller
from acp_editor.errors import ConnectionClosed, RequestTimeout, RpcError
from tests.support.editor_context import HELLO, HeldSelection, unsaved_editor

TOKEN = "the-token"


class Rig:
    def __init__(self, tmp_path: Path) -> None:
        self.held = HeldSelection()
        self.path = str(tmp_path / "a.py")
        tools = unsaved_editor(tmp_path / "a.py", "on disk\n", "unsaved\n", self.held)
        self.grants = {TOKEN: Caller("s1", (tmp_path.resolve(),))}
        self.transport = AcpTransport(tools, self.grants.get, self.grants.__contains__)
        self.told: list[tuple[str, Any]] = []

    async def notify(self, method: str, params: dict[str, Any] | None) -> None:
        self.told.append((method, params))

    async def connected(self) -> AcpConnection:
        return self.transport.connection(await self.transport.connect(TOKEN, self.notify))

    def read(self) -> dict[str, Any]:
        return {"name": "read_buffer", "arguments": {"path": self.path}}


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    made = Rig(tmp_path)
    yield made
    await made.transport.close()


async def test_a_request_without_a_handshake_gets_one_made_for_it(rig: Rig) -> None:
    connection = await rig.connected()
    called = await connection.request("tools/call", rig.read())
    assert called["result"]["structuredContent"]["text"] == "unsaved\n"
    refused = await connection.request("no/such", None)  # an inner error is an outcome
    assert refused["error"]["code"] == -32601 and refused["error"]["message"]
    again = await connection.request("initialize", HELLO)  # an agent may still shake hands
    assert again["result"]["serverInfo"]["name"] == "editor"


async def test_an_agent_that_shakes_hands_itself_is_left_to_it(rig: Rig) -> None:
    connection = await rig.connected()
    hello = await connection.request("initialize", HELLO)
    assert hello["result"]["protocolVersion"] == "2025-06-18"
    connection.notification("notifications/initialized", None)
    listed = await connection.request("tools/list", None)
    assert "read_buffer" in [t["name"] for t in listed["result"]["tools"]]


async def test_the_2026_per_request_envelope_needs_no_handshake(rig: Rig) -> None:
    connection = await rig.connected()
    envelope = {PROTOCOL_VERSION_META_KEY: "2026-07-28", CLIENT_CAPABILITIES_META_KEY: {}}
    listed = await connection.request("tools/list", {"_meta": envelope})
    assert "read_buffer" in [t["name"] for t in listed["result"]["tools"]]
    late = await connection.request("initialize", HELLO)  # the SDK's rule for that era
    assert "error" in late


async def test_a_request_nobody_waits_for_is_withdrawn_from_the_server(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = await rig.connected()
    asked = asyncio.ensure_future(connection.request("tools/call", {"name": "selection"}))
    await rig.held.in_flight()
    asked.cancel()
    await rig.held.given_up()  # the tool stopped: the server heard of it
    monkeypatch.setattr(over_acp, "ANSWER_TIMEOUT", 0.2)
    with pytest.raises(RequestTimeout):
        await connection.request("tools/call", {"name": "selection"})
    await rig.held.given_up()
    rig.held.release.set()
    answered = await connection.request("tools/call", {"name": "selection"})
    assert answered["result"]["isError"] is False


async def test_a_closed_sessions_connection_answers_nothing_and_goes_at_the_next_connect(
    rig: Rig,
) -> None:
    connection = await rig.connected()
    waiting = asyncio.ensure_future(connection.request("tools/call", {"name": "selection"}))
    await rig.held.in_flight()
    first = next(iter(rig.transport._connections))
    del rig.grants[TOKEN]  # the session closed
    with pytest.raises(ConnectionClosed):
        await connection.request("tools/call", rig.read())
    rig.grants[TOKEN] = Caller("s2", ())
    await rig.transport.connect(TOKEN, rig.notify)  # the old one is live again: kept
    assert first in rig.transport._connections
    del rig.grants[TOKEN]
    with pytest.raises(RpcError):
        await rig.transport.connect(TOKEN, rig.notify)
    assert rig.transport._connections == {}  # pruned, and what it still owed fails
    with pytest.raises(ConnectionClosed):
        await waiting
