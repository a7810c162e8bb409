"""The chat as a Markdown buffer, in a real Neovim 0.11 against the real sidecar and the scripted
agent (its ``look`` scenario replies with a fenced code block: hello.py's first lines):

* the transcript's filetype is ``markdown`` and treesitter's markdown parser (shipped with
  Neovim 0.11) draws it: ``## You`` is a heading, the reply's code a code block; the chat's own
  folds still hold;
* a message or tool output that leaves a code block open gets its closing fence; a diff is a
  ``diff`` code block;
* ``gy`` yanks the code block under the cursor (into the register given with ``"x``);
* ``?`` shows the chat's keys in a float and the keyboard stays in the chat;
* ``:AcpTranscript`` opens the sidecar's live Markdown transcript beside the chat, read-only,
  and it follows the next turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import PluginEditor, plugin_editor

LOOKED = HELLO_LINES[:5]  # the first lines of hello.py, in the reply's code block

TREESITTER = """
local buf = require("acp_editor.chat").buf
local function captures(row)
  local found = vim.treesitter.get_captures_at_pos(buf, row, 0)
  return vim.tbl_map(function(c) return c.capture end, found)
end
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local you, code = vim.fn.index(lines, "## You"), vim.fn.index(lines, ...)
local highlighter = vim.treesitter.highlighter.active[buf]
local win = vim.fn.bufwinid(buf)
return {
  filetype = vim.bo[buf].filetype,
  chat = vim.b[buf].acp_editor_chat,
  lang = highlighter and highlighter.tree:lang() or vim.NIL,
  heading = captures(you),
  code = captures(code),
  foldexpr = vim.wo[win].foldexpr,
}
"""


@pytest.fixture
def nv(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginEditor]:
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        editor.setup(agents={"demo": {"cmd": [*editor.agents["demo"]["cmd"], "--fast"]}})
        yield editor


def looked(nv: PluginEditor) -> list[str]:
    """Open the chat, run the ``look`` turn; the transcript's lines once the reply is drawn."""
    nv.lua("vim.cmd('AcpChat')")
    assert nv.prompt("look")["stopReason"] == "end_turn"
    nv.wait_until("vim.tbl_contains(H.chat().lines, 'Done: look.')", "the reply is drawn")
    lines: list[str] = nv.chat()["lines"]
    return lines


def test_the_chat_is_markdown_drawn_by_treesitter(nv: PluginEditor) -> None:
    lines = looked(nv)
    fence = lines.index("```")
    assert lines[fence + 1 : fence + 1 + len(LOOKED)] == LOOKED, lines
    shown: dict[str, Any] = nv.lua(TREESITTER, LOOKED[0])
    assert shown["filetype"] == "markdown" and shown["chat"], shown
    assert shown["lang"] == "markdown", shown
    assert "markup.heading.2" in shown["heading"], shown
    assert "markup.raw.block" in shown["code"], shown
    assert shown["foldexpr"] == "v:lua.require'acp_editor.chat'.foldexpr()", shown


def test_open_code_blocks_are_closed_and_diffs_are_diff_blocks(nv: PluginEditor) -> None:
    rendered: list[str] = nv.lua(
        """
        local snap = require("acp_editor.session.reducer").new("s")
        snap.entries = {
          { kind = "message", role = "agent",
            content = { { type = "text", text = "Look:\\n```lua\\nlocal x" } } },
          { kind = "toolCall", toolCallId = "t" },
        }
        snap.toolCalls.t = { toolCallId = "t", title = "Edit", status = "completed", content = {
          { type = "diff", path = "a.md", oldText = "a\\n", newText = "```\\nb\\n" },
          { type = "content", content = { type = "text", text = "~~~~\\nout" } },
        } }
        return require("acp_editor.chat.render").render(snap, { keys = {} }).lines
        """
    )
    at = rendered.index("```lua")
    assert rendered[at : at + 3] == ["```lua", "local x", "```"], rendered
    diff = rendered.index("  diff a.md")
    assert rendered[diff + 1] == "  ````diff", rendered  # longer than the ``` inside
    assert "  +```" in rendered and rendered[rendered.index("  +b") + 1] == "  ````", rendered
    assert rendered[-2:] == ["  out", "  ~~~~"], rendered


