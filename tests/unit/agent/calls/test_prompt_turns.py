"""A prompt's turn on a v1 agent: a prompt sent while a turn runs waits in the client, shown
``queued``, and goes when the turn ends; it can be edited or withdrawn until then, and a cancel
keeps it or drops it. A v2 agent keeps its own queue (an agent in memory, no process)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import InvalidParams
from acp_editor.protocol import acp
from tests.support.lsp import wait_until
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder

Connect = Callable[..., Any]


@pytest.fixture
async def connect(tmp_path: Path) -> AsyncIterator[Connect]:
    clients: list[AcpClient] = []

    async def make(version: int = 1) -> tuple[AcpClient, MemoryAgent, asyncio.Event]:
        offered = version if version in acp.SUPPORTED_VERSIONS else acp.PROTOCOL_VERSION
        config = AgentConfig(command=["in-memory"], protocol_version=offered, review_mode="off")
        client = AcpClient(config, Recorder())
        client.connection.root = str(tmp_path)
        ours, theirs = joined()
        agent = MemoryAgent(theirs, version)
        release = asyncio.Event()

        async def turn(_session: str) -> None:
            await release.wait()
            release.clear()  # one turn per release

        agent.turn = turn
        clients.append(client)
        await client.connect(ours)
        await client.new_session(str(tmp_path))
        return client, agent, release

    yield make
    for client in clients:
        await client.shutdown()


def prompts_sent(agent: MemoryAgent) -> list[str]:
    return [p["prompt"][-1]["text"] for m, p in agent.received if m == "session/prompt"]


def entries(client: AcpClient) -> list[dict[str, Any]]:
    state = client.session_state("s1")
    assert state is not None
    return [dict(e) for e in state.peek_entries()]


def text(words: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": words}]


async def test_a_prompt_sent_during_a_turn_waits_shown_queued_then_goes(connect: Connect) -> None:
    client, agent, release = await connect()
    went: list[list[dict[str, Any]]] = []  # what each prompt said when it went (the history's)
    first = asyncio.ensure_future(client.prompt("s1", text("one"), went.append))
    await wait_until(lambda: prompts_sent(agent) == ["one"])
    second = asyncio.ensure_future(client.prompt("s1", text("two"), went.append))
    await wait_until(lambda: len(entries(client)) == 2)
    assert entries(client)[1]["queued"] is True and entries(client)[1]["content"] == text("two")
    client.edit_prompt("s1", 1, text("two, edited"))
    assert prompts_sent(agent) == ["one"]  # never two turns at once on a v1 agent
    assert went == [text("one")]  # a waiting prompt has not gone yet

    release.set()
    assert (await first)["stopReason"] == "end_turn"
    await wait_until(lambda: prompts_sent(agent) == ["one", "two, edited"])
    assert went == [text("one"), text("two, edited")]  # as edited, not as first typed
    waited = entries(client)[1]
    assert "queued" not in waited and waited["content"] == text("two, edited")
    release.set()
    assert (await second)["stopReason"] == "end_turn"


async def test_a_withdrawn_prompt_never_reaches_the_agent(connect: Connect) -> None:
    client, agent, release = await connect()
    first = asyncio.ensure_future(client.prompt("s1", text("one")))
    await wait_until(lambda: prompts_sent(agent) == ["one"])
    went: list[list[dict[str, Any]]] = []
    second = asyncio.ensure_future(client.prompt("s1", text("two"), went.append))
    await wait_until(lambda: len(entries(client)) == 2)
    client.withdraw_prompt("s1", 1)
    assert (await second) == {"stopReason": "cancelled"}
    assert went == []  # never sent: the history never hears of it
    assert entries(client)[1].get("dropped") is True and "queued" not in entries(client)[1]
    with pytest.raises(InvalidParams):
        client.withdraw_prompt("s1", 1)  # no longer waiting
    release.set()
    await first
    assert prompts_sent(agent) == ["one"]


@pytest.mark.parametrize("drop", [False, True])
async def test_a_cancel_keeps_or_drops_what_waits(connect: Connect, drop: bool) -> None:
    client, agent, release = await connect()
    first = asyncio.ensure_future(client.prompt("s1", text("one")))
    await wait_until(lambda: prompts_sent(agent) == ["one"])
    second = asyncio.ensure_future(client.prompt("s1", text("two")))
    await wait_until(lambda: len(entries(client)) == 2)
    await client.cancel("s1", drop_waiting=drop)
    release.set()
    assert (await first)["stopReason"] == "cancelled"
    if drop:
        assert (await second) == {"stopReason": "cancelled"}
        assert prompts_sent(agent) == ["one"] and entries(client)[1].get("dropped") is True
    else:
        await wait_until(lambda: prompts_sent(agent) == ["one", "two"])
        agent.cancelled.clear()
        release.set()
        assert (await second)["stopReason"] == "end_turn"


async def test_a_v2_agent_keeps_its_own_queue(connect: Connect) -> None:
    client, _agent, _release = await connect(version=2)
    with pytest.raises(InvalidParams):
        client.edit_prompt("s1", 0, text("nothing waits here"))
