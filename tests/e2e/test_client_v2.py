"""Offering the ACP v2 draft to the scripted agent, which answers 2: what the client sends
validates against the pinned v2 schema (``@agentclientprotocol/sdk`` ships it), and the
answer is read as v2."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp_editor.agent.client import AcpClient, AgentConfig
from tests.support.lsp import wait_until
from tests.support.recorder import Recorder
from tests.support.schema import AcpSchema, ClientTrafficChecker
from tests.support.starter import SCRIPTED_AGENT


async def test_a_v2_session_sends_only_what_the_v2_schema_allows(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    client, checker = v2_client(acp_v2_schema, [*SCRIPTED_AGENT, "--fast"], Recorder())
    try:
        await client.start(str(tmp_path))
        assert client.protocol_version == 2
        assert client.supports("session/delete") and not client.supports("session/load")
        session = await client.new_session(str(tmp_path))
        result = await client.prompt(session.id, [{"type": "text", "text": "stream"}])
        assert result["stopReason"] == "end_turn"
        # v2 has no modes: the mode is the config option of category mode.
        assert session.state.snapshot_field("modes") is None
        await client.set_mode(session.id, "ask")
        (mode,) = [o for o in session.state.snapshot_field("configOptions") if o["id"] == "mode"]
        assert mode["currentValue"] == "ask"
        await client.cancel(session.id)
        await client.delete_session(session.id)
    finally:
        await client.shutdown()
    assert checker.checked >= 5
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_a_v2_permission_request_is_asked_and_answered_as_v2_allows(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    """The scripted agent asks in v2's shape (a title, the tool call as the subject) and edits
    the file itself, as v2 agents do (no client file system)."""
    (tmp_path / "hello.py").write_text("print('hi')\n")
    front = Recorder("allow_once")
    flags = [*SCRIPTED_AGENT, "--fast", "--writes-itself"]
    client, checker = v2_client(acp_v2_schema, flags, front)
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        result = await client.prompt(session.id, [{"type": "text", "text": "edit"}])
        assert result["stopReason"] == "end_turn"
    finally:
        await client.shutdown()
    ((tool_call, _options),) = front.permissions
    assert tool_call["title"].startswith("Edit hello.py")  # the subject's tool call, as held
    assert 'print("edited by the demo agent")' in (tmp_path / "hello.py").read_text()
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_a_v2_session_comes_back_with_resume_and_its_replay(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    """v2 has no session/load: a session is brought back (here after a restart, in a new
    client) with session/resume and replayFrom the start, which replays its conversation."""
    flags = [*SCRIPTED_AGENT, "--fast", "--state-dir", str(tmp_path / "agent-state")]
    checker = ClientTrafficChecker(acp_v2_schema)
    said: list[str] = []
    for run in ("first", "after a restart"):
        client = AcpClient(AgentConfig(command=flags, protocol_version=2), Recorder())
        client.connection.tracers.append(checker)
        try:
            await client.start(str(tmp_path))
            if run == "first":
                session = await client.new_session(str(tmp_path))
                await client.prompt(session.id, [{"type": "text", "text": "stream"}])
                said = agent_texts(session.state.snapshot())
                sid = session.id
            else:
                resumed = await client.load_session(sid, str(tmp_path), resume=True)
                assert agent_texts(resumed.state.snapshot()) == said
        finally:
            await client.shutdown()
    assert said and said[0].startswith("Here is a streamed answer")
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


def v2_client(
    schema: AcpSchema, command: list[str], front: Recorder, **config: Any
) -> tuple[AcpClient, ClientTrafficChecker]:
    """A client offering v2 whose every message is checked against the v2 schema."""
    client = AcpClient(AgentConfig(command=command, protocol_version=2, **config), front)
    checker = ClientTrafficChecker(schema)
    client.connection.tracers.append(checker)
    return client, checker


def agent_texts(snapshot: dict[str, Any]) -> list[str]:
    agent = [e for e in snapshot["entries"] if e.get("role") == "agent"]
    return ["".join(b["text"] for b in e["content"]) for e in agent]


async def test_a_v2_turn_ends_at_idle_and_a_prompt_sent_meanwhile_is_queued(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    """v2's answer to session/prompt only accepts it: the turn ends with the idle state update.
    A prompt sent while the agent works waits, shown as queued until the agent echoes it; the
    agent's own command shows as a display terminal and its edit reaches review."""
    (tmp_path / "hello.py").write_text("print('hi')\n")
    front = Recorder("allow_once")
    # The first prompt's wait lasts 2 s: the second prompt is sent while it runs.
    flags = [*SCRIPTED_AGENT, "--fast", "--wait-seconds", "2"]
    client, checker = v2_client(acp_v2_schema, flags, front)
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        first = asyncio.ensure_future(
            client.prompt(session.id, [{"type": "text", "text": "wait edit shell"}])
        )
        await wait_until(lambda: session.state.snapshot_field("runState") is not None)
        second = await client.prompt(session.id, [{"type": "text", "text": "stream"}])
        assert second == {"stopReason": "end_turn"}
        assert await first == {"stopReason": "end_turn"}
        snapshot = session.state.snapshot()
        hunks = [str(h.path) for h in client.review.select(session_id=session.id)]
    finally:
        await client.shutdown()
    users = [e for e in snapshot["entries"] if e.get("role") == "user"]
    assert [u["content"][0]["text"] for u in users] == ["wait edit shell", "stream"]
    assert all(isinstance(u["messageId"], str) for u in users)  # the agent's echo named them
    assert not any("queued" in u for u in users)
    queued = [c for c in front.changes[session.id] if c["type"] == "entry"]
    assert [c["entry"].get("queued") for c in queued if c["entry"].get("role") == "user"] == [
        None,
        True,
    ]
    assert snapshot["runState"] == {"state": "idle", "stopReason": "end_turn"}
    assert "hello from the demo agent" in "".join(front.output.values())
    assert any(path.endswith("hello.py") for path in hunks)
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_a_v2_sign_in_is_auth_login_with_the_methods_v2_names(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    """v2 names a sign-in method's id ``methodId`` and signs in with ``auth/login``; terminal
    methods are still never sent."""
    flags = [*SCRIPTED_AGENT, "--fast", "--require-auth"]
    front = Recorder()
    client, checker = v2_client(acp_v2_schema, flags, front)
    sent: list[str] = []
    client.connection.tracers.append(
        lambda way, message: sent.append(message.get("method", "")) if way == "send" else None
    )
    try:
        await client.start(str(tmp_path))
        offered = client.connection.info.auth_methods
        assert {m["id"] for m in offered} == {"demo-login", "demo-terminal-login"}
        client.config.auth_method = "demo-login"
        session = await client.new_session(str(tmp_path))
        assert session.id
    finally:
        await client.shutdown()
    assert "auth/login" in sent and "authenticate" not in sent
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_cancelling_v2_work_ends_every_prompt_and_drops_the_queued_one(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    flags = [*SCRIPTED_AGENT, "--fast", "--wait-seconds", "30"]
    client, checker = v2_client(acp_v2_schema, flags, Recorder())
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        first = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "wait"}]))
        await wait_until(lambda: session.state.snapshot_field("runState") is not None)
        second = asyncio.ensure_future(
            client.prompt(session.id, [{"type": "text", "text": "stream"}])
        )
        await wait_until(lambda: any(e.get("queued") for e in session.state.peek_entries()))
        await client.cancel(session.id)
        results = await asyncio.wait_for(asyncio.gather(first, second), 10)
        snapshot = session.state.snapshot()
    finally:
        await client.shutdown()
    assert results == [{"stopReason": "cancelled"}] * 2
    users = [e for e in snapshot["entries"] if e.get("role") == "user"]
    assert users[1].get("dropped") is True and "queued" not in users[1]
    assert snapshot["runState"] == {"state": "idle", "stopReason": "cancelled"}
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"


async def test_a_configured_first_mode_is_set_through_the_v2_mode_option(
    acp_v2_schema: AcpSchema, tmp_path: Path
) -> None:
    command = [*SCRIPTED_AGENT, "--fast"]
    client, checker = v2_client(acp_v2_schema, command, Recorder(), initial_mode="ask")
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        options = session.state.snapshot_field("configOptions")
    finally:
        await client.shutdown()
    (mode,) = [o for o in options if o["category"] == "mode"]
    assert mode["currentValue"] == "ask"
    assert checker.problems == [], "messages the sidecar sent did not validate against v2"
