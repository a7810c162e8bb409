"""Offering ACP v2: both initialize shapes go out, and a v2 answer is read as v2 (``info``,
``capabilities``, which methods are required, optional or gone)."""

from __future__ import annotations

from acp_editor.agent.link.handshake import AgentInfo, initialize_params
from acp_editor.protocol import acp


def test_offering_v2_sends_v2_fields_beside_v1_ones() -> None:
    params = initialize_params(2, ["url"])
    assert params["info"]["name"] == "acp-editor" and params["clientInfo"] == params["info"]
    assert params["capabilities"] == {"elicitation": {"url": {}}}  # no fs, no terminals in v2
    assert params["clientCapabilities"]["fs"] == {"readTextFile": True, "writeTextFile": True}
    assert "info" not in initialize_params(1)


def test_a_v2_answer_is_read_as_v2() -> None:
    info = AgentInfo(
        {
            "protocolVersion": 2,
            "info": {"name": "codex", "title": "Codex", "version": "1"},
            "capabilities": {"session": {"delete": {}}},
            "agentCapabilities": {"loadSession": True},  # v1's: ignored under v2
            "authMethods": [{"id": "login", "name": "Log in"}],
        }
    )
    assert info.display_name("x") == "Codex"
    required = (acp.SESSION_LIST, acp.SESSION_CLOSE, acp.SESSION_RESUME, acp.SESSION_DELETE)
    assert all(info.supports(m) for m in required)
    assert info.supports(acp.LOGOUT)  # with a login method, auth/logout is required
    gone = (acp.SESSION_LOAD, acp.SESSION_FORK, acp.ADDITIONAL_DIRECTORIES)
    assert not any(info.supports(m) for m in gone)


def test_a_v1_answer_is_read_as_before() -> None:
    info = AgentInfo(
        {
            "protocolVersion": 1,
            "agentInfo": {"name": "a"},
            "agentCapabilities": {"loadSession": True},
        }
    )
    assert info.supports(acp.SESSION_LOAD) and not info.supports(acp.SESSION_LIST)
    assert info.display_name("x") == "a"
