"""The zero-plugin surface in a real Neovim 0.11: nothing but ``vim.lsp.start`` and ``acp.prompt``.

What a Neovim user with no plugin gets from acp-editor and the scripted demo agent:

* the cursor follows the agent (``window/showDocument``) without stealing focus;
* a permission request is answered through ``vim.ui.select`` (Neovim's default
  ``window/showMessageRequest`` handler), and the answer decides whether the file changes;
* the agent's edit of a buffer with unsaved changes lands in that buffer as one undoable change,
  built on the unsaved text, and the same text is written to disk.

Two tests pin interop problems with Neovim 0.11 that the server avoids: a stray blank line after
an insertion at the end of a buffer, and an error shown to the user when an edit's location lies
past the end of the file it has not yet been written to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE
from tests.nvim.driver import HELLO_LINES, Editor

AGENT_LINE = EDIT_LINE.rstrip("\n")
USER_LINE = "# unsaved user line"
OPTION_TITLES = ["Reject", "Always reject", "Allow", "Always allow"]
OPTION_KINDS = ["reject_once", "reject_always", "allow_once", "allow_always"]  # a reject first
TRAILING_JUMP_MS = 600
"""Follow-along sends at most four jumps a second, so one may still come just after a turn."""


def hello_text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def window_showing(windows: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    showing = [w for w in windows if w["name"] and Path(w["name"]).resolve() == path]
    assert len(showing) == 1, f"expected one window showing {path}: {windows}"
    return showing[0]


def current_window(windows: list[dict[str, Any]]) -> dict[str, Any]:
    (current,) = [w for w in windows if w["current"]]
    return current


def followed_to(path: Path, line: int) -> str:
    """Lua: a window shows ``path`` with its cursor on ``line``, and every window/showDocument
    got its answer (the last jump may come just after the turn ends)."""
    shows = (
        f"w.name ~= '' and vim.uv.fs_realpath(w.name) == {json.dumps(str(path))}"
        f" and w.cursor[1] == {line}"
    )
    return (
        f"vim.iter(H.windows()):any(function(w) return {shows} end)"
        " and vim.iter(H.seen['window/showDocument']):all(function(r) return r.answered end)"
    )


def test_cursor_follows_the_agent_without_taking_focus(editor: Editor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    editor.start_server()
    (user_window,) = editor.windows()  # the user's own (empty) window has focus

    result = editor.prompt("read")
    assert result["stopReason"] == "end_turn", result
    editor.wait_until(followed_to(hello, 1), "the cursor on line 1 of hello.py")

    shown = editor.seen("window/showDocument")
    assert shown, f"the server never sent window/showDocument\n{editor.server_log()}"
    for request in shown:
        assert request["params"]["takeFocus"] is False, request
        assert request["answered"] and request["result"] == {"success": True}, request
    at_location = [r["params"] for r in shown if "selection" in r["params"]]
    assert at_location, shown
    assert Path(at_location[0]["uri"].removeprefix("file://")) == hello, at_location
    assert at_location[0]["selection"]["start"]["line"] == 0, at_location  # ACP line 1

    windows = editor.windows()
    assert len(windows) == 2, f"hello.py should open in a new window: {windows}"
    followed = window_showing(windows, hello)
    assert followed["cursor"] == [1, 0], followed
    # takeFocus false: Neovim opens a split for hello.py but keeps the user where they were.
    assert current_window(windows)["win"] == user_window["win"], windows
    assert current_window(windows)["buf"] == user_window["buf"], windows

    # The user scrolls hello.py to its end; the next read brings the cursor back to line 1, in
    # the same window, still without taking focus.
    editor.lua("vim.api.nvim_win_set_cursor(...)", followed["win"], [len(HELLO_LINES), 0])
    before = len(shown)
    result = editor.prompt("read")
    assert result["stopReason"] == "end_turn", result
    editor.wait_until(
        f"#H.seen['window/showDocument'] > {before} and {followed_to(hello, 1)}",
        "a new jump bringing the cursor back to line 1 of hello.py",
    )

    windows = editor.windows()
    assert len(windows) == 2, f"the window showing hello.py should be reused: {windows}"
    again = window_showing(windows, hello)
    assert again["win"] == followed["win"], windows
    assert again["cursor"] == [1, 0], again
    assert current_window(windows)["win"] == user_window["win"], windows


@pytest.mark.parametrize(
    ("choice", "allowed"),
    [("Allow", True), ("Reject", False), ("Always reject", False), (None, False)],
    ids=["allow_once", "reject_once", "reject_always", "dismissed"],
)
def test_permission_is_answered_through_vim_ui_select(
    editor: Editor, workspace: Path, choice: str | None, allowed: bool
) -> None:
    hello = workspace / "hello.py"
    original = hello.read_text()
    editor.helper("answer_with", choice)
    editor.start_server()

    result = editor.prompt("edit")
    assert result["stopReason"] == "end_turn", result

    (select,) = editor.selects()
    assert select["titles"] == OPTION_TITLES, select
    assert select["kind"] == "lsp_message", select
    assert "Edit hello.py" in select["prompt"], select
    assert select["chose"] == choice, select
    (request,) = editor.seen("window/showMessageRequest")
    # Neovim declares messageActionItem.additionalPropertiesSupport: each action names its option.
    assert [a.get("kind") for a in request["params"]["actions"]] == OPTION_KINDS, request
    assert request["answered"], request

    if allowed:
        assert hello.read_text() == original + EDIT_LINE, editor.server_log()
    else:
        assert hello.read_text() == original, "a refused edit must leave the file untouched"


def edit_unsaved_buffer(editor: Editor, workspace: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open hello.py, type a line without saving, let the agent edit it; buffer before/after."""
    hello = workspace / "hello.py"
    buf = editor.edit(hello)
    editor.start_server()  # attaches the current buffer, as vim.lsp.start does
    editor.type_keys(f"ggO{USER_LINE}<Esc>")
    before = editor.buffer(buf)
    assert before["lines"] == [USER_LINE, *HELLO_LINES], before
    assert before["modified"], before

    editor.helper("answer_with", "Allow")
    result = editor.prompt("edit")
    assert result["stopReason"] == "end_turn", result
    after = editor.buffer(buf)
    after["buf"] = buf
    return before, after


