"""The elicitor between the agent and the front end: who may be asked what, and every way a
question ends (answered, failed, withdrawn by the agent, cancelled with the turn)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from acp_editor.agent.frontend import Frontend
from acp_editor.agent.serving.eliciting import Elicitor
from acp_editor.errors import InvalidParams

PAGE = {
    "sessionId": "s1",
    "mode": "url",
    "message": "Sign in",
    "elicitationId": "e1",
    "url": "https://example.com/in",
}


class Front(Frontend):
    def __init__(self, answer: Any = None, fail: bool = False, wait: bool = False) -> None:
        self.answer, self.fail, self.wait = answer, fail, wait
        self.asked: list[dict[str, Any]] = []
        self.withdrawn = 0
        self.done: list[str] = []
        self.asking = asyncio.Event()

    async def elicit(self, question: dict[str, Any]) -> dict[str, Any] | None:
        self.asked.append(question)
        self.asking.set()
        if self.fail:
            raise RuntimeError("the editor went away")
        if self.wait:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.withdrawn += 1
                raise
        return self.answer  # type: ignore[no-any-return]

    def elicitation_completed(self, elicitation_id: str) -> None:
        self.done.append(elicitation_id)


def elicitor(front: Front, modes: tuple[str, ...] = ("url", "form")) -> Elicitor:
    return Elicitor(front, modes, lambda: "Codex", lambda sid: sid == "s1")


async def test_the_question_names_the_agent_and_an_accepted_page_can_complete_once() -> None:
    front = Front({"action": "accept"})
    e = elicitor(front)
    assert await e.create(dict(PAGE)) == {"action": "accept"}
    assert front.asked[0]["agent"] == "Codex"
    e.complete({"elicitationId": "e1"})
    e.complete({"elicitationId": "e1"})  # already completed: ignored
    e.complete({"elicitationId": "unknown"})
    assert front.done == ["e1"]


async def test_an_unknown_session_or_an_unadvertised_mode_is_invalid_params() -> None:
    with pytest.raises(InvalidParams, match="unknown session"):
        await elicitor(Front()).create({**PAGE, "sessionId": "other"})
    with pytest.raises(InvalidParams, match="did not advertise url"):
        await elicitor(Front(), ("form",)).create(dict(PAGE))


async def test_a_failing_front_end_and_an_unknown_action_are_cancel_never_accept() -> None:
    assert await elicitor(Front(fail=True)).create(dict(PAGE)) == {"action": "cancel"}
    assert await elicitor(Front({"action": "yes"})).create(dict(PAGE)) == {"action": "cancel"}
    assert await elicitor(Front(None)).create(dict(PAGE)) == {"action": "cancel"}


async def test_the_agent_withdrawing_its_request_withdraws_the_question() -> None:
    front = Front(wait=True)
    request = asyncio.ensure_future(elicitor(front).create(dict(PAGE)))
    await asyncio.wait_for(front.asking.wait(), 5)
    request.cancel()  # what the link does on $/cancel_request
    with pytest.raises(asyncio.CancelledError):
        await request
    assert front.withdrawn == 1


async def test_cancelling_the_turn_answers_cancel_and_withdraws_the_question() -> None:
    front = Front(wait=True)
    e = elicitor(front)
    request = asyncio.ensure_future(e.create(dict(PAGE)))
    await asyncio.wait_for(front.asking.wait(), 5)
    e.cancel("other")  # another session's turn: nothing happens
    # Two loop turns in which nothing may happen (a cancellation would land here): not a wait.
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert not request.done() and front.withdrawn == 0
    e.cancel("s1")
    assert await request == {"action": "cancel"}
    assert front.withdrawn == 1
