"""Permission requests (``acp/requestPermission``) with the plugin, in a real Neovim 0.11.

* the user's choice in ``vim.ui.select`` (a stub playing a picker plugin) reaches the agent as
  that option, and decides whether the file changes; dismissing the picker rejects;
* requests from two sessions at once queue up: one picker at a time, in order;
* a request can be answered from the chat buffer (with the picker turned off);
* cancelling the turn withdraws the pending request (``$/cancelRequest``) and the agent is told
  ``cancelled``;
* an auto-approve rule answers without asking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE, NOTE_LINE
from tests.nvim.plugin_driver import PluginEditor

OPTION_TITLES = ["Allow", "Always allow", "Reject", "Always reject"]
EDIT_REQUEST = "## Permission: Edit hello.py (hello.py +1 -0)"
PERMISSIONS = "require('acp_editor.questions.permissions')"  # its `pending` queue, its `history`


def outcomes(nv: PluginEditor) -> list[dict[str, Any]]:
    """The answers to session/request_permission the agent received, in order."""
    return [
        m["result"]["outcome"]
        for m in nv.agent_received()
        if isinstance(m.get("result"), dict) and "outcome" in m["result"]
    ]


@pytest.mark.parametrize(
    ("choice", "option_id"),
    [("Allow", "proceed_once"), ("Reject", "decline_once"), (None, "decline_once")],
    ids=["allow", "reject", "dismissed"],
)
def test_the_choice_in_vim_ui_select_reaches_the_agent(
    nv: PluginEditor, workspace: Path, choice: str | None, option_id: str
) -> None:
    hello = workspace / "hello.py"
    original = hello.read_text()
    nv.helper("answer_with", choice)
    nv.setup()
    result = nv.prompt("edit")
    assert result["stopReason"] == "end_turn", result

    (select,) = nv.selects()
    assert select["kind"] == "acp_editor.permission", select
    assert select["titles"] == OPTION_TITLES, select
    assert "Edit hello.py" in select["prompt"] and "+1 -0" in select["prompt"], select
    assert outcomes(nv) == [{"outcome": "selected", "optionId": option_id}], nv.server_log()
    allowed = option_id == "proceed_once"
    assert hello.read_text() == (original + EDIT_LINE if allowed else original)
    assert nv.lua(f"return #{PERMISSIONS}.pending") == 0


def test_requests_from_two_sessions_queue_one_picker_at_a_time(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.helper("answer_with", "Allow", 1000)  # the user takes a while to read each question
    nv.setup()
    first = nv.prompt_async("edit")
    nv.wait_until(f"#{PERMISSIONS}.pending == 1", "the first request")
    session_a = nv.lua("return require('acp_editor.store').current_session")
    nv.lua("require('acp_editor.session.requests').new_session()")
    nv.wait_until(f"require('acp_editor.store').current_session ~= '{session_a}'", "session B")
    second = nv.prompt_async("early-permission")
    nv.wait_until(f"#{PERMISSIONS}.pending == 2", "both requests pending")

    assert len(nv.selects()) == 1, "the second request waits for the first picker to close"
    for turn in (first, second):
        assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    prompts = [s["prompt"] for s in nv.selects()]
    assert len(prompts) == 2 and "Edit hello.py" in prompts[0] and "NOTES.md" in prompts[1]
    assert (workspace / "NOTES.md").read_text().endswith(NOTE_LINE)


def test_a_request_is_answered_from_the_chat_buffer(nv: PluginEditor, workspace: Path) -> None:
    nv.setup(permission_ui="chat")
    nv.lua("vim.cmd('AcpChat')")
    turn = nv.prompt_async("edit")
    listed = f"vim.tbl_contains(H.chat().lines, '{EDIT_REQUEST}')"
    nv.wait_until(listed, "the request is listed in the chat")
    lines = nv.chat()["lines"]
    keys = lines[lines.index(EDIT_REQUEST) + 1]
    assert keys == "  a Allow · A Always allow · r Reject · R Always reject · p choose…", keys
    assert nv.selects() == [], 'no picker with permission_ui = "chat"'

    nv.lua("vim.api.nvim_set_current_win(vim.fn.bufwinid('acp-editor://chat'))")
    nv.feed("a")
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    assert outcomes(nv) == [{"outcome": "selected", "optionId": "proceed_once"}]
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)
    nv.wait_until(f"not {listed}", "the answered request leaves the chat")


def test_cancelling_the_turn_withdraws_the_request(nv: PluginEditor, workspace: Path) -> None:
    original = (workspace / "hello.py").read_text()
    nv.helper("answer_with", "Allow", 60_000)  # a picker left open
    nv.setup()
    turn = nv.prompt_async("edit")
    nv.wait_until(f"#{PERMISSIONS}.pending == 1", "the request")
    learnt = nv.lua(f"return {PERMISSIONS}.pending[1].request_id")
    assert isinstance(learnt, str) and learnt, "the request's JSON-RPC id was learnt"

    nv.lua("vim.cmd('AcpCancel')")
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "cancelled", result
    nv.wait_until(f"#{PERMISSIONS}.pending == 0", "the request is withdrawn")
    history = nv.lua(f"return {PERMISSIONS}.history")
    # Whichever the plugin reads first: the tool call's cancelled status or $/cancelRequest.
    reasons = ("withdrawn by the server", "the tool call was cancelled")
    assert history[-1]["outcome"].get("withdrawn") in reasons, history
    assert outcomes(nv) == [{"outcome": "cancelled"}]
    assert (workspace / "hello.py").read_text() == original


def test_auto_approve_rule_answers_without_asking(nv: PluginEditor, workspace: Path) -> None:
    nv.helper("answer_with", "Reject")
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])
    nv.prompt("edit")
    assert nv.selects() == [], "the rule answered: no picker"
    assert outcomes(nv) == [{"outcome": "selected", "optionId": "proceed_once"}]
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)


def test_a_dismissed_request_can_be_kept_and_answered_later(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.helper("answer_with", None)  # the user closes the picker without choosing
    nv.setup(dismiss="keep")
    turn = nv.prompt_async("edit")
    nv.wait_until("#_G.acp_plugin_test.selects == 1", "the picker opens")
    nv.settle(200)  # a window in which the dismissed picker must NOT come back by itself
    assert nv.lua(f"return #{PERMISSIONS}.pending") == 1, "still pending"
    assert len(nv.selects()) == 1, "a dismissed picker does not pop up again by itself"

    nv.helper("answer_with", "Allow")
    nv.lua("vim.cmd('AcpPermission')")
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    assert len(nv.selects()) == 2
    assert outcomes(nv) == [{"outcome": "selected", "optionId": "proceed_once"}]
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)


def test_without_a_picker_plugin_a_window_asks_and_never_takes_the_keyboard(
    nv: PluginEditor, workspace: Path
) -> None:
    """Neovim's own vim.ui.select took the screen and the keys: typed text went into it and the
    Enter that followed dismissed it, rejecting the edit. The window shows the question, the
    typing stays in the user's buffer, and only a key pressed inside the window answers."""
    nv.setup()  # no picker plugin: vim.ui.select is Neovim's own
    notes = nv.edit(workspace / "notes.txt")
    turn = nv.prompt_async("edit")
    nv.wait_until("require('acp_editor.questions.window').shown()", "the question's window")
    assert nv.lua("return vim.api.nvim_get_current_buf()") == notes  # focus stayed
    shown = nv.lua(
        "local w = require('acp_editor.questions.window');"
        " return vim.api.nvim_buf_get_lines(w.buf, 0, -1, false)"
    )
    assert any("Edit hello.py" in line for line in shown), shown
    assert "  y  Allow" in shown and "  n  Reject" in shown, shown
    nv.feed("ityped while asked<CR><Esc>")  # the keys land in the user's buffer
    assert nv.lua("return vim.api.nvim_buf_get_lines(0, 0, 1, false)[1]") == "typed while asked"
    assert nv.selects() == [] and outcomes(nv) == []  # nothing answered by the typing

    nv.lua("vim.cmd('AcpPermission')")  # jump in, then answer with a key
    assert nv.lua("return vim.api.nvim_get_current_win()") == nv.lua(
        "return require('acp_editor.questions.window').win"
    )
    nv.feed("y")
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    assert outcomes(nv) == [{"outcome": "selected", "optionId": "proceed_once"}]
    assert (workspace / "hello.py").read_text().endswith(EDIT_LINE)
    assert not nv.lua("return require('acp_editor.questions.window').shown()")
    assert nv.lua("return vim.api.nvim_get_current_buf()") == notes  # back where the user was
