"""Signing in from Neovim (docs/protocol.md, "Signing in"), in a real Neovim 0.11 against the
real sidecar and the demo agent with ``--require-login``: a terminal-only sign-in, as
claude-agent-acp asks for one (its prompts fail until the user runs the agent's ``--login``
program, which asks for a name).

* before: the statusline, the chat's header and ``:checkhealth`` say "not logged in";
* a prompt: the sign-in's methods in ``vim.ui.select``, each saying what it does (a terminal
  one opens a terminal); the terminal method runs in a ``:terminal`` split where the user
  types (``chansend`` plays the keyboard); exit code 0, and the waiting prompt goes on; after,
  the header names the account;
* closing the terminal (its buffer, or its window) before the login ends gives up
  (``exitCode`` null): the prompt fails saying how to sign in by hand; a login that fails
  (nothing typed) fails it too;
* ``:AcpSignIn`` signs in on demand (``acp/signIn``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from acp_editor.demo_agent.server.signin import LOGIN_PROMPT
from tests.nvim.plugin_driver import PluginEditor, plugin_editor

METHOD = (
    "Log in from a terminal (opens a terminal where you sign in):"
    " Type your name in a terminal (the demo's sign-in)"
)
SIGN_IN = "require('acp_editor.questions.sign_in')"
STATUSLINE = "return require('acp_editor').statusline()"


@pytest.fixture
def login_file(tmp_path: Path) -> Path:
    return tmp_path / "login.json"


@pytest.fixture
def nv(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, login_file: Path
) -> Iterator[PluginEditor]:
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        editor.helper("answer_with", METHOD)
        cmd = [*editor.agents["demo"]["cmd"], "--require-login", "--login-file", str(login_file)]
        editor.setup(agents={"demo": {"cmd": cmd}})
        yield editor


def terminal(nv: PluginEditor) -> dict[str, Any]:
    """The sign-in's terminal once it asks for a name: its buffer, job and window."""
    nv.wait_until(f"next({SIGN_IN}.running) ~= nil", "the sign-in's terminal opens")
    found: dict[str, Any] = nv.lua(
        f"local buf, run = next({SIGN_IN}.running)"
        " return { buf = buf, job = run.job, win = run.win, buftype = vim.bo[buf].buftype,"
        " current = vim.api.nvim_get_current_win() == run.win, mode = vim.api.nvim_get_mode().mode,"
        " winbar = vim.wo[run.win].winbar }"
    )
    text = f"table.concat(vim.api.nvim_buf_get_lines({found['buf']}, 0, -1, false), '\\n')"
    nv.wait_until(f"{text}:find({LOGIN_PROMPT[:20]!r}, 1, true)", "the login asks for a name")
    return found


def screen(nv: PluginEditor, buf: int) -> str:
    text: str = nv.lua(
        "return table.concat(vim.api.nvim_buf_get_lines(..., 0, -1, false), '\\n')", buf
    )
    return text


def health(nv: PluginEditor) -> str:
    text: str = nv.lua(
        "vim.cmd('checkhealth acp_editor');"
        " local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\\n');"
        " vim.cmd('bwipeout'); return text"
    )
    return text


def test_a_terminal_sign_in_lets_the_prompt_go_on(nv: PluginEditor, login_file: Path) -> None:
    assert nv.lua(STATUSLINE) == "acp: idle · not logged in"
    assert "not logged in: :AcpSignIn" in health(nv)
    nv.lua("vim.cmd('AcpChat')")
    nv.wait_until("H.chat().lines[1]:find('not logged in (:AcpSignIn)', 1, true)", "the header")

    turn = nv.prompt_async("read")
    term = terminal(nv)
    (select,) = nv.selects()
    assert select["kind"] == "acp_editor.auth", select
    assert select["prompt"] == "Sign in to acp-editor demo agent with:", select
    assert select["titles"] == [METHOD], select
    # A real terminal, in front, in Terminal mode: what the user types goes to the login.
    assert term["buftype"] == "terminal" and term["current"] and term["mode"] == "t", term
    assert "Sign in to acp-editor demo agent (Log in from a terminal)" in term["winbar"]
    nv.lua("vim.fn.chansend(..., 'Alice\\r')", term["job"])

    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn" and result["reply"] == "Done: read.", result
    assert "Signed in as Alice." in screen(nv, term["buf"])
    assert '"name": "Alice"' in login_file.read_text()
    done = "acp-editor: signing in to acp-editor demo agent (Log in from a terminal): done"
    assert f"{done} (exit code 0)" in nv.notes(), nv.notes()
    nv.wait_until(f"{STATUSLINE[7:]} == 'acp: idle · code · Demo fast'", "signed in")
    nv.wait_until("H.chat().lines[1]:find('signed in: Alice', 1, true)", "the header names it")
    assert "signed in: Alice" in health(nv)


