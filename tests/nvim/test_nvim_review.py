"""Reviewing agent edits in a real Neovim 0.11 with no plugin: diagnostics and code actions.

With the default ``--review after-write``, the agent's edit lands and each of its hunks becomes a
diagnostic on the file (``source = "acp"``, ``code`` = the hunk id). Neovim's own
``vim.lsp.buf.code_action`` offers "Accept hunk" / "Reject hunk" for the hunk under the cursor and
"Accept all in file" / "Reject all in file" anywhere, and runs the chosen action's command through
``workspace/executeCommand``. With nothing but ``vim.lsp.start``:

* the two hunks of the demo agent's ``hunks`` edit show up as two diagnostics on the right lines;
* "Reject hunk" on the second hunk reverts exactly that hunk in the open buffer, as one undo step
  (the agent's other change and the user's unsaved line stay), one diagnostic is left, and the
  server writes the buffer's new text to disk;
* "Accept all in file" keeps the text as it is and clears the diagnostics;
* the diagnostics also appear when Neovim reports the agent's edit (``didChange``) only after it
  answered the ``workspace/applyEdit`` that carried it, which its default debounce does when the
  edit comes soon after the buffer's previous change.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE, HUNK_MARK
from tests.nvim.driver import HELLO_LINES, Editor

AGENT_LINE = EDIT_LINE.rstrip("\n")
USER_LINE = "# unsaved user line"
INFORMATION = 3  # vim.diagnostic.severity.INFO
HUNK_TITLES = ["Accept hunk", "Reject hunk"]
FILE_TITLES = ["Accept all in file", "Reject all in file"]
DIAGNOSTICS_TIMEOUT_MS = 5_000
DISK_TIMEOUT_S = 5.0
HUMAN_ANSWER_MS = 400
"""How long the stand-in user takes to answer the permission question, as a person would: longer
than Neovim's 150 ms didChange debounce, so the agent's edit is reported as soon as it lands."""
QUICK_ANSWER_MS = 0

# hello.py as the user has it (not saved): a comment typed on the blank line after `import sys`.
USER_LINES = [HELLO_LINES[0], HELLO_LINES[1], USER_LINE, *HELLO_LINES[2:]]
# What the agent's `hunks` edit makes of it: two hunks with unchanged lines between them.
AGENT_LINES = [USER_LINES[0] + HUNK_MARK, *USER_LINES[1:], AGENT_LINE]
# What the disk gets: the agent's change applied to the saved text (the user's line is unsaved).
DISK_LINES = [HELLO_LINES[0] + HUNK_MARK, *HELLO_LINES[1:], AGENT_LINE]


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def wait_for_disk(path: Path, expected: str) -> str:
    """The file's text once it is ``expected`` (the server writes it just after applyEdit)."""
    deadline = time.monotonic() + DISK_TIMEOUT_S
    found = path.read_text()
    while found != expected and time.monotonic() < deadline:
        time.sleep(0.02)  # a poll's interval: a file's content has no event to wait on
        found = path.read_text()
    return found


def agent_edits_unsaved_buffer(
    editor: Editor, workspace: Path, answer_ms: int = HUMAN_ANSWER_MS
) -> tuple[int, list[dict[str, Any]]]:
    """Open hello.py, type a line between the future hunks without saving, prompt ``hunks``
    (allowed through vim.ui.select after ``answer_ms``); the buffer and its two diagnostics."""
    hello = workspace / "hello.py"
    buf = editor.edit(hello)
    editor.start_server()  # attaches the current buffer, as vim.lsp.start does
    editor.type_keys(f"2Go{USER_LINE}<Esc>")
    before = editor.buffer(buf)
    assert before["lines"] == USER_LINES, before
    assert before["modified"], before

    editor.helper("answer_with", "Allow", answer_ms)
    result = editor.prompt("hunks")
    assert result["stopReason"] == "end_turn", result
    (select,) = editor.selects()
    assert select["chose"] == "Allow", select

    # The edit landed in the buffer (on the unsaved text) and the server wrote the change to
    # disk, applied to the disk's text: the user's line stays unsaved, in the buffer only.
    assert editor.buffer(buf)["lines"] == AGENT_LINES, editor.server_log()
    assert wait_for_disk(hello, text(DISK_LINES)) == text(DISK_LINES), editor.server_log()

    diagnostics = editor.wait_review_diagnostics(buf, 2, DIAGNOSTICS_TIMEOUT_MS)
    assert [d["lnum"] for d in diagnostics] == [0, len(AGENT_LINES) - 1], diagnostics
    for d in diagnostics:
        assert d["severity"] == INFORMATION, d
        assert d["source"] == "acp", d
        assert isinstance(d["code"], str) and d["code"], d
        assert d["data"] == {"hunkId": d["code"]}, d
    assert diagnostics[0]["code"] != diagnostics[1]["code"], diagnostics
    return buf, diagnostics


