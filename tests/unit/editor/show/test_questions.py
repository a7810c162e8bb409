"""Asking before acting (deleting a session, discarding a worktree, undoing a turn): keeping
things as they are comes first, only the act's own title says yes, and a question nobody
answers keeps things as they are instead of holding the command forever."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from acp_editor.editor.show import questions as questions_module
from acp_editor.editor.show.questions import Questions
from tests.support.fake_editor import FakeChannel


async def no_text(path: Path) -> str:
    return ""


@pytest.mark.parametrize(
    ("answer", "said_yes"),
    [({"title": "Discard"}, True), ({"title": "Keep"}, False), (None, False)],
)
async def test_only_the_acts_own_title_says_yes(answer: Any, said_yes: bool) -> None:
    channel = FakeChannel()
    channel.answers[lsp.WINDOW_SHOW_MESSAGE_REQUEST] = lambda params: answer
    assert await Questions(channel, no_text).confirm("Discard it?", "Keep", "Discard") is said_yes
    (asked,) = channel.requests_of(lsp.WINDOW_SHOW_MESSAGE_REQUEST)
    assert [a["title"] for a in asked["actions"]] == ["Keep", "Discard"]


async def test_a_question_nobody_answers_keeps_things_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(questions_module, "CONFIRM_S", 0.05)
    channel = FakeChannel()

    async def never(params: Any) -> Any:
        await asyncio.Event().wait()

    channel.answers[lsp.WINDOW_SHOW_MESSAGE_REQUEST] = never
    assert await Questions(channel, no_text).confirm("Discard it?", "Keep", "Discard") is False


OPTIONS = [
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    {"optionId": "ok", "name": "Allow", "kind": "allow_once"},
]


async def test_a_subagents_permission_question_names_it_in_every_editor() -> None:
    from acp_editor.editor.lsp.features import ClientFeatures
    from acp_editor.editor.show.lineage import Lineage
    from acp_editor.protocol import editor as proto

    lineage = Lineage()
    lineage.seen("child", "parent")
    lineage.subagents_changed({"child": {"sessionId": "child", "title": "Explore"}})
    call = {"toolCallId": "t1", "title": "Edit a.py", "kind": "edit"}
    plain = FakeChannel()
    await Questions(plain, no_text, lineage).permission("child", call, OPTIONS)
    ((_, request, _),) = plain.requests
    assert request["message"].startswith("Subagent “Explore” asks: ")
    rich = FakeChannel(ClientFeatures(rich={proto.FEATURE_PERMISSIONS}))
    await Questions(rich, no_text, lineage).permission("child", call, OPTIONS)
    ((method, params, _),) = rich.requests
    assert method == proto.ACP_REQUEST_PERMISSION
    assert params["subagent"] == {"parentSessionId": "parent", "title": "Explore"}
