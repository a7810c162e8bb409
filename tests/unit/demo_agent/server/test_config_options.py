"""The boolean config option: offered only to a client that advertised
``session.configOptions.boolean``, set with ``type: "boolean"``, and honoured by every turn.
Every message the agent sends is checked against schema 1.25 (the ``wires`` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from acp_editor.demo_agent.server.config_options import THINK_ALOUD
from acp_editor.errors import InvalidParams, RpcError
from tests.unit.demo_agent.wire import Wire

Wires = Callable[..., Wire]
BOOLEANS = {"session": {"configOptions": {"boolean": {}}}}


async def _options(wire: Wire) -> tuple[str, dict[str, dict[str, Any]]]:
    answer = await wire.call("session/new", {"cwd": str(wire.root), "mcpServers": []})
    return answer["sessionId"], {o["id"]: o for o in answer["configOptions"]}


async def test_a_client_that_takes_booleans_gets_think_aloud(wires: Wires) -> None:
    wire = wires()
    await wire.start(BOOLEANS)
    _, options = await _options(wire)
    assert options[THINK_ALOUD] == {
        "id": THINK_ALOUD,
        "name": "Think aloud",
        "description": "Start every answer with a thought about the prompt",
        "category": "model_config",
        "type": "boolean",
        "currentValue": False,
    }
    assert options["model"]["type"] == "select"


@pytest.mark.parametrize(
    "caps",
    [{}, {"session": {}}, {"session": {"configOptions": {}}}, {"session": {"configOptions": None}}],
)
async def test_no_boolean_option_without_the_capability(wires: Wires, caps: dict[str, Any]) -> None:
    wire = wires()
    await wire.start(caps)
    sid, options = await _options(wire)
    assert list(options) == ["model"]
    params = {"sessionId": sid, "configId": THINK_ALOUD, "type": "boolean", "value": True}
    with pytest.raises(RpcError, match="unknown config option"):
        await wire.call("session/set_config_option", params)


async def test_setting_it_makes_every_turn_think_aloud_first(wires: Wires) -> None:
    wire = wires()
    await wire.start(BOOLEANS)
    sid, _ = await _options(wire)
    await wire.prompt(sid, "usage")
    assert wire.of(sid, "agent_thought_chunk") == []
    params = {"sessionId": sid, "configId": THINK_ALOUD, "type": "boolean", "value": True}
    answer = await wire.call("session/set_config_option", params)
    (option,) = [o for o in answer["configOptions"] if o["id"] == THINK_ALOUD]
    assert option["currentValue"] is True
    await wire.prompt(sid, "usage")
    assert wire.text(sid, "agent_thought_chunk") == "Thinking aloud: the prompt names usage."
    kinds = wire.kinds(sid)
    _, second_usage = [i for i, kind in enumerate(kinds) if kind == "usage_update"]
    assert kinds.index("agent_thought_chunk") < second_usage


@pytest.mark.parametrize(
    "bad",
    [
        {"configId": THINK_ALOUD, "value": True},  # no type
        {"configId": THINK_ALOUD, "type": "boolean", "value": "true"},
        {"configId": THINK_ALOUD, "value": "on"},
        {"configId": "model", "type": "boolean", "value": True},
        {"configId": "model", "value": "demo-none"},
    ],
)
async def test_values_of_the_wrong_kind_are_refused(wires: Wires, bad: dict[str, Any]) -> None:
    wire = wires()
    await wire.start(BOOLEANS)
    sid, _ = await _options(wire)
    with pytest.raises(RpcError) as refused:
        await wire.call("session/set_config_option", {"sessionId": sid, **bad})
    assert refused.value.code == InvalidParams.CODE


async def test_a_select_is_still_set_by_its_value_id(wires: Wires) -> None:
    wire = wires()
    await wire.start(BOOLEANS)
    sid, _ = await _options(wire)
    params = {"sessionId": sid, "configId": "model", "value": "demo-careful"}
    answer = await wire.call("session/set_config_option", params)
    assert answer["configOptions"][0]["currentValue"] == "demo-careful"
