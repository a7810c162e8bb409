"""The link to the agent side, against fake agents: start once, status, sessions, restart."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from acp_editor.editor.supervisor import AgentUnavailable
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


async def test_the_first_prompt_opens_a_session_and_flushes_before_answering(
    rig: MakeRig,
) -> None:
    turn = [{"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}}]
    r = rig(proto.FEATURE_STREAM, script=Script(turn=turn))
    result = await r.side.agents.prompt([{"type": "text", "text": "hello"}])
    assert result == {"sessionId": "s1", "stopReason": "end_turn", "reply": "hi", "toolCalls": []}
    # The turn's changes reached the editor before the answer, without waiting for a frame.
    changed = r.editor.notes_of(proto.ACP_SESSION_CHANGED)
    kinds = [c["type"] for note in changed for c in note["changes"]]
    assert kinds == ["modes", "entry", "entry"]
    assert changed[-1]["changes"][-1]["entry"]["content"][0]["text"] == "hi"


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


async def test_cancel_without_an_agent_or_session_is_a_no_op(rig: MakeRig) -> None:
    r = rig()
    assert await r.side.agents.cancel() is None
    sid = await r.side.agents.session_id()
    assert await r.side.agents.cancel() == sid
    assert r.agents.current.calls[-1] == ("cancel", sid)


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


@pytest.mark.parametrize(
    ("call", "what"),
    [
        ("delete_session", "deleting sessions"),
        ("fork_session", "forking"),
        ("logout", "logging out"),
    ],
)
async def test_what_the_agent_did_not_advertise_is_refused_clearly(
    rig: MakeRig, call: str, what: str
) -> None:
    r = rig(script=Script(capabilities={}))
    with pytest.raises(AgentUnavailable, match=f"does not support {what}"):
        await getattr(r.side.agents, call)()
    assert not any(name in ("delete", "fork", "logout") for name, _ in r.agents.current.calls)


async def test_closing_waits_for_the_turns_that_end_with_their_agent(
    rig: MakeRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``shutdown`` is answered before the agent has ended; the teardown then ends it, and the
    turn that was running still ends as turns do (review's last look) before review is kept
    on disk and the process exits."""
    r = rig()
    agent = await r.side.agents.ensure_agent()
    started: list[str] = []
    looked: list[str] = []

    async def prompt(session_id: str, blocks: Any, sent: Any = None) -> dict[str, Any]:
        started.append(session_id)
        await agent.exited.wait()  # the turn fails with its agent...
        for _ in range(5):  # ...and its last look takes a few turns of the loop
            await asyncio.sleep(0)
        looked.append(session_id)
        return {"stopReason": "cancelled"}

    monkeypatch.setattr(agent, "prompt", prompt)
    turn = asyncio.ensure_future(r.side.agents.prompt([{"type": "text", "text": "hi"}]))
    await wait_until(lambda: bool(started))
    await r.side.agents.close()
    assert looked == started
    assert (await turn)["stopReason"] == "cancelled"
