"""The demo agent's v2 (schema 1.25): a prompt's answer names the user message it inserted, the
``wait`` tool call can be cancelled alone (``tool_call/cancel``) while it advertises it, and a
session's state updates list background work once it has had any. Every message the agent sends
is checked against the v2 schema (``v2_wires``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from acp_editor.demo_agent.turn.v2 import Work, cancel_fields, cancel_one, cancellable, state_update
from acp_editor.errors import InvalidParams, RpcError
from tests.support.lsp import wait_until
from tests.unit.demo_agent.wire import Wire


def test_state_updates_list_background_work_only_once_some_was_reported() -> None:
    work = Work()
    assert state_update(work, "running") == {"sessionUpdate": "state_update", "state": "running"}
    item = {"type": "terminal", "terminalId": "t1"}
    work.background["t1"], work.reported = item, True
    idle = state_update(work, "idle", stopReason="end_turn")
    assert idle["background"] == [item] and idle["stopReason"] == "end_turn"
    del work.background["t1"]
    assert state_update(work, "idle")["background"] == []  # [] now: nothing runs
    assert work.state == "idle"


async def test_only_work_that_is_cancellable_now_takes_a_cancel() -> None:
    work = Work()
    with cancellable(work, "call_1", version=2) as cancelled:
        assert cancel_one(work, {"toolCallId": "call_1"}, "toolCallId") == {}
        assert cancelled.is_set()
    with pytest.raises(InvalidParams, match="call_1"):  # over: no longer cancellable
        cancel_one(work, {"toolCallId": "call_1"}, "toolCallId")
    with cancellable(work, "call_2", version=1):  # v1 has no tool_call/cancel
        assert work.cancels == {}
    with pytest.raises(InvalidParams):
        cancel_one(work, {}, "terminalId")
    assert cancel_fields(2, True) == {"capabilities": {"cancel": {}}}
    assert cancel_fields(2, False) == {"capabilities": None}
    assert cancel_fields(1, True) == {}


async def test_the_prompt_answer_names_the_message_its_echo_carries(
    v2_wires: Callable[..., Wire],
) -> None:
    wire = v2_wires()
    await wire.start_v2()
    sid = await wire.new()
    answer = await wire.prompt(sid, "stream")
    await wait_until(lambda: any(u["state"] == "idle" for u in wire.of(sid, "state_update")))
    (echo,) = wire.of(sid, "user_message")
    assert answer == {"messageId": echo["messageId"]}
    assert all("background" not in u for u in wire.of(sid, "state_update"))  # none ever ran


async def test_the_wait_tool_call_is_cancelled_alone_and_the_turn_goes_on(
    v2_wires: Callable[..., Wire],
) -> None:
    wire = v2_wires(wait_seconds=30.0)
    await wire.start_v2()
    sid = await wire.new()
    await wire.prompt(sid, "wait stream")
    await wait_until(lambda: bool(wire.of(sid, "tool_call_update")))
    (announced,) = wire.of(sid, "tool_call_update")
    assert announced["capabilities"] == {"cancel": {}}
    call = {"sessionId": sid, "toolCallId": announced["toolCallId"]}
    assert await wire.call("tool_call/cancel", call) == {}
    await wait_until(lambda: any(u["state"] == "idle" for u in wire.of(sid, "state_update")))
    final = wire.of(sid, "tool_call_update")[-1]
    assert final["status"] == "cancelled" and final["capabilities"] is None
    assert "Here is a streamed answer" in wire.text(sid)  # the turn went on after it
    assert wire.of(sid, "state_update")[-1]["stopReason"] == "end_turn"
    with pytest.raises(RpcError) as refused:  # over now: not cancellable any more
        await wire.call("tool_call/cancel", call)
    assert refused.value.code == InvalidParams.CODE
