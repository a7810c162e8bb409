"""No aliasing: inputs, snapshots, stored tool calls and returned changes are all independent.

Rule under test: the state deep-copies everything it stores, snapshot() and tool_call() return
copies, and a caller (or an editor mirror) mutating anything it was given or gave cannot reach
into the state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest


def mutate(value: Any) -> None:
    """Scribble over every container reachable from value."""
    if isinstance(value, dict):
        for key in list(value):
            mutate(value[key])
        value["__scribbled__"] = True
    elif isinstance(value, list):
        for item in value:
            mutate(item)
        value.append("__scribbled__")


def nested() -> dict[str, Any]:
    return {"a": [1, {"b": 2}], "c": {"d": [3]}}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


# Each row: a name and a function feeding one input to the state; the input is then mutated.
FEEDERS: list[tuple[str, Callable[[Any, Any], Any], Any]] = [
    (
        "tool_call",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "tool_call", "toolCallId": "a", "rawInput": v, "content": [v]}
        ),
        nested(),
    ),
    (
        "tool_call_content_chunk",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "a", "content": v}
        ),
        nested(),
    ),
    (
        "agent chunk",
        lambda s, v: s.apply_update({"sessionUpdate": "agent_message_chunk", "content": v}),
        {"type": "image", "x": [1]},
    ),
    ("plan", lambda s, v: s.apply_update({"sessionUpdate": "plan", "entries": [v]}), nested()),
    (
        "commands",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "available_commands_update", "availableCommands": [v]}
        ),
        nested(),
    ),
    (
        "config update",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "config_option_update", "configOptions": [v]}
        ),
        nested(),
    ),
    (
        "usage",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "usage_update", "used": 1, "size": 2, "cost": v}
        ),
        nested(),
    ),
    (
        "info",
        lambda s, v: s.apply_update({"sessionUpdate": "session_info_update", "_meta": v}),
        nested(),
    ),
    ("unknown", lambda s, v: s.apply_update({"sessionUpdate": "_x", "payload": v}), nested()),
    (
        "permission",
        lambda s, v: s.apply_permission_tool_call({"toolCallId": "p", "rawInput": v}),
        nested(),
    ),
    ("prompt", lambda s, v: s.add_user_prompt([v]), nested()),
    (
        "set_modes",
        lambda s, v: s.set_modes({"currentModeId": "a", "availableModes": [v]}),
        nested(),
    ),
    ("set_config_options", lambda s, v: s.set_config_options([v]), nested()),
]


@pytest.mark.parametrize(
    ("feed", "value"), [(f, v) for _, f, v in FEEDERS], ids=[name for name, _, _ in FEEDERS]
)
def test_mutating_an_input_after_applying_it_does_not_reach_the_state(h, feed, value) -> None:
    value = copy.deepcopy(value)
    feed(h.state, value)
    before = h.snap
    mutate(value)
    assert h.snap == before


@pytest.mark.parametrize(
    ("feed", "value"), [(f, v) for _, f, v in FEEDERS], ids=[name for name, _, _ in FEEDERS]
)
def test_mutating_returned_changes_does_not_reach_the_state(h, feed, value) -> None:
    changes = feed(h.state, copy.deepcopy(value))
    before = h.snap
    mutate(changes)
    assert h.snap == before


def test_mutating_a_snapshot_does_not_reach_the_state(h) -> None:
    h.updates(
        {"sessionUpdate": "tool_call", "toolCallId": "a", "content": [nested()]},
        {"sessionUpdate": "agent_message_chunk", "content": text("hi")},
        {"sessionUpdate": "plan", "entries": [nested()]},
    )
    before = h.snap
    snapshot = h.state.snapshot()
    mutate(snapshot)
    assert h.snap == before


def test_mutating_a_returned_tool_call_does_not_reach_the_state(h) -> None:
    h.update({"sessionUpdate": "tool_call", "toolCallId": "a", "content": [nested()]})
    record = h.state.tool_call("a")
    mutate(record)
    assert h.state.tool_call("a") == {"toolCallId": "a", "content": [nested()]}


def test_merging_text_never_mutates_the_callers_blocks(h) -> None:
    first, second = text("Hel"), text("lo")
    h.state.apply_update({"sessionUpdate": "agent_message_chunk", "content": first})
    h.state.apply_update({"sessionUpdate": "agent_message_chunk", "content": second})
    assert (first, second) == (text("Hel"), text("lo"))


def test_one_input_applied_twice_is_stored_twice_independently(h) -> None:
    block = {"type": "image", "data": "x"}
    update = {"sessionUpdate": "agent_message_chunk", "content": block}
    h.updates(update, update)
    content = h.state._snapshot["entries"][0]["content"]
    assert content == [block, block]
    assert content[0] is not content[1]
    assert content[0] is not block


def test_mirror_does_not_share_with_the_changes_it_applied(h) -> None:
    changes = h.update({"sessionUpdate": "tool_call", "toolCallId": "a", "rawInput": nested()})
    mutate(changes)
    assert h.mirror == h.snap