def test_edit_lands_in_unsaved_buffer_as_one_undoable_change(
    editor: Editor, workspace: Path
) -> None:
    hello = workspace / "hello.py"
    before, after = edit_unsaved_buffer(editor, workspace)

    (apply,) = editor.seen("workspace/applyEdit")
    assert apply["answered"] and apply["result"] == {"applied": True}, apply
    edit = apply["params"]["edit"]
    changes = edit.get("changes") or {
        change["textDocument"]["uri"]: change["edits"] for change in edit["documentChanges"]
    }
    ((uri, edits),) = changes.items()
    assert Path(uri.removeprefix("file://")) == hello, apply
    assert len(edits) == 1 and edits[0]["newText"].strip("\n") == AGENT_LINE, edits  # minimal

    # The user's unsaved line is kept, and the agent's line comes after the existing text.
    assert after["lines"][: len(before["lines"])] == before["lines"], after
    assert AGENT_LINE in after["lines"][len(before["lines"]) :], after
    assert after["modified"], "the buffer still holds unsaved text"
    assert after["seq_last"] == before["seq_last"] + 1, "the agent's edit is one undo step"

    # The agent read the unsaved buffer (not the disk); the server wrote its change to disk,
    # applied to the saved text: the user's unsaved line is not saved behind their back.
    assert hello.read_text() == hello_text([*HELLO_LINES, AGENT_LINE]), editor.server_log()

    undone = editor.helper("undo", after["buf"])
    assert undone["lines"] == before["lines"], "one :undo removes exactly the agent's change"
    assert undone["modified"], undone


def test_edit_at_end_of_buffer_adds_no_blank_line(editor: Editor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    before, after = edit_unsaved_buffer(editor, workspace)
    assert after["lines"] == [*before["lines"], AGENT_LINE], after
    assert hello.read_text() == hello_text([*HELLO_LINES, AGENT_LINE]), "no blank line on disk"


def test_following_a_pending_edit_shows_the_user_no_error(editor: Editor, workspace: Path) -> None:
    editor.helper("answer_with", "Allow", 800)  # a person takes a moment to read the question
    editor.start_server()
    result = editor.prompt("edit")
    assert result["stopReason"] == "end_turn", result
    editor.helper("settle", TRAILING_JUMP_MS)  # a window for a trailing jump: no error may come

    for request in editor.seen("window/showDocument"):
        assert request["answered"] and request["result"] == {"success": True}, request
    errors = editor.helper("errors")
    assert errors["errmsg"] == "", errors
