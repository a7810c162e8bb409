"""Elicitation through LSP, the real sidecar and the scripted agent: web pages in a plain
editor (a consent question, then ``window/showDocument`` with ``external``), forms and pages in
an editor that renders ``acp/elicit``. What the agent got back is in its reply."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.elicit import PAGE_MESSAGE, PAGE_URL
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import NEOVIM, VSCODE


def reply(result: dict[str, Any]) -> str:
    return str(result.get("reply", ""))


@pytest.mark.parametrize("capabilities", [VSCODE, NEOVIM])
async def test_open_asks_first_then_opens_the_page_outside(
    editor_factory: StartEditor, capabilities: str
) -> None:
    editor = await editor_factory(
        capabilities=capabilities, answer_permission=lambda _p: {"title": "Open"}
    )
    result = await editor.command("acp.prompt", "ask-page")
    (asked,) = editor.asked
    message = asked["message"]
    assert "acp-editor demo agent asks you to open a web page" in message
    assert PAGE_MESSAGE in message
    assert "Site: example.com" in message and f"Address: {PAGE_URL}" in message
    assert [a["title"] for a in asked["actions"]] == ["Decline", "Open"]
    shown = [dict(d) for d in editor.client.shown_documents]  # type: ignore[call-overload]
    assert {"uri": PAGE_URL, "external": True} in shown
    assert "Web page answered: accept" in reply(result)


@pytest.mark.parametrize(
    ("answer", "action"), [({"title": "Decline"}, "decline"), (None, "cancel")]
)
async def test_decline_or_a_dismissed_question_opens_nothing(
    editor_factory: StartEditor, answer: Any, action: str
) -> None:
    editor = await editor_factory(answer_permission=lambda _p: answer)
    result = await editor.command("acp.prompt", "ask-page")
    assert len(editor.asked) == 1
    assert all(d.get("external") is not True for d in editor.client.shown_documents)  # type: ignore[union-attr]
    assert f"Web page answered: {action}" in reply(result)


async def test_a_plain_editor_is_offered_no_forms(editor_factory: StartEditor) -> None:
    editor = await editor_factory()
    result = await editor.command("acp.prompt", "ask-form")
    assert editor.asked == []
    assert "This client shows no forms" in reply(result)


async def test_an_editor_that_renders_forms_gets_them_and_its_answers_are_checked(
    editor_factory: StartEditor,
) -> None:
    answers = iter(
        [
            {"action": "accept", "content": {"strategy": "quick", "notify": False}},
            {"action": "accept", "content": {"notify": True}},  # the required field missing
        ]
    )
    editor = await editor_factory(
        features=["stream", "elicit"], answer_permission=lambda _p: next(answers)
    )
    first = await editor.request(proto.ACP_PROMPT, {"prompt": "ask-form"})
    asked = editor.asked[0]
    assert asked["mode"] == "form" and asked["agent"] == "acp-editor demo agent"
    assert asked["sessionId"] == first["sessionId"] and asked["requestId"]
    assert asked["requestedSchema"]["properties"]["strategy"]["default"] == "careful"
    assert 'Form answered: accept {"notify": false, "strategy": "quick"}' in reply(first)
    second = await editor.request(proto.ACP_PROMPT, {"prompt": "ask-form"})
    assert "Form answered: cancel" in reply(second)


async def test_an_editor_that_renders_elicit_gets_pages_with_the_host_set_apart(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(
        features=["stream", "elicit"], answer_permission=lambda _p: {"action": "decline"}
    )
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "ask-page"})
    (asked,) = editor.asked
    assert asked["mode"] == "url" and asked["url"] == PAGE_URL and asked["host"] == "example.com"
    assert "warning" not in asked  # https, a plain ASCII name
    assert "Web page answered: decline" in reply(result)
