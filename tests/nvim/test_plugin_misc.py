"""The rest of the plugin in a real Neovim 0.11: health, options, terminals, sessions, loading.

* ``:checkhealth acp_editor`` reports OK for Neovim, the sidecar, the agent and the running
  sidecar, and no error;
* bad options fail in setup() with a message naming the field;
* only user commands exist until one is used (nothing of the plugin is loaded at startup);
* an agent's command output is in a scratch buffer that fills as it runs;
* ``:AcpSessions`` lists the sessions (live ones, then the agent's earlier ones) and brings the
  chosen one back (a live one to the front); loading a session again shows it once;
* with ``saves_after_apply`` the plugin saves the buffers the server edits;
* the help file's tags are valid (``:helptags`` accepts it);
* an agent that needs a login gets the method the user picks in ``vim.ui.select``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.demo_agent.scenarios.command_scenarios import SHELL_COMMAND
from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from tests.e2e.test_registry import Served, registry_files
from tests.nvim.plugin_driver import PLUGIN_ROOT, PluginEditor
from tests.support.starter import SCRIPTED_AGENT


@pytest.fixture
def registry_root(tmp_path: Path) -> Path:
    return registry_files(tmp_path / "www")


def test_checkhealth_reports_ok(nv: PluginEditor) -> None:
    nv.setup()
    lines: list[str] = nv.lua(
        "vim.cmd('checkhealth acp_editor'); return vim.api.nvim_buf_get_lines(0, 0, -1, false)"
    )
    text = "\n".join(lines)
    oks = [line for line in lines if "OK" in line]
    assert not [line for line in lines if "ERROR" in line], text
    assert any("Neovim 0.11" in line for line in oks), text
    assert any("(set by server_cmd)" in line for line in oks), text  # which sidecar
    assert any("the sidecar runs: acp-editor" in line for line in oks), text
    assert any("agent demo (default)" in line for line in oks), text
    assert any("initialized" in line for line in oks), text
    assert any("the agent is ready: acp-editor demo agent" in line for line in oks), text


def test_the_sidecars_own_agent_is_ready_and_named_before_any_prompt(nv: PluginEditor) -> None:
    """No ``agents``: the sidecar runs its own (here its built-in demo agent, id ``demo``, whose
    command starts with the Python interpreter). Once it answered ``initialize`` the statusline,
    the chat's header and :checkhealth say it is ready, by its name, before any prompt."""
    opts = {"server_cmd": nv.server_cmd, "root_dir": str(nv.workspace)}
    opts["server_args"] = ["--log-level", "INFO", "--log-file", str(nv.log_file)]
    assert nv.helper("start", opts, 15_000)["ok"], f"never ready\n{nv.server_log()}"
    nv.lua("vim.cmd('AcpChat')")
    header = "H.chat().lines[1]"
    nv.wait_until(f"{header} == 'acp-editor · acp-editor demo agent · ready'", "the header")
    assert nv.lua("return require('acp_editor').statusline()") == "acp: idle"
    assert nv.lua("return require('acp_editor').status().agent") == "acp-editor demo agent"
    health = nv.lua("vim.cmd('checkhealth acp_editor'); return vim.fn.getline(1, '$')")
    assert [line for line in health if "the agent is ready: acp-editor demo agent" in line]
    # Starting again (say after a crash), with no agentInfo yet: named by its id.
    nv.lua(
        "local c = require('acp_editor.sidecar.client').get(); c.handlers['acp/agentStatus'](nil,"
        " { agent = 'demo', state = 'starting', command = { 'python3' } }, { client_id = c.id })"
    )
    nv.wait_until(f"{header} == 'acp-editor · demo · starting'", "the header while starting")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"agents": {"claude": {"cmd": "claude"}}},
            "agents.claude.cmd: expected table, got string",
        ),
        ({"follow": "yes"}, "follow: expected boolean or table, got string"),
        ({"follow": {"all": True}}, "follow.all: unknown option"),
        ({"review": "sometimes"}, "review: expected one of after-write, before-write, off"),
        ({"auto_approve": [{"kind": "read", "option": "yes"}]}, "auto_approve[1].option"),
        ({"default_agent": "nope"}, 'default_agent: "nope" is not a key of agents'),
        ({"chat": {"widht": 3}}, "chat.widht: unknown option"),
    ],
)
def test_bad_options_fail_with_the_field_named(
    nv: PluginEditor, options: dict[str, object], message: str
) -> None:
    error = nv.lua("local ok, err = pcall(require('acp_editor').setup, ...); return err", options)
    assert error.startswith("acp_editor.setup: "), error
    assert message in error, error


