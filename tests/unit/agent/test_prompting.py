"""When a v2 prompt's work is over: at an ``idle`` after the agent accepted it, never at one
from before (which ended earlier work), and with an error when the agent is gone."""

from __future__ import annotations

import asyncio

import pytest

from acp_editor.agent.prompting import Foreground, idle_reason
from acp_editor.errors import AgentError


async def test_an_idle_ends_only_prompts_the_agent_already_accepted() -> None:
    foreground = Foreground()
    early, late = foreground.expect(), foreground.expect()
    early.accept()
    foreground.idle("end_turn")  # late was not answered yet: this idle is not about it
    assert early.future.result() == "end_turn"
    assert not late.future.done()
    late.accept()
    foreground.idle("cancelled")
    assert late.future.result() == "cancelled"
    foreground.forget(early)
    foreground.forget(late)


async def test_the_agents_exit_fails_every_waiting_prompt() -> None:
    foreground = Foreground()
    waiter = foreground.expect()
    foreground.fail(AgentError("gone"))
    with pytest.raises(AgentError):
        await asyncio.wait_for(waiter.future, 1)
    foreground.forget(waiter)


@pytest.mark.parametrize(
    ("update", "expected"),
    [
        (
            {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"},
            (True, "end_turn"),
        ),
        ({"sessionUpdate": "state_update", "state": "idle", "stopReason": 3}, (True, None)),
        ({"sessionUpdate": "state_update", "state": "running"}, (False, None)),
        ({"sessionUpdate": "agent_message", "state": "idle"}, (False, None)),
        ("idle", (False, None)),
    ],
)
def test_idle_reason(update: object, expected: tuple[bool, str | None]) -> None:
    assert idle_reason(update) == expected
