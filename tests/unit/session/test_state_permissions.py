"""A session/request_permission toolCall applied as a tool-call update.

Rules under test (seed "Requesting Permission", rfds/v2/tool-call-updates.mdx, design.md):
  P1  the permission's toolCall is a ToolCallUpdate: it upserts like tool_call_update;
  P2  it may come before (or instead of) the tool_call announcing the id: it then creates it;
  P3  nothing is defaulted: a toolCall without kind/status/title stores none;
  P4  null semantics follow the negotiated version, as for updates.
"""

from __future__ import annotations

import pytest

from acp_editor.session import InvalidUpdate

PENDING_REQUEST = {
    "toolCallId": "pending",
    "title": "Run `ls -la`",
    "rawInput": {"command": "ls -la"},
}


def test_permission_before_its_tool_call_creates_it_without_kind(h) -> None:
    # P2 + P3: claude-code style "pending" id, asked about before any tool_call, no kind.
    changes = h.permission(PENDING_REQUEST)
    assert changes == [
        {
            "type": "tool_call",
            "toolCallId": "pending",
            "set": {"title": "Run `ls -la`", "rawInput": {"command": "ls -la"}},
            "unset": [],
        },
        {"type": "entry", "index": 0, "entry": {"kind": "toolCall", "toolCallId": "pending"}},
    ]
    assert "kind" not in h.state.tool_call("pending")
    assert "status" not in h.state.tool_call("pending")


def test_tool_call_after_permission_patches_the_same_call(h) -> None:
    # P1 + P2: the later announcement fills in fields; no second transcript entry.
    h.permission(PENDING_REQUEST)
    changes = h.update(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "pending",
            "title": "Run `ls -la`",
            "kind": "execute",
            "status": "in_progress",
        }
    )
    assert changes == [
        {
            "type": "tool_call",
            "toolCallId": "pending",
            "set": {"kind": "execute", "status": "in_progress"},
            "unset": [],
        }
    ]
    assert h.entries() == [{"kind": "toolCall", "toolCallId": "pending"}]


def test_permission_with_only_an_id_on_a_known_call_changes_nothing(h) -> None:
    # P1: the seed's minimal request {"toolCallId": "call_001"} is an empty patch.
    h.update(
        {"sessionUpdate": "tool_call", "toolCallId": "call_001", "title": "Read", "kind": "read"}
    )
    assert h.permission({"toolCallId": "call_001"}) == []


def test_permission_for_a_never_announced_id_is_kept(h) -> None:
    h.permission({"toolCallId": "call_009"})
    assert h.state.tool_call("call_009") == {"toolCallId": "call_009"}
    assert h.entries() == [{"kind": "toolCall", "toolCallId": "call_009"}]


@pytest.mark.parametrize(
    ("version", "expected_title"), [(1, "Edit config"), (2, None)], ids=["v1 keeps", "v2 clears"]
)
def test_permission_null_follows_the_version(version, expected_title, request) -> None:
    # P4.
    h = request.getfixturevalue(f"h{version}")
    h.update({"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Edit config"})
    h.permission({"toolCallId": "c", "title": None, "kind": "edit"})
    assert h.state.tool_call("c").get("title") == expected_title
    assert h.state.tool_call("c")["kind"] == "edit"


def test_permission_extra_fields_and_meta_are_verbatim(h) -> None:
    h.permission(
        {"toolCallId": "x", "_meta": {"claudeCode": {"toolName": "Bash"}}, "kind": "_sandbox"}
    )
    assert h.state.tool_call("x") == {
        "toolCallId": "x",
        "_meta": {"claudeCode": {"toolName": "Bash"}},
        "kind": "_sandbox",
    }


def test_permission_sessionupdate_key_is_ignored(h) -> None:
    # Some bridges forward the whole update object; the tag is not tool-call data.
    h.permission({"sessionUpdate": "tool_call_update", "toolCallId": "x", "title": "t"})
    assert h.state.tool_call("x") == {"toolCallId": "x", "title": "t"}


@pytest.mark.parametrize(
    "tool_call",
    [{}, {"toolCallId": None}, {"toolCallId": 5}, {"title": "no id"}, "call_001", None, []],
    ids=["empty", "null id", "int id", "missing id", "string", "null", "list"],
)
def test_unusable_permission_tool_call_is_invalid(h, tool_call) -> None:
    before = h.snap
    with pytest.raises(InvalidUpdate, match="toolCall"):
        h.state.apply_permission_tool_call(tool_call)
    assert h.snap == before
