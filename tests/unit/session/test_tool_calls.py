"""Tool calls as upserts keyed by toolCallId, on protocol 1 and protocol 2.

Rules under test (seed "Tool Calls" pages, rfds/v2/tool-call-updates.mdx, design.md):
  U1  tool_call and tool_call_update are both upserts: an unseen id creates, a seen id patches;
  U2  an omitted field stays unchanged;
  U3  a present value replaces; content and locations are replaced as whole arrays;
  U4  null: protocol 1 = unchanged, protocol 2 = clear (the key is removed);
  U5  content [] clears on both versions;
  U6  unknown fields, _meta, custom kinds/statuses, unknown content types are stored verbatim,
      nothing is coerced or defaulted;
  U7  a new id appends one {"kind": "toolCall"} transcript entry, however often it is reported.
"""

from __future__ import annotations

from typing import Any

import pytest

TEXT_ITEM = {
    "type": "content",
    "content": {"type": "text", "text": "Found 3 configuration files..."},
}
DIFF_ITEM = {
    "type": "diff",
    "path": "/home/user/project/src/config.json",
    "oldText": '{\n  "debug": false\n}',
    "newText": '{\n  "debug": true\n}',
}
TERMINAL_ITEM = {"type": "terminal", "terminalId": "term_xyz789"}
LOC_A = {"path": "/home/user/project/src/main.py", "line": 42}
LOC_B = {"path": "/home/user/project/src/lib.py"}


def tc(
    variant: str = "tool_call_update", /, call_id: str = "call_001", **fields: Any
) -> dict[str, Any]:
    return {"sessionUpdate": variant, "toolCallId": call_id, **fields}


SEED_CREATE = tc("tool_call", title="Reading configuration file", kind="read", status="pending")
SEED_UPDATE = tc(status="in_progress", content=[TEXT_ITEM])

# (updates, record on protocol 1, record on protocol 2); records omit toolCallId.
CASES = [
    pytest.param(
        [SEED_CREATE, SEED_UPDATE],
        {
            "title": "Reading configuration file",
            "kind": "read",
            "status": "in_progress",
            "content": [TEXT_ITEM],
        },
        None,
        id="U1+U2 seed example: tool_call then tool_call_update patches status and content",
    ),
    pytest.param(
        [tc(title="Reading configuration file", kind="read", status="pending")],
        {"title": "Reading configuration file", "kind": "read", "status": "pending"},
        None,
        id="U1 seed v2 example: tool_call_update for an unseen id creates it",
    ),
    pytest.param(
        [SEED_CREATE, tc("tool_call", status="in_progress", rawInput={"path": "/a"})],
        {
            "title": "Reading configuration file",
            "kind": "read",
            "status": "in_progress",
            "rawInput": {"path": "/a"},
        },
        None,
        id="U1 a duplicate tool_call patches instead of resetting",
    ),
    pytest.param(
        [
            tc(title="t", content=[TEXT_ITEM, DIFF_ITEM], locations=[LOC_A, LOC_B]),
            tc(content=[TERMINAL_ITEM], locations=[LOC_B]),
        ],
        {"title": "t", "content": [TERMINAL_ITEM], "locations": [LOC_B]},
        None,
        id="U3 content and locations are replaced as whole arrays, never merged",
    ),
    pytest.param(
        [tc(title="t", rawInput={"a": 1, "b": 2}), tc(rawInput={"a": 1})],
        {"title": "t", "rawInput": {"a": 1}},
        None,
        id="U3 rawInput is replaced, not deep-merged",
    ),
    pytest.param(
        [tc(title="t", content=[TEXT_ITEM], locations=[LOC_A]), tc(content=[], locations=[])],
        {"title": "t", "content": [], "locations": []},
        None,
        id="U5 content: [] and locations: [] clear on both versions",
    ),
    pytest.param(
        [tc(title="t", status="pending", content=[TEXT_ITEM]), tc(content=None)],
        {"title": "t", "status": "pending", "content": [TEXT_ITEM]},
        {"title": "t", "status": "pending"},
        id="U4 content: null is unchanged on v1, clears on v2",
    ),
    pytest.param(
        [
            tc(
                title="t",
                kind="read",
                status="pending",
                locations=[LOC_A],
                rawInput={},
                rawOutput=1,
            ),
            tc(title=None, kind=None, status=None, locations=None, rawInput=None, rawOutput=None),
        ],
        {
            "title": "t",
            "kind": "read",
            "status": "pending",
            "locations": [LOC_A],
            "rawInput": {},
            "rawOutput": 1,
        },
        {},
        id="U4 every field set to null: v1 keeps all, v2 clears all",
    ),
    pytest.param(
        [
            tc(
                "tool_call",
                title="t",
                kind=None,
                status=None,
                content=None,
                locations=None,
                rawInput=None,
                rawOutput=None,
            )
        ],
        {"title": "t"},
        None,
        id="U4 a v1 agent serialising unset fields as null creates a call without them",
    ),
    pytest.param(
        [tc(title="t", _meta={"a": 1}), tc(_meta=None)],
        {"title": "t", "_meta": {"a": 1}},
        {"title": "t"},
        id="U4+U6 _meta: null clears it on v2 only",
    ),
    pytest.param(
        [tc(title="t", rawInput={"keep": None})],
        {"title": "t", "rawInput": {"keep": None}},
        None,
        id="U4 nulls nested inside a value are data, not clears",
    ),
    pytest.param(
        [tc(kind="_custom_kind", status="_waiting", title="t")],
        {"kind": "_custom_kind", "status": "_waiting", "title": "t"},
        None,
        id="U6 custom kinds and statuses are stored verbatim",
    ),
    pytest.param(
        [tc(kind="teleport", status="exploded")],
        {"kind": "teleport", "status": "exploded"},
        None,
        id="U6 unknown non-underscore kinds and statuses are not coerced to defaults",
    ),
    pytest.param(
        [
            tc(
                content=[
                    {"type": "_widget", "spec": {"w": 1}},
                    {"type": "content", "content": {"type": "_x"}},
                ],
                _meta={"vendor": {"trace": "abc"}},
                extra={"future": True},
            )
        ],
        {
            "content": [
                {"type": "_widget", "spec": {"w": 1}},
                {"type": "content", "content": {"type": "_x"}},
            ],
            "_meta": {"vendor": {"trace": "abc"}},
            "extra": {"future": True},
        },
        None,
        id="U6 unknown content types, _meta and unknown fields are stored verbatim",
    ),
    pytest.param(
        [tc(content="not an array", locations={"path": "/x"})],
        {"content": "not an array", "locations": {"path": "/x"}},
        None,
        id="U6 malformed values are stored as sent, not coerced",
    ),
    pytest.param(
        [tc(rawOutput=1), tc(rawOutput=True), tc(rawOutput=1.0)],
        {"rawOutput": 1.0},
        None,
        id="U3 1, true and 1.0 are different values, so each replaces the last",
    ),
]