def test_nothing_is_loaded_before_a_command_runs(nv: PluginEditor) -> None:
    loaded = nv.lua(
        "local l = {}; for name in pairs(package.loaded) do"
        " if name:match('^acp_editor') then table.insert(l, name) end end; return l"
    )
    assert loaded == [], loaded
    commands = nv.lua("return vim.tbl_keys(vim.api.nvim_get_commands({}))")
    expected = {"AcpChat", "AcpPrompt", "AcpCancel", "AcpFollow", "AcpMode", "AcpReview"}
    expected |= {"AcpSessions", "AcpTerminal", "AcpDiff", "AcpReviewGroups"}
    assert expected <= set(commands), commands


def test_setup_starts_nothing_the_first_command_starts_the_sidecar(
    nv: PluginEditor, workspace: Path
) -> None:
    """A plugin in every Neovim launch (``git commit`` too) must cost nothing until used."""
    nv.lua(
        "require('acp_editor').setup(...)",
        {"server_cmd": nv.server_cmd, "root_dir": str(workspace), "agents": nv.agents},
    )
    assert nv.lua("return require('acp_editor.sidecar.client').get() == nil")
    nv.nvim.command("AcpChat")
    assert nv.lua(
        "return vim.wait(15000, function() local c = require('acp_editor.sidecar.client').get();"
        " return c ~= nil and c.initialized end, 20)"
    )


def test_command_output_fills_a_scratch_buffer(nv: PluginEditor, workspace: Path) -> None:
    nv.setup(auto_approve=[{"kind": "*", "option": "allow_once"}])
    result = nv.prompt("shell")
    assert result["stopReason"] == "end_turn", result
    nv.wait_until("next(require('acp_editor.terminals').terminals)", "a terminal")
    shown = nv.lua(
        "vim.cmd('AcpTerminal'); local buf = vim.api.nvim_get_current_buf();"
        " return {name = vim.api.nvim_buf_get_name(buf), buftype = vim.bo[buf].buftype,"
        " lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)}"
    )
    assert shown["name"].startswith("acp-editor://terminal/"), shown
    assert shown["buftype"] == "nofile", shown
    assert shown["lines"][0] == "hello from the demo agent", shown
    assert "hello.py" in shown["lines"], shown  # `ls` of the workspace
    assert shown["lines"][-2:] == ["[exit code 0]", ""], shown
    chat = nv.lua("vim.cmd('AcpChat'); return _G.acp_plugin_test.chat().lines")
    assert f"✓ [execute] Run `{SHELL_COMMAND}` · completed" in chat, chat


def test_sessions_are_listed_and_loaded(nv: PluginEditor) -> None:
    nv.setup()
    first = nv.prompt("hello")["sessionId"]
    nv.lua("require('acp_editor.session.requests').new_session()")
    nv.wait_until(f"require('acp_editor.store').current_session ~= '{first}'", "a new session")
    nv.lua(
        """
        local first = ...
        vim.ui.select = function(items, opts, on_choice)
          _G.acp_plugin_test.listed = vim.tbl_map(function(s) return s.sessionId end, items)
          for i, item in ipairs(items) do
            if item.sessionId == first then return on_choice(item, i) end
          end
          on_choice(nil, nil)
        end
        vim.cmd('AcpSessions')
        """,
        first,
    )
    nv.wait_until(f"require('acp_editor.store').current_session == '{first}'", "loaded")
    assert first in nv.lua("return _G.acp_plugin_test.listed")
    # The loaded session's history replays into the mirror (the demo agent resends it).
    nv.wait_until(
        "#require('acp_editor.store').current().entries > 0", "the replayed history", 3000
    )
    # Loading it again (it is open in the sidecar now) shows the conversation once, not twice.
    nv.lua(
        "require('acp_editor.session.requests').load(..., function(err)"
        " _G.acp_plugin_test.reloaded = err == nil end)",
        first,
    )
    nv.wait_until("_G.acp_plugin_test.reloaded", "loaded again")
    users = nv.lua(
        "return #vim.tbl_filter(function(e) return e.kind == 'message' and e.role == 'user'"
        " end, require('acp_editor.store').current().entries)"
    )
    assert users == 1, "one copy of the conversation"
    nv.lua("vim.cmd('AcpChat')")
    nv.wait_until("#H.chat().lines > 0", "the chat is drawn")
    assert [line for line in nv.chat()["lines"] if line == "## You"] == ["## You"]


