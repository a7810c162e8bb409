"""What a tool call says (protocol.tool_call): its name for people; the files it names and edits,
in v1's diff shape and in the v2 draft's ``changes`` (permission rules and review attribution
rely on them)."""

from __future__ import annotations

from acp_editor.editor.show.wording import summary
from acp_editor.protocol import tool_call

V1 = {"type": "diff", "path": "/w/a.py", "oldText": "a\n", "newText": "b\n"}
V2 = {
    "type": "diff",
    "changes": [
        {"operation": "modify", "path": "/w/b.py"},
        {"operation": "move", "oldPath": "/w/old.py", "path": "/w/new.py"},
        {"operation": "delete"},  # no path: malformed, skipped
        "not a change",
    ],
    "patch": {"format": "git_patch", "text": ""},
}


def test_v1_and_v2_diffs_name_their_files() -> None:
    call = {"kind": "edit", "content": [V1, V2], "locations": [{"path": "/w/c.py"}]}
    assert tool_call.diff_paths(call) == ["/w/a.py", "/w/b.py", "/w/new.py", "/w/old.py"]
    assert tool_call.edited_paths(call) == [
        "/w/a.py",
        "/w/b.py",
        "/w/new.py",
        "/w/old.py",
        "/w/c.py",
    ]
    assert tool_call.paths_named(call) == [
        "/w/a.py",
        "/w/b.py",
        "/w/new.py",
        "/w/old.py",
        "/w/c.py",
    ]
    assert tool_call.structured_diffs(call) == [V2]


def test_a_question_says_what_a_v2_diff_does() -> None:
    line = summary({"content": [V2]})
    assert line == "modify /w/b.py; move /w/old.py -> /w/new.py"


def test_a_tool_call_is_called_by_its_title_else_its_name_else_its_kind() -> None:
    from acp_editor.protocol.tool_call import tool_call_title

    assert tool_call_title({"title": "Read a.py", "name": "Read"}) == "Read a.py"
    assert tool_call_title({"title": " ", "name": "Read"}) == "Read"
    assert tool_call_title({"kind": "edit"}) == "edit"
    assert tool_call_title({}, "call 1") == "call 1"


def test_cancel_is_offered_only_by_a_cancel_object_in_capabilities() -> None:
    """Schema 1.25's ToolCallCapabilities and TerminalCapabilities: ``{}`` is enough; omitted,
    null or malformed means the client must not send ``tool_call/cancel`` / ``terminal/cancel``."""
    from acp_editor.protocol.tool_call import can_cancel

    assert can_cancel({"capabilities": {"cancel": {}}})
    assert can_cancel({"capabilities": {"cancel": {"_meta": {"x": 1}}}})
    for no in ({}, {"capabilities": None}, {"capabilities": {"cancel": None}}):
        assert not can_cancel(no)
    assert not can_cancel({"capabilities": {"cancel": True}})  # malformed: no controls
    assert not can_cancel({"capabilities": "cancel"}) and not can_cancel(None)


def test_error_data_is_read_only_for_the_codes_that_define_it() -> None:
    from acp_editor.protocol.acp import session_not_found, versions_spoken

    assert versions_spoken(-32022, {"requested": 2, "supported": [1, True, "3"]}) == [1]
    assert versions_spoken(-32022, None) is None
    assert versions_spoken(-32602, {"supported": [1]}) is None
    assert session_not_found(-32002, {"sessionId": "s9"}) == "s9"
    assert session_not_found(-32002, {"path": "/a"}) is None  # a file, not a session
    assert session_not_found(-32603, {"sessionId": "s9"}) is None
