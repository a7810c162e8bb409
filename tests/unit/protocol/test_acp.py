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
