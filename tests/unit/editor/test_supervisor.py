"""What the editor asks of a session's agent, against fake agents: turns, refused calls, and
closing while a turn runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from acp_editor.editor.supervisor import AgentUnavailable
from acp_editor.protocol import editor as proto
from tests.support.fake_agent import Script
from tests.support.lsp import wait_until
from tests.unit.editor.conftest import MakeRig


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


async def test_cancel_without_an_agent_or_session_is_a_no_op(rig: MakeRig) -> None:
    r = rig()
    assert await r.side.agents.cancel() is None
    sid = await r.side.agents.session_id()
    assert await r.side.agents.cancel() == sid
    assert r.agents.current.calls[-1] == ("cancel", sid)


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
