"""A subagent: a session of its own for a client that advertised ``subagents`` (announced first,
messaged, asking permission under its own id, cancelled alone, failing with an error), and the
parent's own traffic for any other client. Every message the agent sends is checked against
schema 1.25 (the ``wires`` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from acp_editor.demo_agent.scenarios.subagent_scenarios import (
    CHILD_DESCRIPTION,
    CHILD_TITLE,
    FAILURE,
    RESULTS,
    TASK,
)
from acp_editor.errors import InvalidParams, RpcError
from tests.unit.demo_agent.wire import FS, HELLO, Wire

Wires = Callable[..., Wire]
SUBAGENTS = {**FS, "subagents": {}}


def _child_of(wire: Wire, parent: str) -> str:
    (announced, *_) = wire.of(parent, "subagent_update")
    child: str = announced["sessionId"]
    return child


def _states(wire: Wire, parent: str) -> list[dict[str, Any]]:
    return [u["state"] for u in wire.of(parent, "subagent_update")]


async def test_the_child_is_announced_before_any_of_its_traffic(wires: Wires) -> None:
    wire = wires()
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    assert (await wire.prompt(parent, "subagent"))["stopReason"] == "end_turn"
    child = _child_of(wire, parent)
    assert child != parent
    first = next(i for i, u in enumerate(wire.updates) if child in str(u))
    assert wire.updates[first] == {
        "sessionId": parent,
        "update": {
            "sessionUpdate": "subagent_update",
            "sessionId": child,
            "title": CHILD_TITLE,
            "description": CHILD_DESCRIPTION,
            "state": {"state": "running"},
            "capabilities": {"cancel": {}},
        },
    }
    (task, *_) = wire.of(parent, "tool_call")
    assert task["title"] == "Task: explore hello.py" and task["name"] == "Task"
    assert task["kind"] in ("think", "other")
    # The parent's task is announced before the child, and completes after its result.
    kinds = wire.kinds(parent)
    assert kinds.index("tool_call") < kinds.index("subagent_update")
    assert kinds.index("session_message_chunk") < len(kinds) - 1 - kinds[::-1].index(
        "tool_call_update"
    )


async def test_the_parent_gives_the_task_and_gets_the_result_back(wires: Wires) -> None:
    wire = wires()
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    await wire.prompt(parent, "subagent")
    child = _child_of(wire, parent)
    sent, reply = wire.of(parent, "session_message")
    assert sent["senderSessionId"] == parent and sent["recipientSessionId"] == child
    assert sent["content"] == [{"type": "text", "text": TASK}]
    (received,) = wire.of(child, "session_message")  # the child's view of the same message
    assert received["senderMessageId"] == sent["messageId"]
    assert sent["recipientMessageId"] == received["messageId"]
    assert reply["senderSessionId"] == child and reply["recipientSessionId"] == parent
    chunks = wire.of(parent, "session_message_chunk")
    assert {c["messageId"] for c in chunks} == {reply["messageId"]}
    assert "".join(c["content"]["text"] for c in chunks) == RESULTS["end_turn"]
    done = wire.of(parent, "tool_call_update")[-1]
    assert done["status"] == "completed"
    assert done["content"][0]["content"]["text"] == RESULTS["end_turn"]


async def test_the_child_reads_asks_and_writes_under_its_own_session(wires: Wires) -> None:
    wire = wires()
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    await wire.prompt(parent, "subagent")
    child = _child_of(wire, parent)
    read, edit = wire.of(child, "tool_call")
    assert read["kind"] == "read" and read["name"] == "Read"
    assert read["locations"] == [{"path": str(wire.root / "hello.py"), "line": 1}]
    assert edit["kind"] == "edit" and edit["name"] == "Edit"
    methods = [(m, p["sessionId"]) for m, p in wire.requests]
    assert ("fs/read_text_file", child) in methods
    assert ("session/request_permission", child) in methods
    assert ("fs/write_text_file", child) in methods
    assert all(session == child for _, session in methods)
    assert (wire.root / "hello.py").read_text() == HELLO + EDIT_LINE
    assert wire.text(child) == RESULTS["end_turn"]
    assert wire.text(parent) == "Done: subagent."  # the child's words stay the child's
    *_, idle = _states(wire, parent)
    assert idle["state"] == "idle" and idle["stopReason"] == "end_turn"
    assert idle["usage"]["outputTokens"] > 1
    assert set(idle["usage"]) == {"totalTokens", "inputTokens", "outputTokens"}


async def test_without_client_fs_the_child_works_on_disk(wires: Wires) -> None:
    wire = wires()
    await wire.start({"subagents": {}})
    parent = await wire.new()
    await wire.prompt(parent, "subagent")
    child = _child_of(wire, parent)
    assert [m for m, _ in wire.requests] == ["session/request_permission"]
    assert wire.requests[0][1]["sessionId"] == child
    assert (wire.root / "hello.py").read_text() == HELLO + EDIT_LINE


async def test_a_rejected_edit_ends_the_child_and_the_parent_goes_on(wires: Wires) -> None:
    wire = wires()
    wire.answer = "reject"
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    assert (await wire.prompt(parent, "subagent"))["stopReason"] == "end_turn"
    child = _child_of(wire, parent)
    assert (wire.root / "hello.py").read_text() == HELLO
    assert "rejected" in wire.text(child)
    assert _states(wire, parent)[-1]["stopReason"] == "end_turn"
    assert (
        wire.of(parent, "tool_call_update")[-1]["content"][0]["content"]["text"]
        == (RESULTS["rejected"])
    )


async def test_cancelling_the_child_stops_it_alone(wires: Wires) -> None:
    wire = wires()
    wire.answer = "hold"
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    prompt = asyncio.ensure_future(wire.prompt(parent, "subagent"))
    await asyncio.wait_for(wire.asked.wait(), 5)
    child = _child_of(wire, parent)
    await wire.client.notify("session/cancel", {"sessionId": child})
    assert (await asyncio.wait_for(prompt, 5))["stopReason"] == "end_turn"
    assert _states(wire, parent)[-1]["stopReason"] == "cancelled"
    assert (wire.root / "hello.py").read_text() == HELLO
    withdrawn = [m for m in wire.sent if m.get("method") == "$/cancel_request"]
    assert len(withdrawn) == 1  # the child's pending permission question
    done = wire.of(parent, "tool_call_update")[-1]
    assert done["status"] == "completed"
    assert done["content"][0]["content"]["text"] == RESULTS["cancelled"]
    assert wire.text(parent) == "Done: subagent."


async def test_cancelling_the_parent_takes_the_child_with_it(wires: Wires) -> None:
    wire = wires()
    wire.answer = "hold"
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    prompt = asyncio.ensure_future(wire.prompt(parent, "subagent"))
    await asyncio.wait_for(wire.asked.wait(), 5)
    await wire.client.notify("session/cancel", {"sessionId": parent})
    assert (await asyncio.wait_for(prompt, 5))["stopReason"] == "cancelled"
    assert _states(wire, parent)[-1]["stopReason"] == "cancelled"


async def test_a_child_session_is_cancelled_only(wires: Wires) -> None:
    wire = wires()
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    await wire.prompt(parent, "subagent")
    child = _child_of(wire, parent)
    with pytest.raises(RpcError, match="subagent") as refused:
        await wire.prompt(child, "read")
    assert refused.value.code == InvalidParams.CODE
    await wire.client.notify("session/cancel", {"sessionId": child})  # nothing to cancel now
    listed = await wire.call("session/list", {})
    assert [s["sessionId"] for s in listed["sessions"]] == [parent]


async def test_a_failing_child_reports_its_error(wires: Wires) -> None:
    wire = wires()
    await wire.start(SUBAGENTS)
    parent = await wire.new()
    assert (await wire.prompt(parent, "subagent-fails"))["stopReason"] == "end_turn"
    *_, idle = _states(wire, parent)
    assert idle["state"] == "idle" and idle["stopReason"] == "error"
    assert idle["error"] == FAILURE
    done = wire.of(parent, "tool_call_update")[-1]
    assert done["status"] == "failed" and done["rawOutput"]["error"] == FAILURE
    assert not [m for m, _ in wire.requests if m == "session/request_permission"]


async def test_without_subagents_the_child_is_the_parents_own_work(wires: Wires) -> None:
    wire = wires()
    await wire.start(FS)
    parent = await wire.new()
    await wire.prompt(parent, "subagent")
    kinds = {u["update"]["sessionUpdate"] for u in wire.updates}
    assert not kinds & {"subagent_update", "session_message", "session_message_chunk"}
    assert {u["sessionId"] for u in wire.updates} == {parent}
    task, read, edit = wire.of(parent, "tool_call")
    assert (task["name"], read["name"], edit["name"]) == ("Task", "Read", "Edit")
    assert {p["sessionId"] for _, p in wire.requests} == {parent}
    assert wire.text(parent) == RESULTS["end_turn"] + "Done: subagent."
    assert (wire.root / "hello.py").read_text() == HELLO + EDIT_LINE


async def test_without_subagents_a_failing_child_fails_the_parents_task(wires: Wires) -> None:
    wire = wires()
    await wire.start(FS)
    parent = await wire.new()
    await wire.prompt(parent, "subagent-fails")
    task, _ = wire.of(parent, "tool_call")
    done = [u for u in wire.of(parent, "tool_call_update") if u["toolCallId"] == task["toolCallId"]]
    assert done[-1]["status"] == "failed"
    assert wire.text(parent).startswith(RESULTS["error"])
