def test_auth_status_from_the_schema_and_from_claude_agent_acp() -> None:
    from acp_editor.protocol.acp import auth_status

    accounts = [{"label": "Work"}, {"label": "Claude Max", "active": True}]
    assert auth_status({"state": "authenticated", "accounts": accounts}) == {
        "state": "authenticated",
        "accounts": accounts,
        "label": "Claude Max",
    }
    assert auth_status({"state": "_custom"}) == {"state": "_custom"}
    none = {"authStatus": {"kind": "none", "label": "Not logged in"}}
    assert auth_status(none) == {"state": "unauthenticated", "label": "Not logged in"}
    key = {"authStatus": {"kind": "api_key", "label": "ANTHROPIC_API_KEY"}}
    assert auth_status(key) == {"state": "authenticated", "label": "ANTHROPIC_API_KEY"}
    assert auth_status({"accounts": []}) is None and auth_status([]) is None


def test_a_tool_call_is_called_by_its_title_else_its_name_else_its_kind() -> None:
    from acp_editor.protocol.acp import tool_call_title

    assert tool_call_title({"title": "Read a.py", "name": "Read"}) == "Read a.py"
    assert tool_call_title({"title": " ", "name": "Read"}) == "Read"
    assert tool_call_title({"kind": "edit"}) == "edit"
    assert tool_call_title({}, "call 1") == "call 1"


def test_cancel_is_offered_only_by_a_cancel_object_in_capabilities() -> None:
    """Schema 1.25's ToolCallCapabilities and TerminalCapabilities: ``{}`` is enough; omitted,
    null or malformed means the client must not send ``tool_call/cancel`` / ``terminal/cancel``."""
    from acp_editor.protocol.acp import can_cancel

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
