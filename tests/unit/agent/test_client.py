"""The agent side's glue (client, serving, asking) against an agent in memory and a recording
front end: no process, no pipe."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.protocol import acp
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder

OPTIONS = [
    {"optionId": "yes", "name": "Allow", "kind": "allow_once"},
    {"optionId": "always", "name": "Always", "kind": "allow_always"},
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
]
RUN_LS = {"toolCallId": "t1", "title": "ls", "kind": "execute", "rawInput": {"command": "ls"}}

Connect = Callable[..., Any]


@pytest.fixture
async def connect(tmp_path: Path) -> AsyncIterator[Connect]:
    clients: list[AcpClient] = []

    async def make(
        frontend: Recorder | None = None, version: int = 1
    ) -> tuple[AcpClient, MemoryAgent, Recorder]:
        recorder = frontend or Recorder()
        offered = version if version in acp.SUPPORTED_VERSIONS else acp.PROTOCOL_VERSION
        config = AgentConfig(command=["in-memory"], protocol_version=offered)
        client = AcpClient(config, recorder)
        client.connection.root = str(tmp_path)
        ours, theirs = joined()
        agent = MemoryAgent(theirs, version)
        clients.append(client)
        await client.connect(ours)
        return client, agent, recorder

    yield make
    for client in clients:
        await client.shutdown()


async def test_initialize_offers_fs_and_terminals_and_agrees_a_version(connect: Connect) -> None:
    client, agent, _ = await connect()
    ((method, params),) = agent.received
    assert method == "initialize" and params["protocolVersion"] == 1
    assert params["clientCapabilities"] == {
        "fs": {"readTextFile": True, "writeTextFile": True},
        "terminal": True,
        "_meta": {"terminal_output": True},
        "auth": {"terminal": True},
        "session": {"notices": {}, "compaction": {}, "configOptions": {"boolean": {}}},
        "plan": {},
        "subagents": {},
    }
    assert client.protocol_version == 1 and client.supports("session/load") is False


async def test_a_version_we_do_not_speak_is_refused(connect: Connect) -> None:
    with pytest.raises(AgentError, match="protocol version 7"):
        await connect(version=7)


async def test_an_update_sent_before_session_new_answers_is_kept_for_the_session(
    connect: Connect, tmp_path: Path
) -> None:
    client, _, rec = await connect()
    session = await client.new_session(str(tmp_path))
    # The early update arrived first; the answer's modes were applied after it.
    assert rec.mirrors["s1"]["modes"]["currentModeId"] == "code"
    kept = [c for c in rec.changes["s1"] if "ask" in json.dumps(c)]
    assert kept, rec.changes["s1"]  # the early update was applied, not dropped
    snapshot = session.state.snapshot()
    assert {**snapshot, "protocolVersion": 0} == rec.mirrors["s1"]


async def test_a_turn_reaches_the_front_end_in_order_and_permissions_are_answered(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, rec = await connect()
    await client.new_session(str(tmp_path))
    answers: list[Any] = []

    async def turn(sid: str) -> None:
        await agent.update(sid, {"sessionUpdate": "tool_call", **RUN_LS, "status": "pending"})
        answers.append(await agent.ask(sid, RUN_LS, OPTIONS))

    agent.turn = turn
    result = await client.prompt("s1", [{"type": "text", "text": "go"}])
    assert result["stopReason"] == "end_turn"
    assert answers == [{"outcome": {"outcome": "selected", "optionId": "yes"}}]
    (asked_call, asked_options) = rec.permissions[0]
    assert asked_call["title"] == "ls" and asked_options == OPTIONS
    kinds = [c["type"] for c in rec.changes["s1"]]
    assert kinds.index("entry") < kinds.index("tool_call")


async def test_a_v2_question_reaches_the_front_end_with_its_own_words(
    connect: Connect, tmp_path: Path
) -> None:
    """The request's title and description reach the front end beside the tool call; the
    session state keeps the tool call's own title."""
    client, agent, rec = await connect(version=2)
    session = await client.new_session(str(tmp_path))
    asked = {
        "sessionId": "s1",
        "title": "List the files?",
        "description": "To find the tests.",
        "subject": {"type": "tool_call", "toolCall": RUN_LS},
        "options": OPTIONS,
    }
    await agent.peer.request("session/request_permission", asked)
    ((call, _),) = rec.permissions
    assert rec.words == [{"title": "List the files?", "description": "To find the tests."}]
    assert call["title"] == "ls"
    assert session.state.tool_call("t1") == call


class Chooses(Recorder):
    """A front end that answers with a fixed option id (or dismisses with None)."""

    def __init__(self, choice: str | None) -> None:
        super().__init__()
        self.choice = choice

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        self.permissions.append((tool_call, options))
        return self.choice


@pytest.mark.parametrize("choice", [None, "forged"])
async def test_a_dismissed_or_unknown_answer_is_the_reject_never_an_allow(
    connect: Connect, tmp_path: Path, choice: str | None
) -> None:
    client, agent, _ = await connect(Chooses(choice))
    await client.new_session(str(tmp_path))
    answer = await agent.ask("s1", RUN_LS, OPTIONS)
    assert answer == {"outcome": {"outcome": "selected", "optionId": "no"}}


