"""The real client against the scripted agent on ACP v2 as schema 1.25 has it (issue 34): one
tool call or one terminal cancelled while the rest goes on, background work listed while idle,
the prompt's answer naming the user message it inserted. Every message the client sends is
validated against the v2 schema of the pinned SDK (``acp_schema_path(version=2)``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient
from acp_editor.errors import InvalidParams
from acp_editor.protocol import tool_call
from tests.e2e.test_client_v2 import v2_client
from tests.support.lsp import wait_until
from tests.support.recorder import Recorder
from tests.support.schema import AcpSchema
from tests.support.starter import SCRIPTED_AGENT


class Exits(Recorder):
    """A recorder that keeps each terminal's exit too."""

    def __init__(self) -> None:
        super().__init__()
        self.terminal_exits: dict[str, dict[str, Any]] = {}

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self.terminal_exits[terminal_id] = status


def run_state(client: AcpClient, session_id: str) -> dict[str, Any]:
    state = client.session(session_id).state.run_state()
    return dict(state) if state is not None else {}


async def test_one_tool_call_is_cancelled_and_the_turn_goes_on(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    flags = [*SCRIPTED_AGENT, "--fast", "--wait-seconds", "60"]
    client, checker = v2_client(acp_v2_schema, flags, Recorder())
    answers: list[dict[str, Any]] = []
    client.connection.tracers.append(
        lambda way, m: (
            answers.append(m["result"])
            if way == "recv" and isinstance(m.get("result"), dict) and "messageId" in m["result"]
            else None
        )
    )
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        turn = asyncio.ensure_future(
            client.prompt(session.id, [{"type": "text", "text": "wait stream"}])
        )
        state = session.state
        await wait_until(
            lambda: any(
                tool_call.can_cancel(state.peek_tool_call(c)) for c in state.tool_call_order()
            )
        )
        (call_id,) = state.tool_call_order()
        await client.cancel_tool_call(session.id, call_id)
        result = await asyncio.wait_for(turn, 30)  # long before the 60 s wait would end
        call = state.tool_call(call_id)
        users = [e for e in state.peek_entries() if e.get("role") == "user"]
        with pytest.raises(InvalidParams):  # over now
            await client.cancel_tool_call(session.id, call_id)
    finally:
        await client.shutdown()
    assert result == {"stopReason": "end_turn"}  # the turn went on to "stream"
    assert call is not None and call["status"] == "cancelled" and "capabilities" not in call
    assert "Here is a streamed answer" in str(state.snapshot()["entries"])
    # The prompt's answer named the user message; the agent's echo carried the same id.
    assert [u["messageId"] for u in users] == [a["messageId"] for a in answers]
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_background_work_is_listed_while_idle_until_its_command_exits(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    front = Exits()
    flags = [*SCRIPTED_AGENT, "--fast", "--wait-seconds", "1"]
    client, checker = v2_client(acp_v2_schema, flags, front)
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        result = await client.prompt(session.id, [{"type": "text", "text": "background"}])
        idle = run_state(client, session.id)
        (work,) = idle["background"]
        assert work["terminalId"] not in front.terminal_exits  # still running as the turn ends
        await wait_until(lambda: run_state(client, session.id).get("background") == [])
        exits = dict(front.terminal_exits)
    finally:
        await client.shutdown()
    assert result == {"stopReason": "end_turn"}
    assert idle["state"] == "idle" and work["type"] == "terminal"  # verbatim, as the agent said
    assert exits[work["terminalId"]] == {"exitCode": 0, "signal": None}  # before it was dropped
    assert "background work done" in front.output[work["terminalId"]]
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_a_background_command_is_stopped_with_terminal_cancel(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    front = Exits()
    flags = [*SCRIPTED_AGENT, "--fast", "--wait-seconds", "60"]
    client, checker = v2_client(acp_v2_schema, flags, front)
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        await client.prompt(session.id, [{"type": "text", "text": "background"}])
        (work,) = run_state(client, session.id)["background"]
        terminal_id = work["terminalId"]
        await client.cancel_terminal(session.id, terminal_id)
        await wait_until(lambda: run_state(client, session.id).get("background") == [])
        with pytest.raises(InvalidParams, match="has exited"):
            await client.cancel_terminal(session.id, terminal_id)
    finally:
        await client.shutdown()
    assert front.terminal_exits[terminal_id] == {"exitCode": None, "signal": "SIGTERM"}
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"
