"""tool_call_content_chunk (v2 draft, accepted on both versions).

Rules under test (rfds/v2/tool-call-updates.mdx, seed "Streaming Content"):
  C1  a chunk appends its single content item to the tool call's current content;
  C2  a chunk for an unseen id creates the tool call (and its transcript entry);
  C3  a later tool_call_update with content replaces everything chunks built;
  C4  later chunks append to that replacement;
  C5  content: [] clears on both versions; content: null clears on v2, is unchanged on v1;
  C6  updates and chunks apply in arrival order per toolCallId; ids do not interfere.
"""

from __future__ import annotations

from typing import Any

import pytest


def item(n: int) -> dict[str, Any]:
    return {"type": "content", "content": {"type": "text", "text": f"line {n}"}}


def chunk(n: int, call_id: str = "call_001") -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_content_chunk", "toolCallId": call_id, "content": item(n)}


def update(call_id: str = "call_001", **fields: Any) -> dict[str, Any]:
    return {"sessionUpdate": "tool_call_update", "toolCallId": call_id, **fields}


UNKNOWN_ITEM = {"type": "_sparkline", "points": [1, 3, 2], "_meta": {"v": 1}}

# (updates, content on v1, content on v2); "<absent>" means the key is not there.
CASES = [
    pytest.param(
        [update(title="t"), chunk(1), chunk(2)],
        [item(1), item(2)],
        None,
        id="C1 chunks append in order",
    ),
    pytest.param([chunk(1)], [item(1)], None, id="C2 a chunk creates an unseen tool call"),
    pytest.param(
        [chunk(1), chunk(2), update(content=[item(9)])],
        [item(9)],
        None,
        id="C3 an update's content replaces everything chunks built",
    ),
    pytest.param(
        [chunk(1), update(content=[item(9)]), chunk(2)],
        [item(9), item(2)],
        None,
        id="C4 later chunks append to the replacement",
    ),
    pytest.param(
        [chunk(1), chunk(2), update(content=[])],
        [],
        None,
        id="C5 content: [] clears what chunks built (both versions)",
    ),
    pytest.param(
        [chunk(1), chunk(2), update(content=None)],
        [item(1), item(2)],
        "<absent>",
        id="C5 content: null is unchanged on v1 and clears on v2",
    ),
    pytest.param(
        [chunk(1), update(content=None), chunk(2)],
        [item(1), item(2)],
        [item(2)],
        id="C5+C4 a chunk after a v2 clear starts a new collection",
    ),
    pytest.param(
        [chunk(1), update(status="in_progress"), chunk(2)],
        [item(1), item(2)],
        None,
        id="C6 an update without content leaves chunked content alone",
    ),
    pytest.param(
        [update(content="garbage"), chunk(1)],
        [item(1)],
        None,
        id="C1 a chunk after a malformed non-array content starts a collection",
    ),
    pytest.param(
        [chunk(1), {**chunk(2), "content": UNKNOWN_ITEM}],
        [item(1), UNKNOWN_ITEM],
        None,
        id="C1 unknown content item types are appended verbatim",
    ),
]


@pytest.mark.parametrize("version", [1, 2], ids=["v1", "v2"])
@pytest.mark.parametrize(("updates", "on_v1", "on_v2"), CASES)
def test_chunk_rules(
    version: int,
    updates: list[dict[str, Any]],
    on_v1: Any,
    on_v2: Any,
    request: pytest.FixtureRequest,
) -> None:
    h = request.getfixturevalue(f"h{version}")
    h.updates(*updates)
    expected = on_v1 if version == 1 or on_v2 is None else on_v2
    record = h.state.tool_call("call_001")
    if expected == "<absent>":
        assert "content" not in record
    else:
        assert record["content"] == expected
    assert h.entries() == [{"kind": "toolCall", "toolCallId": "call_001"}]


def test_interleaved_ids_keep_their_own_order(h) -> None:
    # C6: per-id arrival order, whatever the interleaving.
    h.updates(chunk(1, "a"), chunk(2, "b"), chunk(3, "a"), chunk(4, "b"), chunk(5, "a"))
    assert h.state.tool_call("a")["content"] == [item(1), item(3), item(5)]
    assert h.state.tool_call("b")["content"] == [item(2), item(4)]


def test_chunk_change_carries_only_the_item(h) -> None:
    h.update(chunk(1))
    assert h.update(chunk(2)) == [
        {"type": "tool_call_content", "toolCallId": "call_001", "content": item(2)}
    ]


def test_chunk_on_unseen_id_is_creation_then_append(h) -> None:
    assert h.update(chunk(1, "new")) == [
        {"type": "tool_call", "toolCallId": "new", "set": {}, "unset": []},
        {"type": "entry", "index": 0, "entry": {"kind": "toolCall", "toolCallId": "new"}},
        {"type": "tool_call_content", "toolCallId": "new", "content": item(1)},
    ]


def test_identical_chunks_are_both_kept(h) -> None:
    # A repeated item is a repeated line of output, not a duplicate to drop.
    h.updates(chunk(1), chunk(1))
    assert h.state.tool_call("call_001")["content"] == [item(1), item(1)]


def test_chunk_keeps_other_fields(h) -> None:
    h.updates(update(title="t", status="in_progress"), chunk(1))
    assert h.state.tool_call("call_001") == {
        "toolCallId": "call_001",
        "title": "t",
        "status": "in_progress",
        "content": [item(1)],
    }
