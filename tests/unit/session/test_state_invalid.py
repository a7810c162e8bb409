"""InvalidUpdate: updates the state cannot use at all, rejected before anything changes.

Rule under test: an update that is not an object, lacks a string sessionUpdate, is a tool-call
update without a string toolCallId, or is a chunk without content raises InvalidUpdate (a
ValueError) with a message naming the problem, and leaves the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.session import InvalidUpdate

TEXT = {"type": "text", "text": "x"}

CASES = [
    pytest.param(None, "must be an object", id="null"),
    pytest.param([{"sessionUpdate": "plan"}], "must be an object", id="array"),
    pytest.param("agent_message_chunk", "must be an object", id="string"),
    pytest.param({}, "sessionUpdate", id="no sessionUpdate"),
    pytest.param(
        {"sessionUpdate": None, "content": TEXT}, "sessionUpdate", id="null sessionUpdate"
    ),
    pytest.param({"sessionUpdate": 3}, "sessionUpdate", id="int sessionUpdate"),
    pytest.param({"sessionUpdate": "tool_call", "title": "t"}, "toolCallId", id="tool_call no id"),
    pytest.param(
        {"sessionUpdate": "tool_call_update", "toolCallId": None},
        "toolCallId",
        id="tool_call_update null id",
    ),
    pytest.param(
        {"sessionUpdate": "tool_call_update", "toolCallId": 42},
        "toolCallId",
        id="tool_call_update int id",
    ),
    pytest.param(
        {"sessionUpdate": "tool_call_content_chunk", "content": TEXT},
        "toolCallId",
        id="content chunk no id",
    ),
    pytest.param(
        {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "a"},
        "no content",
        id="content chunk no content",
    ),
    pytest.param(
        {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "a", "content": None},
        "no content",
        id="content chunk null content",
    ),
    pytest.param(
        {"sessionUpdate": "agent_message_chunk"}, "no content", id="agent chunk no content"
    ),
    pytest.param(
        {"sessionUpdate": "user_message_chunk", "messageId": "m"},
        "no content",
        id="user chunk no content",
    ),
    pytest.param(
        {"sessionUpdate": "agent_thought_chunk", "content": None},
        "no content",
        id="thought chunk null content",
    ),
]


@pytest.mark.parametrize(("update", "message"), CASES)
def test_invalid_update_is_rejected_without_change(h, update: Any, message: str) -> None:
    # Populate first so "unchanged" means something.
    h.updates(
        {"sessionUpdate": "agent_message_chunk", "content": TEXT, "messageId": "m"},
        {"sessionUpdate": "tool_call", "toolCallId": "a", "title": "t"},
    )
    before = h.snap
    with pytest.raises(InvalidUpdate, match=message):
        h.state.apply_update(update)
    assert h.snap == before
    # The state still works afterwards.
    h.update({"sessionUpdate": "agent_message_chunk", "content": TEXT, "messageId": "m"})


def test_invalid_update_is_a_value_error() -> None:
    assert issubclass(InvalidUpdate, ValueError)


def test_message_names_the_variant(h) -> None:
    with pytest.raises(InvalidUpdate, match="tool_call_update needs a string toolCallId, got 42"):
        h.state.apply_update({"sessionUpdate": "tool_call_update", "toolCallId": 42})
