"""mark_unfinished_cancelled, called after session/cancel.

Rule under test: every tool call whose status is not completed/failed/cancelled gets the local
status "cancelled" (an agent may stop without reporting a final status, and a spinner must not
spin forever); finished calls are left exactly as they were.
"""

from __future__ import annotations

from typing import Any

import pytest


def call(call_id: str, **fields: Any) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_update", "toolCallId": call_id, **fields}


@pytest.mark.parametrize(
    ("fields", "cancelled"),
    [
        ({"status": "pending"}, True),
        ({"status": "in_progress"}, True),
        ({}, True),
        ({"status": "_awaiting_review"}, True),
        ({"status": "exploded"}, True),
        ({"status": ["odd"]}, True),
        ({"status": "completed"}, False),
        ({"status": "failed"}, False),
        ({"status": "cancelled"}, False),
    ],
    ids=[
        "pending",
        "in_progress",
        "no status",
        "custom",
        "unknown",
        "malformed",
        "completed",
        "failed",
        "cancelled",
    ],
)
def test_which_calls_get_cancelled(h, fields: dict[str, Any], cancelled: bool) -> None:
    h.update(call("c", title="t", **fields))
    before = h.state.tool_call("c")
    changes = h.cancel()
    if cancelled:
        assert changes == [
            {"type": "tool_call", "toolCallId": "c", "set": {"status": "cancelled"}, "unset": []}
        ]
        assert h.state.tool_call("c") == {**before, "status": "cancelled"}
    else:
        assert changes == []
        assert h.state.tool_call("c") == before


def test_cancel_touches_only_unfinished_calls_in_report_order(h) -> None:
    h.updates(call("a", status="in_progress"), call("b", status="completed"), call("c"))
    changes = h.cancel()
    assert [change["toolCallId"] for change in changes] == ["a", "c"]
    assert h.state.tool_call("b")["status"] == "completed"


def test_cancel_twice_changes_nothing_the_second_time(h) -> None:
    h.update(call("a", status="pending"))
    h.cancel()
    assert h.cancel() == []


def test_cancel_with_no_tool_calls_is_a_no_op(h) -> None:
    assert h.cancel() == []


def test_a_late_update_after_cancel_still_applies(h) -> None:
    # The agent's own final word wins over the local guess.
    h.update(call("a", status="in_progress"))
    h.cancel()
    h.update(call("a", status="completed"))
    assert h.state.tool_call("a")["status"] == "completed"
