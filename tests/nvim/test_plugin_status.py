"""Knowing what the agent does, in a real Neovim 0.11 against the real sidecar and the scripted
agent:

* ``require("acp_editor").statusline()`` says working while a turn runs, waiting for you while a
  permission request waits, idle after, with the mode and the model (and works as a
  ``%!`` statusline);
* ``User AcpQuestion`` fires when a request waits, ``User AcpTurnEnd`` when the turn ends; a
  notice says the agent is done when the chat is not shown, and nothing when it is
  (``notices.turn_end``, checked by setup());
* usage the agent reports (``usage_update``, through the sidecar's ``acp/sessionChanged``) is in
  the chat's header and the statusline, and nothing is shown before it;
* ``:AcpModel`` and ``:AcpConfig`` choose the session's config options with ``vim.ui.select``
  and set them with ``acp/setConfigOption``; the command line completes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nvim.plugin_driver import PluginEditor, plugin_editor

STATUSLINE = "return require('acp_editor').statusline()"
RECORD_EVENTS = """
_G.acp_events = {}
vim.api.nvim_create_autocmd("User", {
  pattern = { "AcpTurnEnd", "AcpQuestion" },
  callback = function(ev) table.insert(_G.acp_events, { event = ev.match, data = ev.data }) end,
})
"""
# What the sidecar sends when the agent reports usage (ACP usage_update), through the plugin's
# own handler of acp/sessionChanged. The scripted agent reports none.
REPORT_USAGE = """
local client = require("acp_editor.sidecar.client").get()
local sid = require("acp_editor.store").current_session
local params = { sessionId = sid, changes = { { type = "usage", usage = ... } } }
local ctx = { method = "acp/sessionChanged", client_id = client.id }
client.handlers["acp/sessionChanged"](nil, params, ctx)
"""
HEADER = "return vim.api.nvim_buf_get_lines(require('acp_editor.chat').buf, 0, 1, false)[1]"


@pytest.fixture
def nv(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginEditor]:
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        editor.setup(agents={"demo": {"cmd": [*editor.agents["demo"]["cmd"], "--fast"]}})
        yield editor


def events(nv: PluginEditor) -> list[dict[str, Any]]:
    recorded: list[dict[str, Any]] = nv.lua("return _G.acp_events")
    return recorded


def test_statusline_says_working_waiting_and_idle(nv: PluginEditor) -> None:
    nv.lua(RECORD_EVENTS)
    assert nv.lua(STATUSLINE) == "acp: idle"
    # Asks before editing hello.py. (Sent from Lua: prompt_async would pass a session id of nil
    # as vim.NIL.)
    turn = nv.lua("return _G.acp_plugin_test.prompt_async('edit')")
    assert nv.lua(STATUSLINE) == "acp: working"
    nv.wait_until(
        "require('acp_editor').statusline():find('^acp: waiting for you')", "the question waits"
    )
    (question,) = events(nv)
    assert question["event"] == "AcpQuestion", question
    assert question["data"]["kind"] == "permission" and "hello.py" in question["data"]["title"]
    nv.lua("require('acp_editor.questions.permissions').answer_oldest('allow_once')")
    result = nv.wait_turn(turn)
    nv.wait_until("#_G.acp_events == 2", "the turn's end is told")
    end = events(nv)[1]
    assert end == {
        "event": "AcpTurnEnd",
        "data": {"sessionId": result["sessionId"], "stopReason": "end_turn"},
    }
    assert nv.lua(STATUSLINE) == "acp: idle · code · Demo fast"
    # As a statusline of one's own: the function is cheap enough for %!.
    nv.lua("vim.o.statusline = \"%!v:lua.require'acp_editor'.statusline()\"")
    drawn = nv.lua("return vim.api.nvim_eval_statusline(vim.o.statusline, {}).str")
    assert drawn == "acp: idle · code · Demo fast"
    # The chat was never opened: a notice says the agent is done, with its last words.
    assert "acp-editor: the agent is done: Done: edit." in nv.notes(), nv.notes()


def test_no_turn_end_notice_while_the_chat_is_shown(nv: PluginEditor) -> None:
    nv.lua("vim.cmd('AcpChat')")
    nv.prompt("read")
    nv.lua("vim.cmd('AcpChat')")
    assert not [n for n in nv.notes() if "the agent is done" in n], nv.notes()
    nv.lua("require('acp_editor.store').config.notices.turn_end = 'always'")
    nv.prompt("read")
    assert "acp-editor: the agent is done: Done: read." in nv.notes(), nv.notes()
    bad = nv.lua(
        "local ok, err = pcall(require('acp_editor.config').resolve, ...); return err",
        {"notices": {"turn_end": "sometimes"}},
    )
    assert bad == (
        'acp_editor.setup: notices.turn_end: expected "hidden", "always" or false, got "sometimes"'
    )


def test_usage_is_shown_once_the_agent_reports_it(nv: PluginEditor) -> None:
    nv.lua("vim.cmd('AcpChat')")
    nv.prompt("read")
    nv.wait_until("H.chat().lines[1]:find('Demo fast')", "the header names the model")
    assert "tokens" not in nv.lua(HEADER)
    assert nv.lua(STATUSLINE) == "acp: idle · code · Demo fast"

    usage = {"used": 12345, "size": 200000, "cost": {"amount": 0.4217, "currency": "USD"}}
    nv.lua(REPORT_USAGE, usage)
    nv.wait_until("H.chat().lines[1]:find('tokens')", "the header shows the usage")
    assert nv.lua(HEADER).endswith("· Demo fast · 12.3k/200k tokens (6%) · $0.42")
    assert nv.lua(STATUSLINE) == "acp: idle · code · Demo fast · 12.3k/200k (6%) · $0.42"

    nv.lua(REPORT_USAGE, {"used": 950})  # no context size, no cost
    nv.wait_until("H.chat().lines[1]:find('950 tokens$')", "the header shows the new usage")
    assert nv.lua(STATUSLINE) == "acp: idle · code · Demo fast · 950"


def test_model_and_options_are_chosen_with_vim_ui_select(nv: PluginEditor) -> None:
    nv.prompt("read")
    current_model = (
        "require('acp_editor.session.config_options').find('model').currentValue == '{}'"
    )
    nv.helper("answer_with", "Demo careful: Answers the same, slower")
    nv.lua("vim.cmd('AcpModel')")
    nv.wait_until(current_model.format("demo-careful"), "the model changes")
    (select,) = nv.selects()
    assert select["kind"] == "acp_editor.config_option", select
    assert select["titles"] == [
        "Demo fast: Answers at once (current)",
        "Demo careful: Answers the same, slower",
    ], select
    assert nv.lua(STATUSLINE) == "acp: idle · code · Demo careful"
    assert "acp-editor: Model: Demo careful" in nv.notes(), nv.notes()
    sent = [m for m in nv.agent_received() if m.get("method") == "session/set_config_option"]
    assert [(m["params"]["configId"], m["params"]["value"]) for m in sent] == [
        ("model", "demo-careful")
    ]

    nv.lua("vim.cmd('AcpModel demo-fast')")  # named: no question
    nv.wait_until(current_model.format("demo-fast"), "the model changes back")

    nv.helper(
        "answer_script",
        [{"select": "Model: Demo fast"}, {"select": "Demo careful: Answers the same, slower"}],
    )
    nv.lua("vim.cmd('AcpConfig')")  # an option first, then its value
    nv.wait_until(current_model.format("demo-careful"), "the option changes")
    asked = nv.lua("return _G.acp_plugin_test.asked")
    assert [a["prompt"] for a in asked] == [
        "Agent option (a switch turns on or off at once):",
        "Model:",
    ], asked

    complete = "return vim.fn.getcompletion(..., 'cmdline')"
    assert nv.lua(complete, "AcpModel ") == ["demo-fast", "demo-careful"]
    assert nv.lua(complete, "AcpConfig ") == ["model", "think-aloud"]  # the boolean too
    assert nv.lua(complete, "AcpConfig model demo-c") == ["demo-careful"]


def test_a_boolean_option_is_a_toggle(nv: PluginEditor) -> None:
    """Schema 1.25's boolean config option (the demo's "Think aloud"): a switch in
    ``:AcpConfig``'s list that turns over when chosen, ``on``/``off``/``toggle`` by name, each
    sent as a JSON boolean in ``acp/setConfigOption``."""
    nv.prompt("read")
    think = "require('acp_editor.session.config_options').find('think-aloud').currentValue == {}"
    nv.helper("answer_script", [{"select": "Think aloud: off (turn on)"}])
    nv.lua("vim.cmd('AcpConfig')")
    nv.wait_until(think.format("true"), "the option turns on")
    (asked,) = nv.lua("return _G.acp_plugin_test.asked")
    assert asked["prompt"] == "Agent option (a switch turns on or off at once):", asked
    assert asked["titles"] == ["Model: Demo fast", "Think aloud: off (turn on)"], asked
    # The note follows the answer to acp/setConfigOption, which may come after the update.
    nv.wait_until(
        "vim.iter(H.notes):any(function(n) return n.msg == 'acp-editor: Think aloud: on' end)",
        "the user is told the option is on",
    )

    nv.lua("vim.cmd('AcpConfig think-aloud off')")
    nv.wait_until(think.format("false"), "off by name")
    nv.lua("vim.cmd('AcpConfig think-aloud')")  # named without a value: toggled
    nv.wait_until(think.format("true"), "toggled")
    nv.lua("vim.cmd('AcpConfig think-aloud toggle')")
    nv.wait_until(think.format("false"), "toggled back")
    nv.lua("vim.cmd('AcpConfig think-aloud maybe')")
    assert "acp-editor: Think aloud is on or off: :AcpConfig think-aloud on|off|toggle" in (
        nv.notes()
    )
    sent = [
        m["params"] for m in nv.agent_received() if m.get("method") == "session/set_config_option"
    ]
    assert [(p["configId"], p.get("type"), p["value"]) for p in sent] == [
        ("think-aloud", "boolean", True),
        ("think-aloud", "boolean", False),
        ("think-aloud", "boolean", True),
        ("think-aloud", "boolean", False),
    ], sent
    complete = "return vim.fn.getcompletion(..., 'cmdline')"
    assert nv.lua(complete, "AcpConfig think-aloud ") == ["on", "off", "toggle"]
    # Thinking aloud on, the agent starts its answer with a thought: the chat shows it.
    nv.lua("vim.cmd('AcpConfig think-aloud on')")
    nv.wait_until(think.format("true"), "on again")
    nv.lua("vim.cmd('AcpChat')")
    nv.prompt("read")
    nv.wait_until("vim.tbl_contains(H.chat().lines, '▸ Thinking')", "the thought is drawn")
