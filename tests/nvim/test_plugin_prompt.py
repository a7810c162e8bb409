"""The chat's prompt area in a real Neovim 0.11, typed into as a user types (``nvim_input``),
against the real sidecar and the scripted agent, with no completion plugin:

* ``@`` opens Neovim's completion menu with the sidecar's ``acp/findFiles`` answer (open
  buffers first, ignored files left out), asked again as the query grows; choosing a file
  attaches it, and the prompt goes with a ``resource_link`` (and the buffer's unsaved text as an
  embedded ``resource``, since the agent takes embedded context);
* ``/`` at the start of the prompt offers the agent's slash commands with their descriptions;
* the attach menu attaches the current buffer, its diagnostics (as text), a URL and an image
  (offered only to an agent that takes images, as the demo agent does); the window's bar lists
  them (in a narrow window the first ones and how many more); one is removed before sending and
  is not sent;
* ↑ on the first line walks the workspace's earlier prompts (``acp/promptHistory``), ↓ comes
  back to what the user was typing; a recalled ``/cmd`` opens no menu, and emptying the prompt
  area starts the walk again.

Keys typed with ``nvim_input`` are handled between requests, so the tests poll Neovim (short
requests) until what the user would see is there.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any

from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import WAIT_MS, PluginEditor

MENU = (
    "(function() local i = vim.fn.complete_info({'pum_visible', 'items'});"
    " return i.pum_visible == 1 and i.items or nil end)()"
)
BAR = (
    "(function() local win = vim.fn.bufwinid(require('acp_editor.chat').prompt_buf);"
    " local bar = vim.wo[win].winbar; if bar == '' then return '' end;"
    " return vim.api.nvim_eval_statusline(bar, { winid = win, use_winbar = true }).str end)()"
)
PROMPT_TEXT = "vim.api.nvim_buf_get_lines(require('acp_editor.chat').prompt_buf, 0, -1, false)"
# 1x1 transparent PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


def poll(nv: PluginEditor, expr: str, what: str, timeout_ms: int = WAIT_MS) -> Any:
    """The value of the Lua expression ``expr`` once it is truthy. Each look is one short
    request, so typed keys (``nvim_input``) and the sidecar's answers are handled in between."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = nv.lua(f"local ok, v = pcall(function() return {expr} end); return ok and v or nil")
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out: {what}\n{nv.server_log()}"
        time.sleep(0.01)  # between two looks, not instead of one


def typed(nv: PluginEditor, keys: str) -> None:
    """Keys as the user types them, handled by Neovim's input loop (mappings, autocommands)."""
    nv.nvim.input(keys)


def sent_prompts(nv: PluginEditor, count: int) -> list[list[dict[str, Any]]]:
    """The prompts the agent received, once there are ``count`` of them."""
    nv.wait_until(
        f"#vim.tbl_keys(require('acp_editor.store').turns) == 0 and {count} > 0", "the turn ends"
    )
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        prompts = [
            m["params"]["prompt"]
            for m in nv.agent_received()
            if m.get("method") == "session/prompt"
        ]
        if len(prompts) >= count or time.monotonic() > deadline:
            return prompts
        nv.settle(10)


