"""A prompt that needed a sign-in goes once more after it (agent.calls.prompt_turns, agent.client):
first the session is closed and resumed when the agent offers both, since an agent may keep a
session it made signed out so (claude-agent-acp 0.101: every prompt of it -32000, after any
sign-in, until it starts the session again; tests/e2e_lsp/test_lsp_claude_sign_in.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.errors import AuthRequired, RpcError
from tests.support.memory_agent import MemoryAgent, joined
from tests.unit.agent.calls.test_signing_in import TERMINAL_METHOD, SigningIn


class SignedOutSessions(MemoryAgent):
    """Like claude-agent-acp: a session made before the sign-in refuses every prompt until it
    is started again (resumed), whatever happened in between."""

    def __init__(self, *args: Any, reopens: bool) -> None:
        super().__init__(*args)
        self.signed_in = False
        self.fresh: set[str] = set()
        self.auth_methods = [TERMINAL_METHOD]
        if reopens:
            self.capabilities = {"sessionCapabilities": {"close": {}, "resume": {}}}
        self.peer.on_request("session/close", self._close)
        self.peer.on_request("session/resume", self._resume)

    async def _prompt(self, params: Any) -> dict[str, Any]:
        if params["sessionId"] not in self.fresh:
            self.received.append(("session/prompt", params))
            raise AuthRequired()
        return await super()._prompt(params)

    async def _close(self, params: Any) -> dict[str, Any]:
        self.received.append(("session/close", params))
        return {}

    async def _resume(self, params: Any) -> dict[str, Any]:
        self.received.append(("session/resume", params))
        if self.signed_in:
            self.fresh.add(params["sessionId"])
        return {}


class Terminal(SigningIn):
    def __init__(self, agent: list[SignedOutSessions]) -> None:
        super().__init__("tty")
        self.agent = agent

    async def sign_in_terminal(self, request: Any) -> int | None:
        self.agent[0].signed_in = True
        return await super().sign_in_terminal(request)


@pytest.mark.parametrize("reopens", [True, False])
async def test_the_session_is_started_again_before_the_prompt_goes_once_more(
    tmp_path: Path, reopens: bool
) -> None:
    holder: list[SignedOutSessions] = []
    front = Terminal(holder)
    client = AcpClient(AgentConfig(command=["agent"], name="claude"), front)
    client.connection.root = str(tmp_path)
    ours, theirs = joined()
    agent = SignedOutSessions(theirs, reopens=reopens)
    holder.append(agent)
    await client.connect(ours)
    session = await client.new_session(str(tmp_path))
    blocks = [{"type": "text", "text": "hi"}]
    if reopens:
        assert (await client.prompt(session.id, blocks))["stopReason"] == "end_turn"
    else:  # nothing to start it again with: the prompt fails as the agent said
        with pytest.raises(RpcError, match=AuthRequired.MESSAGE):
            await client.prompt(session.id, blocks)
    calls = [m for m, _ in agent.received if m != "initialize"]
    again = ["session/close", "session/resume"] if reopens else []
    assert calls == ["session/new", "session/prompt", *again, "session/prompt"], calls
    assert len(front.terminals) == 1
    await client.shutdown()