def test_gy_yanks_the_code_block_under_the_cursor(nv: PluginEditor) -> None:
    lines = looked(nv)
    inside = lines.index(LOOKED[3]) + 1
    nv.lua(
        "local win = vim.fn.bufwinid(require('acp_editor.chat').buf);"
        " vim.api.nvim_set_current_win(win); vim.api.nvim_win_set_cursor(win, ...)",
        [inside, 0],
    )
    nv.feed("gy")
    assert nv.lua("return vim.fn.getreg('\"', 1, true)") == LOOKED
    assert nv.lua("return vim.fn.getregtype('\"')") == "V"
    nv.feed('"agy')  # a register named first, as with y
    assert nv.lua("return vim.fn.getreg('a', 1, true)") == LOOKED
    nv.lua("vim.api.nvim_win_set_cursor(0, {1, 0})")  # the header: no code there
    nv.lua("vim.fn.setreg('\"', 'kept')")
    nv.feed("gy")
    assert nv.lua("return vim.fn.getreg('\"')") == "kept"
    assert "acp-editor: no code block under the cursor" in nv.notes(), nv.notes()


def test_question_mark_shows_the_keys_and_leaves_the_keyboard(nv: PluginEditor) -> None:
    nv.lua("vim.cmd('AcpChat')")
    nv.lua("vim.api.nvim_set_current_win(vim.fn.bufwinid(require('acp_editor.chat').buf))")
    before = nv.lua("return vim.api.nvim_get_current_win()")
    nv.feed("?")
    floats = (
        "vim.tbl_filter(function(w) return vim.api.nvim_win_get_config(w).relative ~= '' end,"
        " vim.api.nvim_list_wins())"
    )
    nv.wait_until(f"#{floats} == 1", "the help float shows")
    help_lines: list[str] = nv.lua(
        f"return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf({floats}[1]), 0, -1, false)"
    )
    text = "\n".join(help_lines)
    for key, what in [
        ("gy", "yank the code block under the cursor"),
        ("a", "allow"),
        ("<CR>", "send the prompt"),
        ("q", "close the chat"),
        ("?", "show these keys"),
    ]:
        assert any(line.split()[:1] == [key] and what in line for line in help_lines), text
    assert ":AcpTranscript" in text and ":AcpModel" in text, text
    assert nv.lua("return vim.api.nvim_get_current_win()") == before  # the keyboard stays here
    nv.feed("gg")  # moving on closes it
    nv.wait_until(f"#{floats} == 0", "the help float closes")


def test_transcript_opens_the_live_markdown_file_beside_the_chat(nv: PluginEditor) -> None:
    nv.lua("vim.cmd('AcpChat')")
    assert nv.prompt("read")["stopReason"] == "end_turn"
    nv.lua("vim.cmd('AcpTranscript')")  # from the prompt area
    nv.wait_until("vim.api.nvim_buf_get_name(0):match('%.md$')", "the transcript is shown")
    shown = {w["name"] for w in nv.windows()}
    assert {"acp-editor://chat", "acp-editor://prompt"} <= shown, shown  # the chat stays
    state: dict[str, Any] = nv.lua(
        "return { lines = vim.api.nvim_buf_get_lines(0, 0, -1, false),"
        " readonly = vim.bo.readonly, filetype = vim.bo.filetype }"
    )
    assert state["readonly"] and state["filetype"] == "markdown", state
    assert "## You" in state["lines"] and "read" in state["lines"], state["lines"]
    assert nv.prompt("plan")["stopReason"] == "end_turn"
    nv.wait_until(
        "vim.tbl_contains(vim.api.nvim_buf_get_lines(0, 0, -1, false), 'Done: plan.')",
        "the transcript follows the next turn",
    )
