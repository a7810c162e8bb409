"""The change stream: minimal changes, [] for no-ops, and the reducer's own checks.

Rules under test (the brief's "Changes" and the reducer docstring):
  K1  a tool-call creation is a tool_call change (fields sent) followed by an entry change;
  K2  a tool_call change carries only the fields that actually changed;
  K3  an update that changes nothing returns [];
  K4  apply_change refuses unknown change types and out-of-order entries, so a mirror that
      missed a change fails loudly instead of drifting.
"""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.session import apply_change, empty_snapshot


def tcu(**fields: Any) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_update", "toolCallId": "c", **fields}


def test_creation_is_record_then_entry(h) -> None:
    # K1.
    h.update({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "x"}})
    assert h.update(
        {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Read", "kind": "read"}
    ) == [
        {
            "type": "tool_call",
            "toolCallId": "c",
            "set": {"title": "Read", "kind": "read"},
            "unset": [],
        },
        {"type": "entry", "index": 1, "entry": {"kind": "toolCall", "toolCallId": "c"}},
    ]


@pytest.mark.parametrize(
    ("version", "second", "expected"),
    [
        (
            1,
            tcu(title="Read", status="completed"),
            [{"type": "tool_call", "toolCallId": "c", "set": {"status": "completed"}, "unset": []}],
        ),
        (1, tcu(title="Read", status="pending"), []),
        (1, tcu(title=None, status=None), []),
        (
            2,
            tcu(title=None, status="pending"),
            [{"type": "tool_call", "toolCallId": "c", "set": {}, "unset": ["title"]}],
        ),
        (2, tcu(kind=None), []),
        (
            2,
            tcu(title="Read", locations=[{"path": "/a"}], rawOutput=None),
            [
                {
                    "type": "tool_call",
                    "toolCallId": "c",
                    "set": {"locations": [{"path": "/a"}]},
                    "unset": [],
                }
            ],
        ),
        (2, tcu(), []),
    ],
    ids=[
        "v1 changed status only",
        "v1 same values",
        "v1 nulls",
        "v2 clear title",
        "v2 clear absent field",
        "v2 new field only",
        "v2 empty patch",
    ],
)
def test_tool_call_changes_are_minimal(version, second, expected, request) -> None:
    # K2 + K3.
    h = request.getfixturevalue(f"h{version}")
    h.update(tcu(title="Read", status="pending"))
    assert h.update(second) == expected


def test_content_replaced_with_equal_array_is_no_change(h) -> None:
    # K3: content built by chunks equals the same array sent whole.
    item = {"type": "content", "content": {"type": "text", "text": "a"}}
    h.updates(
        tcu(), {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c", "content": item}
    )
    assert h.update(tcu(content=[item])) == []


def test_same_modes_and_options_are_no_change(h) -> None:
    # K3.
    modes = {"currentModeId": "a", "availableModes": []}
    h.set_modes(modes)
    assert h.set_modes(modes) == []
    assert h.set_current_mode("a") == []
    h.set_config_options([])
    assert h.set_config_options([]) == []
    assert h.set_modes(None) != []
    assert h.set_modes(None) == []
    assert h.set_config_options(None) != []


def test_changes_apply_to_a_fresh_mirror_in_order(h) -> None:
    # The core invariant spelled out once by hand (the harness checks it on every call).
    changes = []
    changes += h.state.apply_update(
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "a"}}
    )
    changes += h.state.apply_permission_tool_call({"toolCallId": "p", "title": "t"})
    changes += h.state.add_user_prompt([{"type": "text", "text": "b"}])
    changes += h.state.mark_unfinished_cancelled()
    mirror = empty_snapshot(h.state.session_id, h.state.protocol_version)
    for change in changes:
        apply_change(mirror, change)
    assert mirror == h.state.snapshot()


def test_reducer_rejects_unknown_change_type() -> None:
    # K4.
    with pytest.raises(ValueError, match="unknown session change type"):
        apply_change(empty_snapshot("s", 1), {"type": "teleport"})


def test_reducer_rejects_an_entry_at_the_wrong_index() -> None:
    # K4: index 1 on an empty transcript means change 0 was missed.
    with pytest.raises(ValueError, match="missed"):
        apply_change(
            empty_snapshot("s", 1), {"type": "entry", "index": 1, "entry": {"kind": "update"}}
        )


def test_reducer_merges_text_exactly_like_the_state() -> None:
    snapshot = empty_snapshot("s", 1)
    entry = {
        "kind": "message",
        "role": "agent",
        "messageId": None,
        "content": [{"type": "text", "text": "a"}],
    }
    apply_change(snapshot, {"type": "entry", "index": 0, "entry": entry})
    apply_change(
        snapshot, {"type": "message_chunk", "index": 0, "content": {"type": "text", "text": "b"}}
    )
    assert snapshot["entries"][0]["content"] == [{"type": "text", "text": "ab"}]


def test_json_equal_tells_minus_zero_from_zero() -> None:
    from acp_editor.session.reducer import json_equal

    assert not json_equal(0.0, -0.0) and json_equal(-0.0, -0.0) and json_equal(0.0, 0.0)
    assert not json_equal([0.0], [-0.0])
