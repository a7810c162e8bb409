"""The agent's environment: the sidecar's own, or only the allowed variables (names or
``PREFIX*``) when an allowlist is set."""

from __future__ import annotations

import pytest

from acp_editor.agent.config import AgentConfig


def test_without_an_allowlist_the_agent_sees_the_whole_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "s")
    assert AgentConfig(["agent"]).base_env()["SECRET_TOKEN"] == "s"


def test_an_allowlist_keeps_named_variables_and_prefixes_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("ACP_TEST_ONE", "ACP_TEST_ONE_MORE", "ACP_TEST_PFX_A", "ACP_TEST_PFX_B"):
        monkeypatch.setenv(name, name.lower())
    env = AgentConfig(["agent"], env_allowlist=["ACP_TEST_ONE", "ACP_TEST_PFX_*"]).base_env()
    assert env == {
        "ACP_TEST_ONE": "acp_test_one",  # a name is that name only, not a prefix
        "ACP_TEST_PFX_A": "acp_test_pfx_a",
        "ACP_TEST_PFX_B": "acp_test_pfx_b",
    }
    assert AgentConfig(["agent"], env_allowlist=[]).base_env() == {}