@pytest.mark.parametrize("version", [1, 2], ids=["v1", "v2"])
@pytest.mark.parametrize(("updates", "on_v1", "on_v2"), CASES)
def test_upsert(
    version: int,
    updates: list[dict[str, Any]],
    on_v1: dict[str, Any],
    on_v2: dict[str, Any] | None,
    request: pytest.FixtureRequest,
) -> None:
    h = request.getfixturevalue(f"h{version}")
    h.updates(*updates)
    expected = on_v1 if version == 1 or on_v2 is None else on_v2
    assert h.state.tool_call("call_001") == {"toolCallId": "call_001", **expected}
    assert h.entries() == [{"kind": "toolCall", "toolCallId": "call_001"}]  # U7


def test_stored_value_types_survive(h) -> None:
    # U3 + the strict comparison: True must not be kept as a stale 1.
    h.updates(tc(rawOutput=1), tc(rawOutput=True))
    assert h.state.tool_call("call_001")["rawOutput"] is True


def test_sessionupdate_is_not_stored(h) -> None:
    h.update(SEED_CREATE)
    assert "sessionUpdate" not in h.state.tool_call("call_001")


def test_unseen_id_returns_none(h) -> None:
    assert h.state.tool_call("nope") is None


def test_two_ids_get_two_entries_in_first_report_order(h) -> None:
    # U7: entries mark where each call first appeared; later updates do not move them.
    h.updates(tc(call_id="b"), tc(call_id="a"), tc(call_id="b", status="completed"))
    assert h.entries() == [
        {"kind": "toolCall", "toolCallId": "b"},
        {"kind": "toolCall", "toolCallId": "a"},
    ]
    assert list(h.snap["toolCalls"]) == ["b", "a"]


def test_empty_string_id_is_still_an_id(h) -> None:
    h.update(tc(call_id="", title="odd"))
    assert h.state.tool_call("") == {"toolCallId": "", "title": "odd"}


def test_v2_cleared_field_can_be_set_again(h2) -> None:
    h2.updates(tc(title="a"), tc(title=None), tc(title="b"))
    assert h2.state.tool_call("call_001") == {"toolCallId": "call_001", "title": "b"}
