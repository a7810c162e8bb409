"""The queue itself: who has to wait, the order prompts go in, and a prompt that starts leaves
the queue only once it has started (a prompt sent meanwhile still waits behind it)."""

from __future__ import annotations

import pytest

from acp_editor.agent.calls import prompt_queue
from acp_editor.agent.sessions import Session
from acp_editor.errors import InvalidParams
from acp_editor.session.state import SessionState


def session() -> Session:
    return Session("s1", "/w", SessionState("s1", 1))


def text(words: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": words}]


async def test_only_a_busy_session_makes_prompts_wait_and_they_go_in_order() -> None:
    s = session()
    assert not prompt_queue.busy(s)
    s.prompts = 1
    assert prompt_queue.busy(s)
    first, changes = prompt_queue.enqueue(s, text("a"))
    second, _ = prompt_queue.enqueue(s, text("b"))
    assert changes[0]["entry"]["queued"] is True and (first.index, second.index) == (0, 1)

    s.prompts = 0
    prompt_queue.next_turn(s)
    assert await first.go is True and not second.go.done()
    assert prompt_queue.busy(s)  # the first has not started yet: a new prompt waits
    prompt_queue.started(s, first)
    prompt_queue.next_turn(s)
    assert await second.go is True


async def test_edit_and_withdraw_reach_only_a_waiting_prompt() -> None:
    s = session()
    s.prompts = 1
    waiting, _ = prompt_queue.enqueue(s, text("a"))
    (change,) = prompt_queue.edit(s, 0, text("b"))
    assert waiting.blocks == text("b") and change["set"] == {"content": text("b")}
    (change,) = prompt_queue.withdraw(s, 0)
    assert await waiting.go is False and change["set"] == {"dropped": True, "waitedUntil": 1}
    with pytest.raises(InvalidParams):
        prompt_queue.edit(s, 0, text("c"))
    assert prompt_queue.withdraw_all(s) == []
