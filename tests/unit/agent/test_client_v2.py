"""The agent side against a v2 agent in memory, for what schema 1.25 adds to v2: one tool call or
one terminal cancelled only while it advertises it, the prompt's answer naming its user message,
a dismissed question answered ``cancelled``, and the agent's ``ErrorData`` said plainly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.protocol import tool_call
from tests.support.lsp import wait_until
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder
from tests.unit.agent.test_client import OPTIONS, RUN_LS, Chooses

Connect = Callable[..., Any]
CANCEL = {"cancel": {}}


@pytest.fixture
async def connect(tmp_path: Path) -> AsyncIterator[Connect]:
    clients: list[AcpClient] = []

    async def make(
        frontend: Recorder | None = None, version: int = 2
    ) -> tuple[AcpClient, MemoryAgent]:
        config = AgentConfig(command=["in-memory"], protocol_version=version, review_mode="off")
        client = AcpClient(config, frontend or Recorder())
        client.connection.root = str(tmp_path)
        ours, theirs = joined()
        agent = MemoryAgent(theirs, version)
        clients.append(client)
        await client.connect(ours)
        await client.new_session(str(tmp_path))
        return client, agent

    yield make
    for client in clients:
        await client.shutdown()


def taking(agent: MemoryAgent, method: str) -> list[Any]:
    """Every ``method`` request the agent gets is kept and answered ``{}``."""
    got: list[Any] = []

    async def take(params: Any) -> dict[str, Any]:
        got.append(params)
        return {}

    agent.peer.on_request(method, take)
    return got


async def test_a_dismissed_v2_question_is_answered_cancelled(connect: Connect) -> None:
    """Schema 1.25: ``cancelled`` also means the user dismissed it (v1 answers the reject)."""
    _client, agent = await connect(Chooses(None))
    answer = await agent.ask("s1", RUN_LS, OPTIONS)
    assert answer == {"outcome": {"outcome": "cancelled"}}


async def test_a_tool_call_is_cancelled_only_while_it_advertises_it(connect: Connect) -> None:
    client, agent = await connect()
    sent = taking(agent, "tool_call/cancel")
    call = {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress"}
    await agent.update("s1", call)
    await wait_until(lambda: client.session("s1").state.tool_call("c1") is not None)
    with pytest.raises(InvalidParams, match="does not offer"):
        await client.cancel_tool_call("s1", "c1")
    await agent.update("s1", {**call, "capabilities": CANCEL})
    await wait_until(lambda: tool_call.can_cancel(client.session("s1").state.peek_tool_call("c1")))
    await client.cancel_tool_call("s1", "c1")
    assert sent == [{"sessionId": "s1", "toolCallId": "c1"}]
    # Final, or the capability withdrawn (v2: null clears it): no longer sent.
    await agent.update("s1", {**call, "status": "cancelled"})
    await wait_until(lambda: client.session("s1").state.tool_call("c1")["status"] == "cancelled")
    with pytest.raises(InvalidParams):
        await client.cancel_tool_call("s1", "c1")
    with pytest.raises(InvalidParams, match="no tool call"):
        await client.cancel_tool_call("s1", "c9")
    assert len(sent) == 1


async def test_a_terminal_is_cancelled_only_while_it_advertises_it_and_runs(
    connect: Connect,
) -> None:
    client, agent = await connect()
    sent = taking(agent, "terminal/cancel")
    terminal = {"sessionUpdate": "terminal_update", "terminalId": "t1"}
    with pytest.raises(InvalidParams, match="no terminal"):
        await client.cancel_terminal("s1", "t1")
    await agent.update("s1", {**terminal, "command": "make", "capabilities": CANCEL})
    await wait_until(lambda: client.display.cancel_refused("s1", "t1") is None)
    await client.cancel_terminal("s1", "t1")
    assert sent == [{"sessionId": "s1", "terminalId": "t1"}]
    await agent.update("s1", {**terminal, "exitStatus": {"exitCode": None, "signal": "SIGTERM"}})
    await wait_until(lambda: client.display.cancel_refused("s1", "t1") is not None)
    with pytest.raises(InvalidParams, match="has exited"):
        await client.cancel_terminal("s1", "t1")
    assert len(sent) == 1


async def test_a_v1_agent_is_never_sent_a_v2_cancel(connect: Connect) -> None:
    client, agent = await connect(version=1)
    sent = taking(agent, "tool_call/cancel")
    call = {"sessionUpdate": "tool_call", "toolCallId": "c1", "capabilities": CANCEL}
    await agent.update("s1", call)
    await wait_until(lambda: client.session("s1").state.tool_call("c1") is not None)
    with pytest.raises(InvalidParams, match="ACP v1"):
        await client.cancel_tool_call("s1", "c1")
    with pytest.raises(InvalidParams, match="ACP v1"):
        await client.cancel_terminal("s1", "t1")
    assert sent == []


async def test_the_prompt_answer_names_the_entry_before_the_agent_echoes_it(
    connect: Connect,
) -> None:
    client, agent = await connect()
    go = asyncio.Event()
    echoing: list[asyncio.Task[None]] = []

    async def prompt(params: Any) -> dict[str, Any]:
        async def later() -> None:
            await go.wait()
            echo = {"sessionUpdate": "user_message", "messageId": "u1", "content": params["prompt"]}
            await agent.update("s1", echo)
            await agent.update("s1", {"sessionUpdate": "state_update", "state": "running"})
            idle = {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"}
            await agent.update("s1", idle)

        echoing.append(asyncio.ensure_future(later()))
        return {"messageId": "u1"}

    agent.peer.on_request("session/prompt", prompt)
    turn = asyncio.ensure_future(client.prompt("s1", [{"type": "text", "text": "hi"}]))
    state = client.session("s1").state
    # Named by the answer, before the agent's echo of it:
    await wait_until(lambda: [e.get("messageId") for e in state.peek_entries()] == ["u1"])
    go.set()
    assert await asyncio.wait_for(turn, 10) == {"stopReason": "end_turn"}
    await asyncio.gather(*echoing)
    (entry,) = state.peek_entries()
    assert entry["messageId"] == "u1" and entry["content"] == [{"type": "text", "text": "hi"}]


async def test_a_session_the_agent_does_not_have_is_said_plainly(connect: Connect) -> None:
    client, agent = await connect()

    async def resume(params: Any) -> Any:
        data = {"sessionId": params["sessionId"]}
        raise RpcError("Resource not found", data, code=-32002)

    agent.peer.on_request("session/resume", resume)
    with pytest.raises(RpcError, match="the agent has no session gone to resume") as failed:
        await client.load_session("gone", "/w", resume=True)
    assert failed.value.code == -32002 and failed.value.data == {"sessionId": "gone"}


async def test_an_unsupported_version_says_which_the_agent_speaks(tmp_path: Path) -> None:
    client = AcpClient(AgentConfig(command=["in-memory"], protocol_version=2), Recorder())
    ours, theirs = joined()

    async def initialize(params: Any) -> Any:
        data = {"requested": params["protocolVersion"], "supported": [1]}
        raise RpcError("Unsupported protocol version", data, code=-32022)

    theirs.on_request("initialize", initialize)
    try:
        with pytest.raises(AgentError, match="it speaks 1: start acp-editor without"):
            await client.connect(ours)
    finally:
        await client.shutdown()
