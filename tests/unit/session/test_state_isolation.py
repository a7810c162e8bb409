"""Aliasing rules: what the state grows in place is its own; snapshots it hands out are copies.

Rule under test: the state copies in whatever it later changes in place (transcript entries and
their content, a tool call's ``content``), so appending to them never alters a change already
emitted; snapshot() and tool_call() return copies; inputs other than a tool call's are copied.
A tool call's other values (``rawInput``, ``rawOutput``, ``locations``...) are owned, not copied:
the update is the agent's freshly parsed JSON and the change a fact nobody mutates, so the hot
path of a flood of tool-call updates makes no copy of them.
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
        "tool_call content",
        lambda s, v: s.apply_update(
            {"sessionUpdate": "tool_call", "toolCallId": "a", "content": [v]}
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
        "permission content",
        lambda s, v: s.apply_permission_tool_call({"toolCallId": "p", "content": [v]}),
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


def test_a_tool_calls_values_are_owned_not_copied(h) -> None:
    raw, content = nested(), [text("x")]
    changes = h.update(
        {"sessionUpdate": "tool_call", "toolCallId": "a", "rawInput": raw, "content": content}
    )
    record = h.state._snapshot["toolCalls"]["a"]
    assert record["rawInput"] is raw and changes[0]["set"]["rawInput"] is raw
    assert record["content"] == content and record["content"] is not content


def test_growing_the_state_never_alters_an_emitted_change(h) -> None:
    """Chunks append to a tool call's content and merge into a message's text in place: the
    changes already emitted (an editor may not have been sent them yet) stay as they were."""
    emitted = h.updates(
        {"sessionUpdate": "tool_call", "toolCallId": "a", "content": [text("one")]},
        {"sessionUpdate": "agent_message_chunk", "content": text("Hel")},
    )
    kept = copy.deepcopy(emitted)
    h.updates(
        {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "a", "content": text("two")},
        {"sessionUpdate": "agent_message_chunk", "content": text("lo")},
    )
    assert emitted == kept
    assert h.mirror == h.snap