def test_at_completes_files_and_attaches_the_chosen_one(nv: PluginEditor, workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("print('app')\n")
    (workspace / "mapping.txt").write_text("m\n")
    (workspace / "apply_ignored.py").write_text("x\n")
    (workspace / ".gitignore").write_text("apply_ignored.py\n")
    (workspace / "zz_app_open.py").write_text("saved\n")
    nv.setup()
    # An open buffer with unsaved text: it comes first, and its text goes as it is.
    nv.edit(workspace / "zz_app_open.py")
    nv.lua("vim.api.nvim_buf_set_lines(0, 0, -1, false, {'unsaved'})")
    nv.lua("vim.cmd('AcpChat')")

    # A bare @: the open buffer first, marked as when a letter is typed.
    typed(nv, "iexplain @")
    first = poll(nv, f"{MENU}[1].menu ~= '' and {MENU}[1]", "the menu of a bare @")
    assert (first["word"], first["menu"]) == ("@zz_app_open.py", "[buffer]"), first
    typed(nv, "ap")
    items = poll(nv, f"{MENU}[2].word ~= '@hello.py' and {MENU}", "the menu for 'ap'")
    words = [i["word"] for i in items]
    assert words[0] == "@zz_app_open.py" and items[0]["menu"] == "[buffer]", items
    assert words[1:3] == ["@src/app.py", "@mapping.txt"], words
    assert "@apply_ignored.py" not in words, words
    assert not nv.lua(f"return {BAR}"), "nothing attached yet"

    # The query grows: asked again, the menu narrows to what matches.
    typed(nv, "p.py")
    poll(
        nv,
        f"(function() local m = {MENU}; return m and #m == 2 and m[2].word == '@src/app.py' end)()",
        "the menu for 'app.py'",
    )
    typed(nv, "<C-n><C-n><C-y>")
    assert poll(nv, BAR, "the attachment bar") == "Attached: [src/app.py]"
    assert nv.lua(f"return {PROMPT_TEXT}") == ["explain @src/app.py"]

    # The open buffer, chosen from a new mention, is attached too.
    typed(nv, " and @zz")
    poll(nv, f"{MENU}[1].word == '@zz_app_open.py'", "the menu for 'zz'")
    typed(nv, "<BS><BS><BS>")  # the mention deleted: its menu goes with it
    poll(nv, f"{PROMPT_TEXT}[1]:sub(-5) == ' and ' and not {MENU}", "no menu")
    typed(nv, "@zz")
    poll(nv, f"{MENU}[1].word == '@zz_app_open.py'", "the menu for 'zz' again")
    typed(nv, "<C-n><C-y>")
    assert poll(nv, f"{BAR}:find('zz') and {BAR}", "a second attachment") == (
        "Attached: [src/app.py] [zz_app_open.py]"
    )
    typed(nv, "<C-s>")
    (prompt,) = sent_prompts(nv, 1)
    assert prompt[0] == {"type": "text", "text": "explain @src/app.py and @zz_app_open.py"}, prompt
    app, open_uri = (workspace / "src" / "app.py").as_uri(), (workspace / "zz_app_open.py").as_uri()
    assert prompt[1] == {"type": "resource_link", "uri": app, "name": "app.py"}, prompt
    assert prompt[2] == {"type": "resource_link", "uri": open_uri, "name": "zz_app_open.py"}, prompt
    assert prompt[3]["type"] == "resource", prompt
    assert prompt[3]["resource"]["uri"] == open_uri
    assert prompt[3]["resource"]["text"] == "unsaved\n", prompt
    assert len(prompt) == 4, prompt
    # Sent: the prompt and its attachments are gone.
    assert nv.lua(f"return {PROMPT_TEXT}") == [""]
    assert nv.lua(f"return {BAR}") == ""


def test_slash_completes_the_agents_commands(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("require('acp_editor.session.requests').new_session()")
    nv.wait_until(
        "require('acp_editor.store').current() and require('acp_editor.store').current()"
        ".availableCommands",
        "the agent's commands",
    )
    nv.lua("vim.cmd('AcpChat')")
    typed(nv, "i/")
    items = poll(nv, MENU, "the command menu")
    words = [i["word"] for i in items]
    assert "/read" in words and "/all" in words, words
    typed(nv, "sh")
    items = poll(nv, f"(function() local m = {MENU}; return m and #m == 1 and m end)()", "/sh")
    assert items[0]["word"] == "/shell", items
    assert items[0]["menu"] == "Run a shell command in a client terminal", items
    # A / elsewhere is text.
    typed(nv, "<C-e><Esc>S x /re")
    poll(nv, f"{PROMPT_TEXT}[1] == ' x /re'", "typed")
    assert not nv.lua(f"return {MENU}")


def test_attach_menu_and_removing_an_attachment(nv: PluginEditor, workspace: Path) -> None:
    (workspace / "shot.png").write_bytes(PNG)
    nv.lua("vim.o.columns = 160")
    nv.setup(chat={"width": 100})  # room for the four attachments in the bar
    hello = nv.edit(workspace / "hello.py")
    nv.lua(
        "local ns = vim.api.nvim_create_namespace('t');"
        " vim.diagnostic.set(ns, ..., {{lnum = 1, col = 4, severity = 1, message = 'bad name',"
        " source = 'lint', code = 'E1'}})",
        hello,
    )
    nv.lua(
        "local b = ...; vim.api.nvim_buf_set_mark(b, '<', 4, 0, {})"
        " vim.api.nvim_buf_set_mark(b, '>', 5, 0, {})",
        hello,
    )
    nv.lua("vim.cmd('AcpChat')")
    nv.helper(
        "answer_script",
        [
            {"select": "Current buffer: hello.py"},
            {"select": "Diagnostics of hello.py (1)"},
            {"select": "A URL…"},
            {"input": "example.com/docs"},
            {"select": "An image…"},
            {"input": "shot.png"},
            {"select": "Remove: https://example.com/docs"},
        ],
    )
    for expected in (
        "[hello.py]",
        "[diagnostics of hello.py]",
        "[https://example.com/docs]",
        "[image shot.png]",
    ):
        typed(nv, "<C-t>")
        poll(nv, f"{BAR}:find('{expected}', 1, true)", expected)
    assert nv.lua(f"return {BAR}") == (
        "Attached: [hello.py] [diagnostics of hello.py] [https://example.com/docs] [image shot.png]"
    )
    # In the chat's default width they do not fit: the first ones, and how many more.
    nv.lua("vim.api.nvim_win_set_width(vim.fn.bufwinid(require('acp_editor.chat').prompt_buf), 64)")
    assert nv.lua(f"return {BAR}") == "Attached: [hello.py] [diagnostics of hello.py] +2 more"
    typed(nv, "<C-t>")
    poll(nv, f"not {BAR}:find('example', 1, true)", "the URL removed")
    menu = nv.lua("return _G.acp_plugin_test.asked")[-1]["titles"]
    assert menu[:4] == [
        "Current buffer: hello.py",
        "Selection: hello.py:4-5",  # the last Visual selection there
        "A file…",
        "Diagnostics of hello.py (1)",
    ]
    assert "An image…" in menu and "Remove: image shot.png" in menu, menu

    typed(nv, "ilook<C-s>")
    (prompt,) = sent_prompts(nv, 1)
    uri = (workspace / "hello.py").as_uri()
    assert prompt[0] == {"type": "text", "text": "look"}
    assert prompt[1] == {"type": "resource_link", "uri": uri, "name": "hello.py"}
    assert prompt[2]["resource"] == {
        "uri": uri,
        "text": "\n".join(HELLO_LINES) + "\n",
        "mimeType": "text/x-python",
    }
    assert prompt[3] == {
        "type": "text",
        "text": "Diagnostics of hello.py (1):\nhello.py:2:5: error: bad name [lint E1]\n",
    }
    assert prompt[4]["type"] == "image" and prompt[4]["mimeType"] == "image/png", prompt
    assert base64.b64decode(prompt[4]["data"]) == PNG
    assert len(prompt) == 5, prompt
    # The chat reads it as typed, then each attachment an item of its own.
    nv.wait_until("vim.tbl_contains(H.chat().lines, 'Attached:')", "the prompt in the chat")
    lines = nv.chat()["lines"]
    at = lines.index("look")
    assert lines[at + 1 : at + 5] == [
        "Attached:",
        "- file hello.py",
        "- text “Diagnostics of hello.py (1):” (2 lines)",
        f"- image shot.png (image/png, {len(PNG)} B)",
    ], lines

    # An agent that takes no images is not offered one.
    nv.lua("require('acp_editor.store').agent.agentCapabilities.promptCapabilities.image = false")
    nv.helper("answer_script", [{"select": None}])
    typed(nv, "<Esc><C-t>")
    asked = "_G.acp_plugin_test.asked"
    menu = poll(nv, f"{asked}[1] and {asked}[1].titles", "the attach menu")
    assert "An image…" not in menu and "A URL…" in menu, menu


def test_up_and_down_walk_the_history_and_keep_the_draft(nv: PluginEditor) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    for text in ("/read", "first prompt", "second\nover two lines"):
        nv.lua("vim.api.nvim_buf_set_lines(0, 0, -1, false, vim.split(..., '\\n'))", text)
        nv.feed("<CR>")  # the prompt area's send key (Normal mode)
        nv.wait_until("vim.tbl_isempty(require('acp_editor.store').turns)", "the turn ends")

    typed(nv, "ia draft<Up>")
    assert poll(nv, f"{PROMPT_TEXT}[1] ~= 'a draft' and {PROMPT_TEXT}", "↑") == [
        "second",
        "over two lines",
    ]
    typed(nv, "<Up>")  # on the first line already: further back
    assert poll(nv, f"{PROMPT_TEXT}[1] == 'first prompt' and {PROMPT_TEXT}", "↑↑")
    typed(nv, "<Down>")  # the cursor is on the (only) last line: forward
    poll(nv, f"{PROMPT_TEXT}[1] == 'second'", "↓")
    # On the recalled prompt's first line, ↓ moves the cursor, not the history.
    typed(nv, "<Up><Down>")
    poll(nv, "vim.api.nvim_win_get_cursor(0)[1] == 2", "the cursor moved down")
    assert nv.lua(f"return {PROMPT_TEXT}") == ["second", "over two lines"]
    typed(nv, "<Down>")
    assert poll(nv, f"{PROMPT_TEXT}[1] == 'a draft' and {PROMPT_TEXT}", "the draft") == ["a draft"]
    assert nv.lua("return vim.fn.mode()") == "i"

    # A recalled slash command opens no menu: ↑ and ↓ go on through the history.
    typed(nv, "<Up><Up><Up>")
    poll(nv, f"{PROMPT_TEXT}[1] == '/read'", "↑↑↑: the slash command")
    typed(nv, "<Down>")
    poll(nv, f"{PROMPT_TEXT}[1] == 'first prompt'", "↓ from the slash command")
    assert not nv.lua(f"return {MENU}")
    # Emptied, the prompt area starts a new walk: ↑ is the newest prompt again.
    typed(nv, "<C-u><Up>")
    assert poll(nv, f"{PROMPT_TEXT}[1] ~= '' and {PROMPT_TEXT}", "↑ after emptying") == [
        "second",
        "over two lines",
    ]
    typed(nv, "<Down><Down>")
    poll(nv, f"#{PROMPT_TEXT} == 1 and {PROMPT_TEXT}[1] == ''", "↓↓: the emptied draft")


# nvim-cmp and blink.cmp cannot be installed here: stand-ins that record what the plugin asks of
# their documented API (cmp.register_source / cmp.setup.buffer; blink.cmp's add_source_provider /
# add_filetype_source and the provider's module), then drive our sources as they would.
FAKE_PLUGINS = """
_G.fake = { cmp_sources = {}, cmp_buffers = {}, blink_providers = {}, blink_filetypes = {} }
package.preload["cmp"] = function()
  return {
    register_source = function(name, source) fake.cmp_sources[name] = source end,
    get_config = function() return { sources = { { name = "buffer" } } } end,
    setup = { buffer = function(cfg) fake.cmp_buffers[vim.api.nvim_get_current_buf()] = cfg end },
    visible = function() return false end,
  }
end
package.preload["blink.cmp"] = function()
  return {
    add_source_provider = function(id, cfg) fake.blink_providers[id] = cfg end,
    add_filetype_source = function(ft, id) table.insert(fake.blink_filetypes, { ft, id }) end,
    is_menu_visible = function() return false end,
  }
end
"""


def test_nvim_cmp_and_blink_cmp_get_sources(nv: PluginEditor, workspace: Path) -> None:
    (workspace / "app.py").write_text("x\n")
    nv.setup()
    nv.lua(FAKE_PLUGINS)
    nv.lua("vim.cmd('AcpChat')")
    prompt_buf = nv.lua("return require('acp_editor.chat').prompt_buf")
    cfg = nv.lua("return fake.cmp_buffers[...]", prompt_buf)
    assert [s["name"] for s in cfg["sources"]] == ["acp_editor", "buffer"], cfg
    provider = nv.lua("return fake.blink_providers.acp_editor")
    assert provider["module"] == "acp_editor.complete.blink", provider
    assert nv.lua("return fake.blink_filetypes") == [["markdown", "acp_editor"]]

    # nvim-cmp asks as it would after "see @ap" (its params: context.cursor, cursor_line...).
    nv.lua(
        "local line = 'see @ap'; _G.got = nil"
        " fake.cmp_sources.acp_editor:complete({ context = { cursor = { row = 1, col = 8 },"
        " cursor_line = line, cursor_before_line = line } }, function(r) _G.got = r end)"
    )
    got = poll(nv, "_G.got", "nvim-cmp's answer")
    assert got["isIncomplete"] is True
    (item,) = [i for i in got["items"] if i["label"] == "app.py"]
    assert item["textEdit"] == {
        "newText": "@app.py",
        "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 7}},
    }, item
    # blink.cmp, through the provider's module, after "/sh" at the start (after a session).
    nv.lua("require('acp_editor.session.requests').new_session()")
    nv.wait_until("(require('acp_editor.store').current() or {}).availableCommands", "commands")
    nv.lua(
        "_G.got = nil; local source = require(fake.blink_providers.acp_editor.module).new()"
        " source:get_completions({ line = '/sh', cursor = { 1, 3 } }, function(r) _G.got = r end)"
    )
    got = poll(nv, "_G.got", "blink.cmp's answer")
    assert [i["label"] for i in got["items"]] == ["/shell"], got
    assert got["items"][0]["documentation"] == "Run a shell command in a client terminal"
    assert got["is_incomplete_forward"] is True
    # Enabled in the prompt buffer only.
    enabled = "require('acp_editor.complete.blink').new():enabled()"
    in_buffer = f"return vim.api.nvim_buf_call(..., function() return {enabled} end)"
    assert nv.lua(in_buffer, prompt_buf)
    assert not nv.lua(in_buffer, nv.lua("return require('acp_editor.chat').buf"))

    # Choosing the file in either menu attaches it; Neovim's own menu stays shut.
    nv.lua(
        "local item = ...; fake.cmp_sources.acp_editor:execute(item, function() end)",
        item,
    )
    assert poll(nv, BAR, "the attachment bar") == "Attached: [app.py]"
    typed(nv, "i@ap")
    poll(nv, f"{PROMPT_TEXT}[1] == '@ap'", "typed")
    assert nv.lua("return require('acp_editor.complete.builtin').seq") == 0, "nothing asked"
    assert not nv.lua(f"return {MENU}")


def test_acp_attach_from_a_file_buffer_opens_the_chat_with_that_buffer_attached(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.setup()
    nv.edit(workspace / "hello.py")
    nv.helper("answer_script", [{"select": "Current buffer: hello.py"}])
    nv.lua("vim.cmd('AcpAttach')")
    assert poll(nv, BAR, "the attachment bar") == "Attached: [hello.py]"
    menu = nv.lua("return _G.acp_plugin_test.asked")[-1]["titles"]
    assert menu[0] == "Current buffer: hello.py", menu
