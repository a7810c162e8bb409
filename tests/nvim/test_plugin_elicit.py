"""The agent's questions (``acp/elicit``) with the plugin, in a real Neovim 0.11: announced,
they wait for ``:AcpAnswer`` (nothing pops up while the user types); a form is then asked field
by field with ``vim.ui.select``/``vim.ui.input`` (stubs playing the user), reviewed and changed
before it is sent; declining and dismissing; a web page opened only after "Open" (the browser is
the one stand-in: ``vim.ui.open`` records the URL); a cancelled turn withdraws the question."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.elicit import PAGE_URL
from tests.nvim.plugin_driver import PluginEditor

NIL = None  # a dismissed question (vim.NIL on the Lua side)
ELICIT = "require('acp_editor.questions.elicit')"  # its `pending` questions


def play(nv: PluginEditor, steps: list[dict[str, Any]]) -> None:
    lua_steps = [{k: ("__nil__" if v is None else v) for k, v in s.items()} for s in steps]
    nv.lua(
        "local steps = ...; for _, s in ipairs(steps) do for k, v in pairs(s) do"
        " if v == '__nil__' then s[k] = vim.NIL end end end;"
        " _G.acp_plugin_test.answer_script(steps)",
        lua_steps,
    )


def answer(nv: PluginEditor, prompt: str) -> dict[str, Any]:
    """Prompt, wait for the question to be announced, answer it with :AcpAnswer."""
    turn = nv.prompt_async(prompt)
    nv.wait_until(f"#{ELICIT}.pending == 1", "the question to arrive")
    assert asked(nv) == [], "a question was shown before :AcpAnswer"
    assert any("(:AcpAnswer)" in note for note in nv.notes()), nv.notes()
    nv.lua("vim.cmd('AcpAnswer')")
    return nv.wait_turn(turn)


def asked(nv: PluginEditor) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = nv.lua("return _G.acp_plugin_test.asked")
    return calls


def test_a_form_is_asked_reviewed_changed_and_sent(nv: PluginEditor) -> None:
    play(
        nv,
        [
            {"select": "Quick: one sweep"},  # strategy (required, first)
            {"input": "3"},  # files
            {"input": ""},  # name: left empty
            {"select": "No"},  # notify
            {"select": "At most this many files: 3"},  # review: change one answer
            {"input": "5"},
            {"select": "Send"},
        ],
    )
    nv.setup()
    result = answer(nv, "ask-form")
    assert (
        'Form answered: accept {"files": 5, "notify": false, "strategy": "quick"}'
        in result["reply"]
    ), (asked(nv), nv.server_log())
    calls = asked(nv)
    assert [c["kind"] for c in calls] == [
        "select",
        "input",
        "input",
        "select",
        "select",
        "input",
        "select",
    ]
    review = calls[4]
    assert review["prompt"].startswith("acp-editor demo agent asks: How should I go about")
    assert review["titles"][:2] == ["Send", "Decline"]
    assert "Strategy*: quick" in review["titles"], review
    assert calls[5]["default"] == "3"  # changing an answer starts from it


@pytest.mark.parametrize(
    ("steps", "said"),
    [
        (
            [
                {"select": "Careful: small steps, tests first"},
                {"input": ""},
                {"input": ""},
                {"select": "Yes"},
                {"select": "Decline"},
            ],
            "Form answered: decline",
        ),
        ([{"select": NIL}], "Form answered: cancel"),
    ],
    ids=["declined at review", "dismissed"],
)
def test_a_form_can_be_declined_or_dismissed(
    nv: PluginEditor, steps: list[dict[str, Any]], said: str
) -> None:
    play(nv, steps)
    nv.setup()
    result = answer(nv, "ask-form")
    assert said in result["reply"], (asked(nv), nv.server_log())
    assert nv.lua(f"return #{ELICIT}.pending") == 0


@pytest.mark.parametrize(
    ("choice", "action"), [("Open", "accept"), ("Decline", "decline"), (NIL, "cancel")]
)
def test_a_web_page_opens_only_after_open(
    nv: PluginEditor, choice: str | None, action: str
) -> None:
    play(nv, [{"select": choice}])
    nv.setup()
    result = answer(nv, "ask-page")
    assert f"Web page answered: {action}" in result["reply"], (asked(nv), nv.server_log())
    (question,) = asked(nv)
    assert question["titles"] == ["Decline", "Open"]
    assert (
        "Site: example.com" in question["prompt"] and f"Address: {PAGE_URL}" in question["prompt"]
    )
    opened = nv.lua("return _G.acp_plugin_test.opened")
    assert opened == ([PAGE_URL] if choice == "Open" else [])


def test_cancelling_the_turn_withdraws_the_question(nv: PluginEditor) -> None:
    play(nv, [])
    nv.setup()
    nv.lua(
        """_G.acp_questions = {}
        vim.api.nvim_create_autocmd("User", { pattern = "AcpQuestion", callback = function(ev)
          table.insert(_G.acp_questions, ev.data)
        end })"""
    )
    turn = nv.prompt_async("ask-form")
    nv.wait_until(f"#{ELICIT}.pending == 1", "the question to arrive")
    # A form waits as a permission does: told to the user's hooks and the status line.
    (told,) = nv.lua("return _G.acp_questions")
    assert told["kind"] == "form" and told["title"], told
    assert nv.lua("return require('acp_editor').statusline()").startswith("acp: waiting for you")
    learnt = nv.lua(f"return {ELICIT}.pending[1].request_id")
    assert isinstance(learnt, str) and learnt, "the request's JSON-RPC id was learnt"
    nv.lua("vim.cmd('AcpCancel')")
    assert nv.wait_turn(turn)["stopReason"] == "cancelled"
    nv.wait_until(f"#{ELICIT}.pending == 0", "the question is withdrawn")
    assert any("withdrew its question" in note for note in nv.notes()), nv.notes()
    assert asked(nv) == []  # never shown: nobody ran :AcpAnswer
