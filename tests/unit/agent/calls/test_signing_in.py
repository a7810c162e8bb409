"""Signing in (agent.calls.signing_in) against an agent in memory: an agent-type method goes through
``authenticate``; a terminal one runs through the front end and never reaches the agent; no way
to sign in, a choice given up or a failed login are errors that say why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.auth_methods import TerminalSignIn
from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import AgentError
from tests.support.memory_agent import MemoryAgent, joined
from tests.support.recorder import Recorder

AGENT_METHOD = {"id": "key", "name": "API key"}
TERMINAL_METHOD = {
    "id": "tty",
    "name": "Subscription",
    "type": "terminal",
    "args": ["--cli", "login"],
    "env": {"MODE": "x", "BAD": 3},
}


class SigningIn(Recorder):
    def __init__(self, choice: str | None, status: int | None = 0) -> None:
        super().__init__()
        self.choice, self.status = choice, status
        self.offered: list[tuple[list[dict[str, Any]], str]] = []
        self.terminals: list[TerminalSignIn] = []

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        self.offered.append((methods, agent))
        return self.choice

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        self.terminals.append(request)
        return self.status


async def client_with(
    tmp_path: Path, front: SigningIn, methods: list[dict[str, Any]]
) -> tuple[AcpClient, MemoryAgent]:
    config = AgentConfig(command=["agent", "--acp"], name="claude", env={"A": "1"})
    client = AcpClient(config, front)
    client.connection.root = str(tmp_path)
    ours, theirs = joined()
    agent = MemoryAgent(theirs)
    agent.auth_methods = methods

    async def authenticate(params: Any) -> dict[str, Any]:
        agent.received.append(("authenticate", params))
        return {}

    theirs.on_request("authenticate", authenticate)
    await client.connect(ours)
    return client, agent


async def test_a_terminal_method_runs_the_agents_own_command_and_never_reaches_it(
    tmp_path: Path,
) -> None:
    front = SigningIn("tty")
    client, agent = await client_with(tmp_path, front, [AGENT_METHOD, TERMINAL_METHOD])
    assert await client.sign_in() == "tty"
    ((offered, agent_id),) = front.offered
    assert agent_id == "claude" and [m["type"] for m in offered] == ["agent", "terminal"]
    (request,) = front.terminals
    assert request.command == ["agent", "--acp", "--cli", "login"]
    assert request.env == {"A": "1", "MODE": "x"}  # the agent's, then the method's strings
    assert request.cwd == str(tmp_path)
    assert not [m for m, _ in agent.received if m == "authenticate"]
    await client.shutdown()


async def test_an_agent_method_authenticates(tmp_path: Path) -> None:
    client, agent = await client_with(tmp_path, SigningIn("key"), [AGENT_METHOD])
    assert await client.sign_in() == "key"
    assert ("authenticate", {"methodId": "key"}) in agent.received
    await client.shutdown()


@pytest.mark.parametrize(
    ("methods", "choice", "status", "said"),
    [
        ([], "tty", 0, "offers no way to do it from here"),
        ([TERMINAL_METHOD], None, 0, "needs you to sign in (Subscription)"),
        ([TERMINAL_METHOD], "other", 0, "is not one of the agent's"),
        ([TERMINAL_METHOD], "tty", 1, "ended with exit status 1; to sign in yourself, run"),
        ([TERMINAL_METHOD], "tty", None, "was not finished"),
    ],
)
async def test_why_a_sign_in_did_not_happen_is_said(
    tmp_path: Path, methods: list[dict[str, Any]], choice: str | None, status: int | None, said: str
) -> None:
    client, _ = await client_with(tmp_path, SigningIn(choice, status), methods)
    with pytest.raises(AgentError, match=said.replace("(", r"\(").replace(")", r"\)")):
        await client.sign_in()
    await client.shutdown()
