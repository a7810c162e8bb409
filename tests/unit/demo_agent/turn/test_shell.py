"""Commands the demo agent runs itself on v2: display terminals that can be cancelled while they
run (``terminal/cancel``), and ``background``, whose command goes on after the turn: listed in
the idle state until it exits, its exit reported before the state update that drops it. Every
message the agent sends is checked against the v2 schema (``v2_wires``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from acp_editor.errors import InvalidParams, RpcError
from tests.support.lsp import wait_until
from tests.unit.demo_agent.wire import Wire


def _idle(wire: Wire, sid: str) -> list[dict[str, Any]]:
    return [u for u in wire.of(sid) if u.get("state") == "idle"]


def _exits(wire: Wire, sid: str) -> list[dict[str, Any]]:
    return [u for u in wire.of(sid, "terminal_update") if "exitStatus" in u]


async def test_a_background_command_is_listed_while_idle_until_it_exits(
    v2_wires: Callable[..., Wire],
) -> None:
    wire = v2_wires(wait_seconds=0.2)
    await wire.start_v2()
    sid = await wire.new()
    await wire.prompt(sid, "background")
    await wait_until(lambda: len(_idle(wire, sid)) == 2)  # the turn's end, then the exit's
    updates = wire.of(sid)
    (terminal_id,) = {u["terminalId"] for u in wire.of(sid, "terminal_update")}
    listed = {"type": "terminal", "terminalId": terminal_id}
    announced = next(i for i, u in enumerate(updates) if u["sessionUpdate"] == "terminal_update")
    ended, dropped = (updates.index(u) for u in _idle(wire, sid))
    (exited,) = _exits(wire, sid)
    assert announced < ended < updates.index(exited) < dropped
    assert updates[ended]["background"] == [listed]
    assert updates[ended]["stopReason"] == "end_turn"
    assert updates[dropped]["background"] == [] and "stopReason" not in updates[dropped]
    assert exited["exitStatus"] == {"exitCode": 0, "signal": None}
    assert exited["capabilities"] is None  # no longer cancellable
    (call,) = {u["toolCallId"] for u in wire.of(sid, "tool_call_update")}
    assert wire.of(sid, "tool_call_update")[-1]["status"] == "completed"  # returned at once
    assert call


async def test_terminal_cancel_stops_a_background_command(v2_wires: Callable[..., Wire]) -> None:
    wire = v2_wires(wait_seconds=60.0)
    await wire.start_v2()
    sid = await wire.new()
    await wire.prompt(sid, "background")
    await wait_until(lambda: len(_idle(wire, sid)) == 1)
    (terminal_id,) = {u["terminalId"] for u in wire.of(sid, "terminal_update")}
    assert wire.of(sid, "terminal_update")[0]["capabilities"] == {"cancel": {}}
    cancel = {"sessionId": sid, "terminalId": terminal_id}
    assert await wire.call("terminal/cancel", cancel) == {}
    await wait_until(lambda: len(_idle(wire, sid)) == 2)
    (exited,) = _exits(wire, sid)
    assert exited["exitStatus"] == {"exitCode": None, "signal": "SIGTERM"}
    assert _idle(wire, sid)[-1]["background"] == []
    with pytest.raises(RpcError) as refused:  # exited: not cancellable any more
        await wire.call("terminal/cancel", cancel)
    assert refused.value.code == InvalidParams.CODE


async def test_a_command_in_the_turn_is_a_cancellable_display_terminal(
    v2_wires: Callable[..., Wire],
) -> None:
    wire = v2_wires()
    await wire.start_v2()
    sid = await wire.new()
    await wire.prompt(sid, "shell")
    await wait_until(lambda: bool(_idle(wire, sid)))
    first, *_ = wire.of(sid, "terminal_update")
    assert first["capabilities"] == {"cancel": {}}
    (exited,) = _exits(wire, sid)
    assert exited["exitStatus"]["exitCode"] == 0 and exited["capabilities"] is None
    assert all("background" not in u for u in _idle(wire, sid))  # never reported any


async def test_background_work_needs_v2(wires: Callable[..., Wire]) -> None:
    wire = wires()
    await wire.start()
    sid = await wire.new()
    assert (await wire.prompt(sid, "background"))["stopReason"] == "end_turn"
    assert "needs ACP v2" in wire.text(sid)
