"""Subagents' sessions on the agent side (opening, serving, run state): a child announced by its
parent's agent is a session of its own, asks and reports as one, and goes with its parent.
Against an agent in memory and a recording front end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp_editor.agent.client import AcpClient, AgentConfig
from tests.support.lsp import wait_until
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder

OPTIONS = [
    {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
]
EDIT = {"toolCallId": "e1", "title": "Edit a.py", "kind": "edit"}


async def connected(
    tmp_path: Path, recorder: Recorder | None = None
) -> tuple[AcpClient, MemoryAgent, Recorder]:
    recorder = recorder or Recorder()
    client = AcpClient(AgentConfig(command=["in-memory"]), recorder)
    client.connection.root = str(tmp_path)
    ours, theirs = joined()
    agent = MemoryAgent(theirs)
    await client.connect(ours)
    await client.new_session(str(tmp_path))
    return client, agent, recorder


async def test_a_child_session_asks_reports_its_state_and_goes_with_its_parent(
    tmp_path: Path,
) -> None:
    release = asyncio.Event()
    client, agent, rec = await connected(tmp_path, Recorder(release=release))
    child = {"sessionUpdate": "subagent_update", "sessionId": "c1", "title": "Explore"}
    answers: list[Any] = []

    async def turn(sid: str) -> None:
        await agent.update(sid, {"sessionUpdate": "tool_call", "toolCallId": "task", "title": "T"})
        await agent.update(sid, {**child, "state": {"state": "running"}})
        await agent.update("c1", {"sessionUpdate": "tool_call", **EDIT, "status": "pending"})
        answers.append(await agent.ask("c1", EDIT, OPTIONS))
        done = {"state": "idle", "stopReason": "end_turn"}
        await agent.update(sid, {**child, "state": done})

    agent.turn = turn
    agent.usage = {"totalTokens": 30, "inputTokens": 20, "outputTokens": 10}
    prompt = asyncio.ensure_future(client.prompt("s1", [{"type": "text", "text": "go"}]))
    await asyncio.wait_for(rec.asked.wait(), 5)
    # While its question waits, the child waits for the user; the parent's turn still runs.
    assert rec.mirrors["c1"]["runState"] == {"state": "requires_action"}
    assert rec.mirrors["s1"]["runState"] == {"state": "running"}
    release.set()
    await asyncio.wait_for(prompt, 5)
    assert answers == [{"outcome": {"outcome": "selected", "optionId": "yes"}}]
    assert rec.permissions[0][0]["toolCallId"] == "e1"
    session = client.sessions["c1"]
    assert session.parent == "s1" and session.cwd == str(tmp_path)
    assert client.session_state("c1") is not None
    assert client.session_state("c1").parent == "s1"  # type: ignore[union-attr]
    # Answered, the child's state is what its parent's agent last said of it.
    assert rec.mirrors["c1"]["runState"] == {"state": "idle", "stopReason": "end_turn"}
    assert rec.mirrors["s1"]["subagents"]["c1"]["toolCallId"] == "task"
    # The parent's turn ended with its stop reason and the tokens it used.
    assert rec.mirrors["s1"]["runState"] == {
        "state": "idle",
        "stopReason": "end_turn",
        "usage": agent.usage,
    }
    await client.close_session("s1", tell_agent=False)
    assert "c1" not in client.sessions


async def test_a_childs_updates_before_it_is_announced_wait_for_it(tmp_path: Path) -> None:
    client, agent, rec = await connected(tmp_path)
    early = {"type": "text", "text": "early"}
    await agent.update("c2", {"sessionUpdate": "agent_message_chunk", "content": early})
    await agent.update("s1", {"sessionUpdate": "subagent_update", "sessionId": "c2"})
    await wait_until(lambda: "c2" in rec.mirrors)
    assert rec.mirrors["c2"]["entries"][0]["content"] == [early]
    assert client.sessions["c2"].parent == "s1"