async def test_always_allow_is_remembered_for_the_workspace(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, rec = await connect(Chooses("always"))
    await client.new_session(str(tmp_path))
    assert (await agent.ask("s1", RUN_LS, OPTIONS))["outcome"]["optionId"] == "always"
    stored = json.loads((tmp_path / ".acp-editor" / "permissions.json").read_text())
    assert "ls" in json.dumps(stored)
    again = await agent.ask("s1", {**RUN_LS, "toolCallId": "t2"}, OPTIONS)
    assert again["outcome"]["optionId"] == "yes"  # answered by the rule: allow_once first
    assert len(rec.permissions) == 1


async def test_cancel_answers_a_pending_question_cancelled_and_stops_tool_calls(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, rec = await connect(Recorder(answer_kind=None))
    await client.new_session(str(tmp_path))
    answers: list[Any] = []

    async def turn(sid: str) -> None:
        await agent.update(sid, {"sessionUpdate": "tool_call", **RUN_LS, "status": "pending"})
        answers.append(await agent.ask(sid, RUN_LS, OPTIONS))
        await agent.cancelled.wait()

    agent.turn = turn
    prompt = asyncio.ensure_future(client.prompt("s1", [{"type": "text", "text": "go"}]))
    await asyncio.wait_for(rec.asked.wait(), 5)
    await client.cancel("s1")
    assert (await asyncio.wait_for(prompt, 5))["stopReason"] == "cancelled"
    assert answers == [{"outcome": {"outcome": "cancelled"}}]
    assert rec.mirrors["s1"]["toolCalls"]["t1"]["status"] == "cancelled"
    assert rec.permission_cancelled == 1


async def test_a_write_is_attributed_to_the_tool_call_naming_its_path(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, _ = await connect()
    await client.new_session(str(tmp_path))
    target = tmp_path / "a.txt"
    target.write_text("old\n")
    edit = {"toolCallId": "e1", "kind": "edit", "locations": [{"path": str(target)}]}
    await agent.update("s1", {"sessionUpdate": "tool_call", **edit, "status": "in_progress"})
    await agent.peer.request(
        "fs/write_text_file", {"sessionId": "s1", "path": str(target), "content": "new\n"}
    )
    assert target.read_text() == "new\n"
    (hunk,) = client.review.hunks()
    assert hunk.tool_call_id == "e1" and hunk.state == "pending"


async def test_bad_params_are_refused_with_invalid_params(connect: Connect, tmp_path: Path) -> None:
    client, agent, _ = await connect()
    await client.new_session(str(tmp_path))
    with pytest.raises(RpcError, match="optionId") as bad_options:
        await agent.peer.request(
            "session/request_permission",
            {"sessionId": "s1", "toolCall": RUN_LS, "options": [{"kind": "allow_once"}]},
        )
    with pytest.raises(RpcError, match="unknown session") as unknown:
        await agent.ask("nope", RUN_LS, OPTIONS)
    assert bad_options.value.code == unknown.value.code == InvalidParams.CODE


async def test_what_an_agent_changes_on_disk_itself_is_in_review_when_the_turn_ends(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, _ = await connect()
    await client.new_session(str(tmp_path))
    (tmp_path / "a.txt").write_text("old\n")
    edit = {"toolCallId": "e1", "kind": "edit", "title": "Edit a.txt"}

    async def turn(sid: str) -> None:
        await agent.update(sid, {"sessionUpdate": "tool_call", **edit, "status": "in_progress"})
        (tmp_path / "a.txt").write_text("new\n")  # the agent writes the disk itself
        await agent.update(
            sid, {"sessionUpdate": "tool_call_update", **edit, "status": "completed"}
        )
        # Attribution is by time: a real agent's next step comes after the client's look at the
        # ended tool call; in memory the agent is faster than that unless it waits for it. Any
        # request answered means the update before it was read (and the look started).
        await agent.peer.request(
            "fs/read_text_file", {"sessionId": sid, "path": str(tmp_path / "a.txt")}
        )
        await client.reviewing.settle()
        (tmp_path / "made.txt").write_text("by a command\n")  # and a command it ran

    agent.turn = turn
    await client.prompt("s1", [{"type": "text", "text": "go"}])
    hunks = sorted(client.review.hunks(), key=lambda h: h.path)
    assert [(Path(h.path).name, h.tool_call_id) for h in hunks] == [
        ("a.txt", "e1"),
        ("made.txt", None),
    ]


async def test_output_of_commands_the_agent_runs_itself_reaches_the_front_end(
    connect: Connect, tmp_path: Path
) -> None:
    client, agent, rec = await connect()
    await client.new_session(str(tmp_path))
    run = {"toolCallId": "c1", "kind": "execute", "title": "yes | head -2"}

    async def turn(sid: str) -> None:
        delta = {"terminal_output_delta": {"terminal_id": "t1", "data": "y\n"}}
        await agent.update(sid, {"sessionUpdate": "tool_call", **run, "status": "in_progress"})
        for _ in range(2):  # the same chunk twice is twice the output
            await agent.update(sid, {"sessionUpdate": "tool_call_update", **run, "_meta": delta})
        end = {"terminal_exit": {"terminal_id": "t1", "exit_code": 0}}
        await agent.update(
            sid, {"sessionUpdate": "tool_call_update", **run, "status": "completed", "_meta": end}
        )

    agent.turn = turn
    await client.prompt("s1", [{"type": "text", "text": "go"}])
    assert rec.output == {"t1": "y\ny\n"}
