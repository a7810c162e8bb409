"""Routing to agents, against fake agents: start once, status, sessions, restart, close."""

from __future__ import annotations

import asyncio

import pytest

from acp_editor.editor.routing import AgentUnavailable
from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from tests.support.fake_agent import Script
from tests.support.lsp import wait_until
from tests.unit.editor.conftest import MakeRig


async def test_concurrent_requests_start_one_agent_and_status_says_ready(rig: MakeRig) -> None:
    r = rig(proto.FEATURE_STREAM)
    link = r.side.agents
    first, second = await asyncio.gather(link.ensure_agent(), link.ensure_agent())
    assert first is second and len(r.agents.started) == 1
    assert r.agents.current.calls == [("start", str(r.root))]
    states = [s["state"] for s in r.editor.notes_of(proto.ACP_AGENT_STATUS)]
    assert states == ["starting", "ready"]
    assert r.side.agents.status().current["agentInfo"] == {"name": "fake-agent"}


async def test_a_failed_start_is_one_clear_error_and_a_failed_status(rig: MakeRig) -> None:
    r = rig(script=Script(fail_start="no such agent: fake-agent"))
    with pytest.raises(AgentUnavailable, match="no such agent"):
        await r.side.agents.ensure_agent()
    assert r.side.agents.status().current["state"] == "failed"
    assert r.editor.notes == []  # a zero-plugin editor is not sent acp/agentStatus


async def test_a_named_session_must_exist(rig: MakeRig) -> None:
    r = rig()
    with pytest.raises(InvalidParams, match="unknown session"):
        await r.side.agents.session_id("nope")


async def test_after_a_crash_the_next_request_restarts_and_loads_the_lost_session(
    rig: MakeRig,
) -> None:
    r = rig(proto.FEATURE_STREAM)
    sid = await r.side.agents.session_id()
    r.agents.current.crash()
    assert r.side.agents.status().current["state"] == "failed"
    assert await r.side.agents.session_id() == sid
    assert len(r.agents.started) == 2
    assert ("load", sid) in r.agents.current.calls
    assert r.agents.started[0].calls[-1] == ("shutdown", None)


async def test_without_load_support_a_restart_starts_a_new_session(rig: MakeRig) -> None:
    r = rig(script=Script(capabilities={}))
    await r.side.agents.session_id()
    r.agents.current.crash()
    await r.side.agents.session_id()
    assert [c[0] for c in r.agents.current.calls] == ["start", "new_session"]


async def test_close_shuts_the_agent_down_and_refuses_new_work(rig: MakeRig) -> None:
    r = rig()
    await r.side.agents.ensure_agent()
    await r.side.close()
    assert r.agents.current.calls[-1] == ("shutdown", None)
    with pytest.raises(AgentUnavailable, match="shutting down"):
        await r.side.agents.ensure_agent()


async def test_close_while_the_agent_starts_shuts_down_what_was_started(rig: MakeRig) -> None:
    """``shutdown`` can come while the agent is still coming up: the spawned agent goes too."""
    r = rig(script=Script(start_gate=asyncio.Event()))
    starting = asyncio.ensure_future(r.side.agents.ensure_agent())
    await wait_until(lambda: bool(r.agents.started) and r.agents.current.calls != [])
    await r.side.close()
    assert r.agents.current.calls[-1] == ("shutdown", None)
    with pytest.raises((AgentUnavailable, asyncio.CancelledError)):
        await starting