def titles(ran: dict[str, Any]) -> list[str]:
    return [action["title"] for action in ran["offered"]]


def test_reject_hunk_code_action_reverts_exactly_that_hunk(editor: Editor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    buf, (first, second) = agent_edits_unsaved_buffer(editor, workspace)
    applies_before = len(editor.seen("workspace/applyEdit"))
    undo_before = editor.buffer(buf)["seq_last"]

    # The cursor on the appended line (the second hunk): Neovim asks for the code actions there,
    # sending the diagnostic under the cursor, and runs the only one titled "Reject hunk".
    ran = editor.code_action(buf, len(AGENT_LINES), "Reject hunk")
    assert titles(ran) == HUNK_TITLES + FILE_TITLES, ran["offered"]
    (reject,) = [a for a in ran["offered"] if a["title"] == "Reject hunk"]
    assert reject["kind"] == "quickfix", reject
    assert reject["command"]["command"] == "acp.rejectHunk", reject
    assert reject["command"]["arguments"] == [second["code"]], reject
    command = ran["command"]
    assert command["command"] == "acp.rejectHunk", command
    assert command.get("error") is None, f"{command}\n{editor.server_log()}"
    rejected = {"results": [{"hunkId": second["code"], "state": "rejected"}]}
    assert command["result"] == rejected, command
    assert len(editor.selects()) == 1, "apply = true ran the action without showing a picker"

    # The revert came to the open buffer as one workspace/applyEdit, which Neovim applied.
    applies = editor.seen("workspace/applyEdit")[applies_before:]
    assert len(applies) == 1, applies
    assert applies[0]["answered"] and applies[0]["result"] == {"applied": True}, applies

    # Exactly the appended line is gone; the agent's first-line change and the user's unsaved
    # line are kept, and one :undo would bring the rejected line back.
    expected = [HELLO_LINES[0] + HUNK_MARK, HELLO_LINES[1], USER_LINE, *HELLO_LINES[2:]]
    after = editor.buffer(buf)
    assert after["lines"] == expected, f"{after}\n{editor.server_log()}"
    assert after["seq_last"] == undo_before + 1, after

    # One diagnostic is left, on the first hunk, and on disk exactly that hunk was reverted.
    (left,) = editor.wait_review_diagnostics(buf, 1, DIAGNOSTICS_TIMEOUT_MS)
    assert left["lnum"] == 0 and left["code"] == first["code"], left
    on_disk = text(DISK_LINES[:-1])
    assert wait_for_disk(hello, on_disk) == on_disk, editor.server_log()


def test_accept_all_in_file_keeps_the_text_and_clears_the_diagnostics(
    editor: Editor, workspace: Path
) -> None:
    hello = workspace / "hello.py"
    buf, (first, second) = agent_edits_unsaved_buffer(editor, workspace)
    applies_before = len(editor.seen("workspace/applyEdit"))

    # On a line with no hunk, only the file-wide actions are offered.
    ran = editor.code_action(
        buf, AGENT_LINES.index("def main() -> None:") + 1, "Accept all in file"
    )
    assert titles(ran) == FILE_TITLES, ran["offered"]
    accept = ran["offered"][0]
    assert accept["command"]["command"] == "acp.acceptFile", accept
    (uri,) = accept["command"]["arguments"]
    assert Path(uri.removeprefix("file://")) == hello, accept
    command = ran["command"]
    assert command.get("error") is None, f"{command}\n{editor.server_log()}"
    results = sorted(command["result"]["results"], key=lambda r: r["hunkId"])
    hunk_ids = sorted([first["code"], second["code"]])
    assert results == [{"hunkId": h, "state": "accepted"} for h in hunk_ids], command

    assert editor.wait_review_diagnostics(buf, 0, DIAGNOSTICS_TIMEOUT_MS) == []
    assert editor.seen("workspace/applyEdit")[applies_before:] == [], "accepting edits nothing"
    assert editor.buffer(buf)["lines"] == AGENT_LINES
    assert hello.read_text() == text(DISK_LINES)


def test_diagnostics_appear_when_neovim_reports_the_edit_late(
    editor: Editor, workspace: Path
) -> None:
    """The permission is answered at once, so the agent's edit reaches the buffer less than 150 ms
    after the buffer's last ``textDocument/didChange`` (the one flushed before ``acp.prompt``).
    Neovim's default ``debounce_text_changes`` (150 ms) then answers the ``workspace/applyEdit``
    first and sends the didChange with the agent's text only afterwards. The server must still
    show the hunks once it has that text."""
    agent_edits_unsaved_buffer(editor, workspace, QUICK_ANSWER_MS)
