"""Naming and archiving sessions (ACP ``session/set_title``, ``session/archive``,
``session/unarchive``: unstable in schema 1.25; ``calls.session_admin`` through ``AcpClient``),
against an agent in memory: sent only to an agent that advertises them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import AgentError
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder


async def connected(capabilities: dict[str, Any]) -> tuple[AcpClient, MemoryAgent]:
    client = AcpClient(AgentConfig(command=["in-memory"]), Recorder())
    ours, theirs = joined()
    agent = MemoryAgent(theirs)
    agent.capabilities = capabilities

    def answering(method: str) -> Any:
        async def answer(params: Any) -> dict[str, Any]:
            agent.received.append((method, params))
            return {}

        return answer

    for method in ("session/set_title", "session/archive", "session/unarchive"):
        theirs.on_request(method, answering(method))

    async def status(params: Any) -> dict[str, Any]:
        agent.received.append(("session/status", params))
        return {"status": "open" if params["sessionId"] == "s1" else "_evicted"}

    theirs.on_request("session/status", status)
    await client.connect(ours)
    return client, agent


async def test_titles_and_archiving_go_to_an_agent_that_offers_them(tmp_path: Path) -> None:
    caps = {"sessionCapabilities": {"title": {}, "archive": {}}}
    client, agent = await connected(caps)
    await client.set_title("s1", "Fix the test")
    await client.archive_session("s1")
    await client.archive_session("s1", archived=False)
    sent = [(m, p) for m, p in agent.received if m != "initialize"]
    assert sent == [
        ("session/set_title", {"sessionId": "s1", "title": "Fix the test"}),
        ("session/archive", {"sessionId": "s1"}),
        ("session/unarchive", {"sessionId": "s1"}),
    ]
    await client.shutdown()


async def test_a_sessions_status_and_one_nobody_defined_reads_as_saved(tmp_path: Path) -> None:
    client, _ = await connected({"sessionCapabilities": {"status": {}}})
    assert await client.session_status("s1") == "open"
    assert await client.session_status("s2") == "saved"
    await client.shutdown()


async def test_an_agent_that_does_not_offer_them_is_not_asked(tmp_path: Path) -> None:
    client, agent = await connected({"sessionCapabilities": {"list": {}}})
    with pytest.raises(AgentError, match="session/set_title"):
        await client.set_title("s1", "x")
    with pytest.raises(AgentError, match="session/archive"):
        await client.archive_session("s1")
    assert [m for m, _ in agent.received] == ["initialize"]
    await client.shutdown()