def test_saves_after_apply_writes_the_edited_buffer(nv: PluginEditor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    # savesAfterApply: the server leaves the disk to Neovim, so only the plugin's save writes it.
    nv.setup(saves_after_apply=True, auto_approve=[{"kind": "edit", "option": "allow_once"}])
    nv.prompt("edit")
    state = nv.buffer(buf)
    assert state["lines"][-1] == EDIT_LINE.rstrip("\n"), state
    assert not state["modified"], "the plugin saved the buffer after the server's edit"
    assert hello.read_text().endswith(EDIT_LINE)


def test_help_file_has_valid_tags(nv: PluginEditor, tmp_path: Path) -> None:
    doc = tmp_path / "doc"
    doc.mkdir()
    (doc / "acp_editor.txt").write_text((PLUGIN_ROOT / "doc" / "acp_editor.txt").read_text())
    errors = nv.lua(
        "vim.v.errmsg = ''; vim.cmd.helptags(vim.fn.fnameescape(...)); return vim.v.errmsg",
        str(doc),
    )
    assert errors == "", errors  # e.g. E154: duplicate tag
    tags = {line.split("\t")[0] for line in (doc / "tags").read_text().splitlines()}
    expected = {"acp_editor", "acp_editor-options", ":AcpChat", ":AcpPrompt", ":AcpReview"}
    expected |= {":AcpReviewGroups", "acp_editor-review-groups"}
    expected |= {":AcpSignIn", "acp_editor-sign-in", "acp_editor-subagents"}
    assert expected <= tags, sorted(tags)


def test_the_login_method_is_chosen_with_vim_ui_select(nv: PluginEditor) -> None:
    agent = [*SCRIPTED_AGENT, "--require-auth"]  # session/new fails until the client authenticates
    nv.helper("answer_with", "Demo login (the agent signs you in): Always succeeds")
    nv.setup(agents={"demo": {"cmd": agent}})
    result = nv.prompt("hello")
    assert result["stopReason"] == "end_turn", result
    (select,) = nv.selects()
    assert select["kind"] == "acp_editor.auth", select
    # Each way says what choosing it does; a terminal one runs in Neovim's :terminal
    # (test_plugin_sign_in.py).
    assert select["titles"] == [
        "Demo login (the agent signs you in): Always succeeds",
        "Log in from a terminal (opens a terminal where you sign in):"
        " Type your name in a terminal (the demo's sign-in)",
    ], select


def test_without_a_new_enough_python_the_install_says_what_to_install(nv: PluginEditor) -> None:
    found = nv.lua(
        "vim.env.PATH = '/nonexistent';"
        " local ok, message = require('acp_editor.sidecar.install').run(); return {ok, message}"
    )
    assert found[0] is False
    assert "no Python 3.11 or newer found on PATH" in found[1], found
    assert "install one" in found[1]


def test_an_agent_is_chosen_from_the_registry(
    nv: PluginEditor, tmp_path: Path, registry_root: Path
) -> None:
    """:AcpAgents lists the ACP registry (through the sidecar, served from 127.0.0.1 here) and
    restarts with the chosen agent, found by the sidecar from its id."""
    served = Served(registry_root)
    try:
        nv.lua(
            "vim.env.ACP_EDITOR_REGISTRY, vim.env.ACP_EDITOR_CACHE_DIR = ...",
            f"{served.url}/registry.json",
            str(tmp_path / "cache"),
        )
        nv.setup()
        nv.lua(
            """
            vim.ui.select = function(items, opts, on_choice)
              _G.acp_plugin_test.listed = vim.tbl_map(function(a) return a.id end, items)
              for i, item in ipairs(items) do
                if item.id == 'packed-demo' then return on_choice(item, i) end
              end
            end
            vim.cmd('AcpAgents')
            """
        )
        nv.wait_until(
            "vim.tbl_contains((require('acp_editor.sidecar.client').get() or {config = {cmd = {}}})"
            ".config.cmd, 'packed-demo') and require('acp_editor.store').agent"
            " and require('acp_editor.store').agent.state == 'ready'",
            "the sidecar runs the registry agent",
            20_000,
        )
        assert "gemini" in nv.lua("return _G.acp_plugin_test.listed")
        assert nv.prompt("read")["stopReason"] == "end_turn"
    finally:
        served.stop()
