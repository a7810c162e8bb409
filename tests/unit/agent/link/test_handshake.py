"""Offering ACP v2: both initialize shapes go out, and a v2 answer is read as v2 (``info``,
``capabilities``, which methods are required, optional or gone); a refused version says which
ones the agent speaks (v2's ``UnsupportedProtocolVersionErrorData``)."""

from __future__ import annotations

import pytest

from acp_editor.agent.link.handshake import AgentInfo, initialize_failure, initialize_params
from acp_editor.errors import RpcError
from acp_editor.protocol import acp


def test_offering_v2_sends_v2_fields_beside_v1_ones() -> None:
    params = initialize_params(2, ["url"])
    assert params["info"]["name"] == "acp-editor" and params["clientInfo"] == params["info"]
    # No fs, no terminals in v2; terminal sign-in as schema 1.25's ClientAuthCapabilities says it.
    assert params["capabilities"] == {"auth": {"terminal": {}}, "elicitation": {"url": {}}}
    assert initialize_params(2)["capabilities"] == {"auth": {"terminal": {}}}
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


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (
            {"requested": 2, "supported": [1]},
            "does not speak ACP protocol version 2; it speaks 1: start acp-editor without "
            "--protocol-version",
        ),
        (
            {"requested": 1, "supported": [2, 3]},
            "does not speak ACP protocol version 1; it speaks 2, 3: start acp-editor with "
            "--protocol-version 2",
        ),
        ({"requested": 2, "supported": [7]}, "it speaks 7; acp-editor speaks 1, 2"),
    ],
)
def test_an_unsupported_version_says_which_versions_the_agent_speaks(
    data: dict[str, object], said: str
) -> None:
    assert said in initialize_failure(RpcError("Unsupported protocol version", data, code=-32022))


def test_another_initialize_failure_is_the_agents_message() -> None:
    assert initialize_failure(RpcError("boom", {"supported": [1]})) == "boom"  # not -32022
    assert initialize_failure(RpcError("old", None, code=-32022)) == "old"  # no ErrorData


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


def test_what_the_agent_says_it_is_is_read_from_either_version() -> None:
    v1 = AgentInfo({"protocolVersion": 1, "agentInfo": {"name": "a", "title": "A"}})
    v2 = AgentInfo({"protocolVersion": 2, "info": {"name": "b"}, "agentInfo": {"name": "old"}})
    assert v1.identity == {"name": "a", "title": "A"} and v2.identity == {"name": "b"}
    assert AgentInfo({"protocolVersion": 2, "info": "b"}).identity is None  # not an object


def test_an_agent_whose_paths_are_mapped_is_offered_no_terminals() -> None:
    """Its commands would run on our machine, not where it is (a sandbox, another host)."""
    assert initialize_params(1)["clientCapabilities"]["terminal"] is True
    assert initialize_params(1, terminal=False)["clientCapabilities"]["terminal"] is False
