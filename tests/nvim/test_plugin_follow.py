"""Following the agent with the plugin (``acp/follow``) in a real Neovim 0.11.

* the cursor moves in the window showing the file while the chat's prompt area keeps focus, and
  the agent's cursor is marked with a sign and a tag;
* a file that is not shown yet opens in another window, still without taking focus;
* ``:AcpFollow off`` turns it off (the server stops sending), ``:AcpFollow`` toggles it on;
* following every session (``follow = { all_sessions = true }``): a session in the background
  moves the agent's cursor too, its mark naming its agent and session; in front again it reads
  as before; ``:AcpFollow front`` goes back to the session in front only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import PluginEditor

FOLLOW_NS = "acp_editor_follow"
STORE = "require('acp_editor.store')"
TRAILING_JUMP_MS = 400
"""The server sends at most a few jumps a second: one may come just after a turn ends."""


def by_name(nv: PluginEditor, path: Path) -> list[dict[str, Any]]:
    return [w for w in nv.windows() if w["name"] and Path(w["name"]).resolve() == path]


def current(nv: PluginEditor) -> dict[str, Any]:
    (win,) = [w for w in nv.windows() if w["current"]]
    return win


def wait_for_cursor(nv: PluginEditor, path: Path, line: int) -> None:
    """Until a window shows ``path`` with its cursor on ``line`` (a jump may come after the turn
    ends)."""
    shows = (
        f"w.name ~= '' and vim.uv.fs_realpath(w.name) == {json.dumps(str(path))}"
        f" and w.cursor[1] == {line}"
    )
    nv.wait_until(
        f"vim.iter(H.windows()):any(function(w) return {shows} end)",
        f"the cursor on line {line} of {path.name}",
        timeout_ms=15_000,
    )


def test_follow_moves_the_cursor_while_the_chat_keeps_focus(
    nv: PluginEditor, workspace: Path
) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", len(HELLO_LINES), 0)  # the user is at the end
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    prompt_win = current(nv)
    assert prompt_win["name"] == "acp-editor://prompt"

    result = nv.prompt("read")  # the agent reads hello.py from line 1
    assert result["stopReason"] == "end_turn", result
    wait_for_cursor(nv, hello, 1)
    nv.wait_until(f"#H.extmarks({buf}, '{FOLLOW_NS}') == 1", "the agent's cursor is marked")

    (shown,) = by_name(nv, hello)
    assert shown["cursor"] == [1, 0], "the cursor follows the agent to line 1"
    assert current(nv)["win"] == prompt_win["win"], "the prompt area keeps focus"
    assert len(nv.windows()) == 3, f"no extra window for a file already shown: {nv.windows()}"
    (mark,) = nv.extmarks(buf, FOLLOW_NS)
    assert mark["row"] == 0 and mark["sign"] == "A>", mark
    assert mark["virt_text"] == " agent: location" or mark["virt_text"].startswith(" agent:"), mark
    # :AcpStop: no agent is there any more, so its cursor goes too.
    nv.lua("vim.cmd('AcpStop')")
    nv.wait_until(f"#H.extmarks({buf}, '{FOLLOW_NS}') == 0", "the agent's cursor is removed")


def test_a_file_not_shown_opens_in_another_window_without_focus(
    nv: PluginEditor, workspace: Path
) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    nv.lua("vim.cmd('only')")  # the chat transcript alone: no window to reuse
    nv.lua("vim.cmd('AcpChat')")
    before = nv.windows()
    assert {w["name"] for w in before} == {"acp-editor://chat", "acp-editor://prompt"}, before
    prompt_win = current(nv)

    nv.prompt("read")
    wait_for_cursor(nv, workspace / "hello.py", 1)

    (shown,) = by_name(nv, workspace / "hello.py")
    assert shown["cursor"] == [1, 0], shown
    assert current(nv)["win"] == prompt_win["win"], nv.windows()
    assert nv.lua("return vim.bo[...].buflisted", shown["buf"]), (
        "a followed file is a normal buffer"
    )
    # The sidecar sees the buffer, so it reads unsaved text and edits it through the editor.
    assert nv.lua(
        "return vim.lsp.get_clients({bufnr = ..., name = 'acp-editor'})[1] ~= nil", shown["buf"]
    )


def test_follow_can_be_turned_off_and_on(nv: PluginEditor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    nv.edit(hello)
    nv.setup()
    nv.lua("vim.cmd('AcpFollow off')")
    nv.wait_until("require('acp_editor.store').follow == false", "follow off")
    nv.lua("vim.cmd('AcpChat')")
    nv.lua("vim.api.nvim_win_set_cursor(vim.fn.bufwinid(vim.fn.bufnr(...)), {5, 0})", str(hello))

    nv.prompt("read")
    nv.settle(TRAILING_JUMP_MS)  # a window in which no jump may come (one would come in it)
    (shown,) = by_name(nv, hello)
    assert shown["cursor"] == [5, 0], "follow off: the cursor stays where the user left it"

    nv.lua("vim.cmd('AcpFollow')")  # toggle: back on
    nv.wait_until("require('acp_editor.store').follow == true", "follow on")
    nv.prompt("read")
    wait_for_cursor(nv, hello, 1)
    (shown,) = by_name(nv, hello)
    assert shown["cursor"] == [1, 0], shown
    assert "acp-editor: follow off" in nv.notes() and "acp-editor: follow on" in nv.notes()


def test_following_never_takes_the_users_only_editing_window(
    nv: PluginEditor, workspace: Path
) -> None:
    notes = workspace / "notes.txt"
    notes.write_text("the user's notes\n")
    nv.edit(notes)  # the one window the user edits in
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")  # the user types in the prompt area
    nv.prompt("read")  # the agent reads hello.py
    nv.wait_until(
        f"vim.fn.bufwinid(vim.fn.bufnr({str(workspace / 'hello.py')!r})) ~= -1",
        "hello.py is shown",
    )
    assert by_name(nv, notes), f"the user's file is still shown: {nv.windows()}"
    assert current(nv)["name"] == "acp-editor://prompt"


def test_after_a_write_the_agents_cursor_is_on_the_changed_line(
    nv: PluginEditor, workspace: Path
) -> None:
    buf = nv.edit(workspace / "hello.py")
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])
    nv.prompt("edit")  # the agent appends a line through fs/write_text_file
    nv.wait_until(
        f"(H.extmarks({buf}, '{FOLLOW_NS}')[1] or {{}}).row == {len(HELLO_LINES)}",
        "the agent's cursor on the appended line",
    )


def test_the_file_the_user_is_in_gets_the_agents_mark_not_a_second_window(
    nv: PluginEditor, workspace: Path
) -> None:
    buf = nv.edit(workspace / "hello.py")  # the user's only window, on the file the agent reads
    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", len(HELLO_LINES), 0)
    nv.setup()
    nv.prompt("read")
    nv.wait_until(f"#H.extmarks({buf}, '{FOLLOW_NS}') == 1", "the agent's mark in the file")
    assert len(nv.windows()) == 1, nv.windows()
    assert current(nv)["cursor"] == [len(HELLO_LINES), 0]  # the user's cursor did not move


def test_following_every_session_labels_a_background_sessions_mark(
    nv: PluginEditor, workspace: Path
) -> None:
    buf = nv.edit(workspace / "hello.py")
    nv.setup(follow={"all_sessions": True})
    first = nv.prompt("hello")["sessionId"]  # the session's title: "hello"
    nv.lua("vim.cmd('AcpNewSession')")
    nv.wait_until(f"{STORE}.current_session ~= {first!r}", "the second session in front")

    turn = nv.prompt_async("read", first)  # the one in the background reads hello.py
    nv.wait_until(
        f"vim.iter(H.extmarks({buf}, '{FOLLOW_NS}')):any(function(m)"
        " return (m.virt_text or ''):find(' demo · hello: ', 1, true) == 1 end)",
        f"the background session's mark: {nv.extmarks(buf, FOLLOW_NS)}",
    )
    nv.wait_turn(turn)
    (mark,) = nv.extmarks(buf, FOLLOW_NS)
    assert mark["sign"] == "d>", mark

    nv.lua("vim.cmd('AcpSwitch ' .. ...)", first)  # in front now: its mark reads as it always did
    (mark,) = nv.extmarks(buf, FOLLOW_NS)
    assert mark["sign"] == "A>" and mark["virt_text"].startswith(" agent: "), mark

    nv.lua("vim.cmd('AcpFollow front')")
    nv.wait_until(f"{STORE}.follow_all == false and {STORE}.follow", "the sidecar's answer")
    assert "acp-editor: follow on (the session in front)" in nv.notes()