@pytest.mark.parametrize("how", ["bwipeout!", "close"])
def test_closing_the_terminal_gives_up(nv: PluginEditor, login_file: Path, how: str) -> None:
    turn = nv.prompt_async("read")
    term = terminal(nv)
    if how == "close":  # its window (:q): the buffer stays hidden, the sign-in is given up
        nv.lua("vim.api.nvim_win_close(..., true)", term["win"])
    else:
        nv.lua("vim.cmd('bwipeout! ' .. ...)", term["buf"])
    done = nv.helper("wait_turn", turn, 10_000)
    assert done["finished"] and done["error"], done
    # The sidecar was answered null: it says the sign-in was not finished, and how to do it.
    message = done["error"]["message"]
    assert "was not finished" in message and "--login" in message, message
    assert (
        "acp-editor: signing in to acp-editor demo agent (Log in from a terminal):"
        " the terminal was closed before the sign-in ended: not signed in" in nv.notes()
    ), nv.notes()
    assert not login_file.exists()
    assert nv.lua(f"return vim.tbl_isempty({SIGN_IN}.running)")


def test_a_failed_login_fails_the_prompt(nv: PluginEditor, login_file: Path) -> None:
    turn = nv.prompt_async("read")
    term = terminal(nv)
    nv.lua("vim.fn.chansend(..., '\\r')", term["job"])  # no name typed: the login exits 1
    done = nv.helper("wait_turn", turn, 10_000)
    assert "ended with exit status 1" in done["error"]["message"], done
    assert "Not signed in: no name typed." in screen(nv, term["buf"])
    assert any("ended with exit code 1: not signed in" in n for n in nv.notes()), nv.notes()
    assert not login_file.exists()


def test_acp_sign_in_signs_in_on_demand(nv: PluginEditor, login_file: Path) -> None:
    nv.lua("vim.cmd('AcpSignIn')")
    term = terminal(nv)
    nv.lua("vim.fn.chansend(..., 'Bob\\r')", term["job"])
    done = "acp-editor: signed in to acp-editor demo agent (demo-terminal-login)"
    nv.wait_until(
        f"vim.tbl_contains(vim.tbl_map(function(n) return n.msg end, H.notes), {done!r})",
        "the command says it is done",
    )
    assert '"name": "Bob"' in login_file.read_text()
    assert nv.prompt("read")["stopReason"] == "end_turn"
    assert len(nv.selects()) == 1, "no second sign-in"
    # The demo agent tells its new state with the next prompt (auth/status_update).
    nv.wait_until(f"{STATUSLINE[7:]} == 'acp: idle · code · Demo fast'", "signed in")


# The handler as Neovim runs a server request: in a coroutine, whose result is the answer.
RUN_HANDLER = """
local params = ...
_G.sign_in_answer = nil
local co = coroutine.create(function()
  _G.sign_in_answer = { require("acp_editor.questions.sign_in").terminal(nil, params) }
end)
assert(coroutine.resume(co))
"""


@pytest.fixture
def bare(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[PluginEditor]:
    """The plugin set up, without a sidecar: the handler alone."""
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        editor.lua("require('acp_editor').setup({ notify = _G.acp_plugin_test.record_notify })")
        yield editor


def test_the_terminal_gets_the_methods_env_and_cwd(bare: PluginEditor, tmp_path: Path) -> None:
    where = tmp_path / "elsewhere"
    where.mkdir()
    params = {
        "agent": "claude",
        "agentName": "Claude Agent",
        "methodId": "claude-ai-login",
        "name": "Claude Subscription",
        # pwd first: once the variable's line is drawn, the folder's is too.
        "command": ["sh", "-c", 'pwd; echo "token=$ACP_TEST_VAR"; read line; exit 3'],
        "env": {"ACP_TEST_VAR": "from-the-method"},
        "commandLine": "claude-agent-acp --cli auth login --claudeai",
        "cwd": str(where),
    }
    bare.lua(RUN_HANDLER, params)
    term = terminal_of(bare)
    text = f"table.concat(vim.api.nvim_buf_get_lines({term['buf']}, 0, -1, false), '\\n')"
    bare.wait_until(f"{text}:find('token=from%-the%-method')", "the method's variable")
    assert str(where) in screen(bare, term["buf"])
    bare.lua("vim.fn.chansend(..., '\\r')", term["job"])
    bare.wait_until("_G.sign_in_answer ~= nil", "the request is answered")
    assert bare.lua("return _G.sign_in_answer") == [{"exitCode": 3}]
    assert (
        "acp-editor: signing in to Claude Agent (Claude Subscription) ended with exit code 3:"
        " not signed in (its terminal says why)" in bare.notes()
    ), bare.notes()


def test_a_command_that_cannot_start_is_answered_null(bare: PluginEditor) -> None:
    params = {
        "agent": "x",
        "agentName": "X",
        "methodId": "m",
        "name": "M",
        "command": ["/nonexistent/login-program"],
        "env": {},
        "commandLine": "/nonexistent/login-program",
    }
    wins = len(bare.windows())
    bare.lua(RUN_HANDLER, params)
    bare.wait_until("_G.sign_in_answer ~= nil", "the request is answered")
    assert bare.lua("return _G.sign_in_answer") == [{"exitCode": None}]
    assert any("cannot start" in n and "not signed in" in n for n in bare.notes()), bare.notes()
    assert len(bare.windows()) == wins, "no terminal window is left behind"


def terminal_of(nv: PluginEditor) -> dict[str, Any]:
    nv.wait_until(f"next({SIGN_IN}.running) ~= nil", "the sign-in's terminal opens")
    found: dict[str, Any] = nv.lua(
        f"local buf, run = next({SIGN_IN}.running) return {{ buf = buf, job = run.job }}"
    )
    return found
