"""Child sessions in their parent's snapshot (session.subagents)."""

from __future__ import annotations

import pytest

from acp_editor.session import InvalidUpdate
from tests.unit.session.conftest import Harness

CHILD = {"sessionUpdate": "subagent_update", "sessionId": "child"}


def test_a_child_is_announced_under_the_tool_call_running_then(h: Harness) -> None:
    h.update(
        {"sessionUpdate": "tool_call", "toolCallId": "done", "title": "x", "status": "completed"}
    )
    h.update({"sessionUpdate": "tool_call", "toolCallId": "task", "title": "Task"})
    h.update({**CHILD, "title": "Explore", "state": {"state": "running"}})
    assert h.snap["subagents"] == {
        "child": {
            "sessionId": "child",
            "toolCallId": "task",
            "title": "Explore",
            "state": {"state": "running"},
        }
    }


def test_omitted_is_unchanged_null_clears_a_value_replaces_whole(h: Harness) -> None:
    h.update({**CHILD, "title": "T", "capabilities": {"cancel": {}}, "state": {"state": "running"}})
    h.update({**CHILD, "title": None, "state": {"state": "idle", "stopReason": "end_turn"}})
    assert h.snap["subagents"]["child"] == {
        "sessionId": "child",
        "capabilities": {"cancel": {}},
        "state": {"state": "idle", "stopReason": "end_turn"},
    }
    assert h.update({**CHILD, "capabilities": {"cancel": {}}}) == []


def test_a_child_without_running_tool_call_has_none_and_bad_ids_are_refused(h: Harness) -> None:
    h.update(CHILD)
    assert h.snap["subagents"] == {"child": {"sessionId": "child"}}
    with pytest.raises(InvalidUpdate):
        h.state.apply_update({"sessionUpdate": "subagent_update", "sessionId": ""})


def test_a_read_or_a_command_running_beside_it_is_not_taken_for_its_task(h: Harness) -> None:
    h.update({"sessionUpdate": "tool_call", "toolCallId": "sh", "title": "ls", "kind": "execute"})
    h.update(CHILD)
    assert "toolCallId" not in h.snap["subagents"]["child"]


def test_a_running_call_of_any_odd_kind_does_not_break_it(h: Harness) -> None:
    h.update({"sessionUpdate": "tool_call", "toolCallId": "odd", "title": "x", "kind": [1]})
    h.update(CHILD)
    assert h.snap["subagents"]["child"]["toolCallId"] == "odd"
