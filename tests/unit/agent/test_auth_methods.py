"""Sign-in methods as the client reads them, and a terminal sign-in's command line."""

from __future__ import annotations

import shlex

from acp_editor.agent.auth_methods import TerminalSignIn, method_type


def test_a_method_without_type_is_the_agents() -> None:
    assert method_type({"id": "x"}) == "agent"
    assert method_type({"id": "x", "type": "terminal"}) == "terminal"
    assert method_type({"id": "x", "type": 3}) == "agent"


def test_the_command_line_a_user_would_type_and_the_message() -> None:
    request = TerminalSignIn(
        agent="claude",
        agent_name="Claude Agent",
        method_id="claude-ai-login",
        name="Claude Subscription",
        command=["npx", "@agentclientprotocol/claude-agent-acp", "--cli", "auth", "login"],
        env={"HOME": "/tmp/my home"},
        cwd="/w",
    )
    line = request.command_line()
    assert line == "HOME='/tmp/my home' npx @agentclientprotocol/claude-agent-acp --cli auth login"
    assert shlex.split(line)[1:] == request.command
    sent = request.to_json()
    assert sent["commandLine"] == line and sent["cwd"] == "/w"
    assert "description" not in sent
