"""An update's fields as the state reads them: what makes one unusable is said before anything
changes."""

from __future__ import annotations

import pytest

from acp_editor.session.update_fields import (
    InvalidUpdate,
    plan_id,
    require_content,
    require_tool_call_id,
    without_tag,
)


def test_fields_read_and_refused() -> None:
    update = {"sessionUpdate": "tool_call", "toolCallId": "t1", "content": [], "x": {"y": 1}}
    copied = without_tag(update)
    assert copied == {"toolCallId": "t1", "content": [], "x": {"y": 1}}
    assert copied["x"] is not update["x"]  # a copy: the state never shares the agent's objects
    assert require_tool_call_id(update, "tool_call") == "t1"
    assert require_content(update, "chunk") == []
    with pytest.raises(InvalidUpdate, match="needs a string toolCallId"):
        require_tool_call_id({"toolCallId": 7}, "tool_call")
    with pytest.raises(InvalidUpdate, match="has no content"):
        require_content({}, "chunk")
    assert plan_id({"plan": {"planId": "p1"}}) == "p1"
    assert plan_id({"plan": {"planId": 3}}) is None and plan_id({}) is None
