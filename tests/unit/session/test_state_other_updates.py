"""Plan, commands, modes, config options, usage, session info, and unknown update variants.

Rules under test (schema v1 SessionUpdate variants, design.md):
  O1  plan: replaced whole (the update minus sessionUpdate, _meta included);
  O2  available_commands_update: availableCommands replaced;
  O3  current_mode_update: currentModeId (or modeId, from one doc example) sets
      modes.currentModeId, creating modes when there are none;
  O4  config_option_update: configOptions replaced;
  O5  usage_update: usage replaced (the update minus sessionUpdate);
  O6  session_info_update: fields merged into info, null clears a field;
  O7  any other sessionUpdate (or a known one missing its value member): a raw transcript entry;
  O8  a value equal to the current one changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

PLAN_1 = {
    "entries": [
        {"content": "Read the file", "priority": "medium", "status": "completed"},
        {"content": "Make changes", "priority": "medium", "status": "in_progress"},
    ]
}
PLAN_2 = {
    "entries": [{"content": "Test changes", "priority": "high", "status": "pending"}],
    "_meta": {"source": "todo_write"},
}
COMMANDS = [{"name": "web", "description": "Search the web", "input": {"hint": "query"}}]
MODES = {
    "currentModeId": "ask",
    "availableModes": [{"id": "ask", "name": "Ask"}, {"id": "code", "name": "Code"}],
}
OPTIONS = [
    {"id": "model", "name": "Model", "type": "select", "currentValue": "fast", "options": []}
]


def up(kind: str, **fields: Any) -> dict[str, Any]:
    return {"sessionUpdate": kind, **fields}


def test_plan_is_replaced_whole(h) -> None:
    # O1: the second plan does not merge with the first.
    assert h.update(up("plan", **PLAN_1)) == [{"type": "plan", "plan": PLAN_1}]
    assert h.update(up("plan", **PLAN_2)) == [{"type": "plan", "plan": PLAN_2}]
    assert h.snap["plan"] == PLAN_2
    assert h.entries() == []


def test_empty_plan_is_stored_not_cleared(h) -> None:
    h.update(up("plan", **PLAN_1))
    h.update(up("plan", entries=[]))
    assert h.snap["plan"] == {"entries": []}


def test_commands_are_replaced(h) -> None:
    # O2.
    assert h.update(up("available_commands_update", availableCommands=COMMANDS)) == [
        {"type": "commands", "availableCommands": COMMANDS}
    ]
    h.update(up("available_commands_update", availableCommands=[]))
    assert h.snap["availableCommands"] == []


@pytest.mark.parametrize("member", ["currentModeId", "modeId"])
def test_current_mode_update_sets_the_current_mode(h, member: str) -> None:
    # O3.
    h.set_modes(MODES)
    assert h.update(up("current_mode_update", **{member: "code"})) == [
        {"type": "modes", "modes": {**MODES, "currentModeId": "code"}}
    ]


def test_current_mode_update_without_modes_creates_them(h) -> None:
    # O3: no availableModes is invented.
    h.update(up("current_mode_update", currentModeId="code"))
    assert h.snap["modes"] == {"currentModeId": "code"}


def test_current_mode_prefers_the_schema_member(h) -> None:
    h.update(up("current_mode_update", currentModeId="code", modeId="ask"))
    assert h.snap["modes"] == {"currentModeId": "code"}


def test_set_modes_and_set_current_mode(h) -> None:
    assert h.set_modes(MODES) == [{"type": "modes", "modes": MODES}]
    assert h.set_current_mode("code") == [
        {"type": "modes", "modes": {**MODES, "currentModeId": "code"}}
    ]
    assert h.set_modes(None) == [{"type": "modes", "modes": None}]
    h.set_current_mode("ask")
    assert h.snap["modes"] == {"currentModeId": "ask"}


def test_config_options_from_update_and_from_responses(h) -> None:
    # O4.
    assert h.update(up("config_option_update", configOptions=OPTIONS)) == [
        {"type": "config_options", "configOptions": OPTIONS}
    ]
    assert h.set_config_options([]) == [{"type": "config_options", "configOptions": []}]
    assert h.set_config_options(None) == [{"type": "config_options", "configOptions": None}]


def test_usage_is_replaced_whole(h) -> None:
    # O5: cost disappears when the next update omits it; the object is not merged.
    first = {"used": 1000, "size": 200000, "cost": {"amount": 0.01, "currency": "USD"}}
    h.update(up("usage_update", **first))
    assert h.snap["usage"] == first
    assert h.update(up("usage_update", used=2000, size=200000)) == [
        {"type": "usage", "usage": {"used": 2000, "size": 200000}}
    ]


def test_session_info_merges_and_null_clears(h) -> None:
    # O6.
    assert h.update(
        up("session_info_update", title="Fix bug", updatedAt="2025-01-01T00:00:00Z")
    ) == [{"type": "info", "info": {"title": "Fix bug", "updatedAt": "2025-01-01T00:00:00Z"}}]
    h.update(up("session_info_update", title="Fix the bug", _meta={"k": 1}))
    assert h.snap["info"] == {
        "title": "Fix the bug",
        "updatedAt": "2025-01-01T00:00:00Z",
        "_meta": {"k": 1},
    }
    h.update(up("session_info_update", updatedAt=None))
    assert h.snap["info"] == {"title": "Fix the bug", "_meta": {"k": 1}}


def test_session_info_null_for_an_unknown_field_changes_nothing(h) -> None:
    # O6 + O8.
    assert h.update(up("session_info_update", title=None)) == []
    assert h.snap["info"] == {}


@pytest.mark.parametrize(
    "update",
    [
        up("plan", **PLAN_1),
        up("available_commands_update", availableCommands=COMMANDS),
        up("current_mode_update", currentModeId="code"),
        up("config_option_update", configOptions=OPTIONS),
        up("usage_update", used=1, size=2),
        up("session_info_update", title="t"),
    ],
    ids=lambda u: u["sessionUpdate"],
)
def test_repeating_a_value_changes_nothing(h, update: dict[str, Any]) -> None:
    # O8.
    assert h.update(update) != []
    assert h.update(update) == []


@pytest.mark.parametrize(
    "update",
    [
        up("_future_variant", terminalId="term_1", data="bG9n"),
        up("_vendor_progress", percent=40, _meta={"x": None}),
        up("available_commands_update"),
        up("config_option_update", _meta={}),
        up("current_mode_update"),
        up(""),
    ],
    ids=[
        "future v2 variant",
        "custom variant",
        "commands without member",
        "config without member",
        "mode without id",
        "empty tag",
    ],
)
def test_unknown_or_unusable_variants_become_raw_entries(h, update: dict[str, Any]) -> None:
    # O7: nothing is dropped; the raw object, tag included, is kept verbatim.
    assert h.update(update) == [
        {"type": "entry", "index": 0, "entry": {"kind": "update", "update": update}}
    ]
    assert h.update(update) == [
        {"type": "entry", "index": 1, "entry": {"kind": "update", "update": update}}
    ]


def test_empty_snapshot_shape(h) -> None:
    assert h.snap == {
        "sessionId": "sess_abc123def456",
        "protocolVersion": h.state.protocol_version,
        "entries": [],
        "toolCalls": {},
        "plan": None,
        "availableCommands": None,
        "modes": None,
        "configOptions": None,
        "usage": None,
        "info": {},
        "plans": None,
        "runState": None,
        "subagents": None,
    }
    assert h.state.session_id == "sess_abc123def456"
