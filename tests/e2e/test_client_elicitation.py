"""Elicitation through the real client against the scripted agent: the modes advertised are the
front end's, a form's answers are checked before the agent gets them, a URL is accepted only with
consent, and a cancelled turn withdraws the question. Every message the client sends is checked
against the official schema (tests/e2e/conftest.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp_editor.agent.client import AcpClient
from acp_editor.demo_agent.scenarios.elicit import PAGE_URL
from tests.support.recorder import Recorder
from tests.support.starter import StartClient


class Answering(Recorder):
    """A front end whose user answers each question with ``answer`` (None: never answers)."""

    def __init__(self, answer: dict[str, Any] | None) -> None:
        super().__init__()
        self.answer = answer
        self.questions: list[dict[str, Any]] = []
        self.withdrawn = 0
        self.completed: list[str] = []

    async def elicit(self, question: dict[str, Any]) -> dict[str, Any] | None:
        self.questions.append(question)
        self.asked.set()
        if self.answer is None:
            try:
                await asyncio.sleep(3600)  # a question nobody answers: it ends only when withdrawn
            except asyncio.CancelledError:
                self.withdrawn += 1
                raise
        return self.answer

    def elicitation_completed(self, elicitation_id: str) -> None:
        self.completed.append(elicitation_id)


async def turn(
    start_client: StartClient, tmp_path: Path, words: str, front: Answering, modes: list[str]
) -> tuple[AcpClient, str, str]:
    client = await start_client("--fast", frontend=front, elicitation_modes=modes, cwd=tmp_path)
    session = await client.new_session(str(tmp_path))
    result = await client.prompt(session.id, [{"type": "text", "text": words}])
    assert result["stopReason"] == "end_turn"
    return client, session.id, reply(client, session.id)


def reply(client: AcpClient, session_id: str) -> str:
    entries = client.sessions[session_id].state.snapshot()["entries"]
    agent = [e for e in entries if e.get("role") == "agent"]
    return "".join(b.get("text", "") for e in agent for b in e["content"])


async def test_a_form_answer_that_fits_reaches_the_agent(
    start_client: StartClient, tmp_path: Path
) -> None:
    front = Answering({"action": "accept", "content": {"strategy": "quick", "files": 3}})
    _, sid, said = await turn(start_client, tmp_path, "ask-form", front, ["form", "url"])
    (question,) = front.questions
    assert question["mode"] == "form" and question["sessionId"] == sid
    assert question["agent"] == "acp-editor demo agent"  # the agent's title names it
    assert question["requestedSchema"]["required"] == ["strategy"]
    assert 'Form answered: accept {"files": 3, "strategy": "quick"}' in said


async def test_a_form_answer_that_does_not_fit_is_a_cancel(
    start_client: StartClient, tmp_path: Path
) -> None:
    wrong = {"action": "accept", "content": {"strategy": "reckless", "files": 0}}
    _, _, said = await turn(start_client, tmp_path, "ask-form", Answering(wrong), ["form"])
    assert "Form answered: cancel" in said


async def test_decline_and_a_dismissed_question_reach_the_agent_as_such(
    start_client: StartClient, tmp_path: Path
) -> None:
    _, _, said = await turn(
        start_client, tmp_path, "ask-form", Answering({"action": "decline"}), ["form"]
    )
    assert "Form answered: decline" in said
    (tmp_path / "second").mkdir()
    _, _, said = await turn(start_client, tmp_path / "second", "ask-page", Answering({}), ["url"])
    assert "Web page answered: cancel" in said  # no action: dismissed


async def test_an_accepted_page_is_completed_once(
    start_client: StartClient, tmp_path: Path
) -> None:
    front = Answering({"action": "accept", "content": {"ignored": "for a URL"}})
    _, _, said = await turn(start_client, tmp_path, "ask-page", front, ["url"])
    (question,) = front.questions
    assert question["url"] == PAGE_URL and question["elicitationId"].startswith("page_")
    assert "Web page answered: accept" in said and "ignored" not in said
    assert front.completed == [question["elicitationId"]]


async def test_modes_not_advertised_are_never_asked(
    start_client: StartClient, tmp_path: Path
) -> None:
    front = Answering({"action": "accept"})
    _, _, said = await turn(start_client, tmp_path, "ask-form ask-page", front, [])
    assert front.questions == []
    assert "shows no forms" in said and "opens no web pages" in said


async def test_cancelling_the_turn_withdraws_the_question(
    start_client: StartClient, tmp_path: Path
) -> None:
    front = Answering(None)
    client = await start_client("--fast", frontend=front, elicitation_modes=["form"], cwd=tmp_path)
    session = await client.new_session(str(tmp_path))
    prompt = asyncio.ensure_future(
        client.prompt(session.id, [{"type": "text", "text": "ask-form"}])
    )
    await asyncio.wait_for(front.asked.wait(), 10)
    await client.cancel(session.id)
    result = await asyncio.wait_for(prompt, 10)
    assert front.withdrawn == 1
    assert result["stopReason"] == "cancelled"
