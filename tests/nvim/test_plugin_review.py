"""Inline previews of the agent's edits, and deciding them, in a real Neovim 0.11.

* before-write review: the held hunks are drawn in the real buffer (old lines highlighted as
  removed, new lines as virtual lines), the accept keymap applies one hunk as one undoable change,
  the reject keymap leaves the buffer and the file unchanged there;
* a proposed edit (``acp/diff``) is previewed while its permission is pending, and the accept
  keymap answers that permission;
* after-write review: the written lines are marked as added, and rejecting reverts exactly them;
* ``:AcpReview`` lists the pending hunks in the quickfix list; ``:AcpDiff`` opens a side-by-side
  diff of the buffer and the agent's proposal;
* a command that writes 40 files in ``generated/`` is one group: announced once, listed by
  ``:AcpReviewGroups``, rejected (the files and the folder go) or accepted (they stay), its files
  listed in the quickfix list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import EDIT_LINE, HUNK_MARK
from tests.nvim.driver import HELLO_LINES
from tests.nvim.plugin_driver import WAIT_MS, PluginEditor
from tests.support.starter import SCRIPTED_AGENT

PREVIEW_NS = "acp_editor_preview"
AGENT_LINE = EDIT_LINE.rstrip("\n")
FIRST = HELLO_LINES[0] + HUNK_MARK
ACCEPT, REJECT = "\\aa", "\\ar"  # the default <leader>aa / <leader>ar (leader is \ under --clean)
GENERATED = 40  # files the demo agent's 'generate' writes (ACP_DEMO_FILES unset)
NOTICE = re.compile(
    r"acp-editor: 40 new files in generated/ wait for review as one group: :AcpReviewGroups"
)
GROUP_ACTIONS = ["Accept", "Reject", "List files"]


def hello_text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def at_row(marks: list[dict[str, Any]], row: int) -> list[dict[str, Any]]:
    return [m for m in marks if m["row"] == row]


def test_held_hunks_are_previewed_then_accepted_or_rejected_with_keymaps(
    nv: PluginEditor, workspace: Path
) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(review="before-write", auto_approve=[{"kind": "edit", "option": "allow_once"}])
    turn = nv.prompt_async("hunks")  # two hunks: a mark on line 1, a line after the last
    nv.wait_until("#H.review().pending == 2", "two held hunks")

    marks = nv.extmarks(buf, PREVIEW_NS)
    first = at_row(marks, 0)
    assert {"line_hl": "AcpEditorRemoved", "sign": "-"} in [
        {"line_hl": m.get("line_hl"), "sign": m.get("sign")} for m in first
    ], first
    assert [f"+ {FIRST}"] in [m["virt_lines"] for m in first], first  # the new line, below
    last = at_row(marks, len(HELLO_LINES) - 1)
    assert [f"+ {AGENT_LINE}"] in [m["virt_lines"] for m in last], marks  # appended after it
    assert nv.buffer(buf)["lines"] == HELLO_LINES, "nothing is written before it is accepted"
    assert hello.read_text() == hello_text(HELLO_LINES)

    before = nv.buffer(buf)
    nv.lua("vim.api.nvim_win_set_cursor(0, {1, 0})")
    nv.feed(ACCEPT)
    nv.wait_until("#H.review().pending == 1", "the first hunk is accepted")
    accepted = nv.buffer(buf)
    assert accepted["lines"] == [FIRST, *HELLO_LINES[1:]], accepted
    assert accepted["seq_last"] == before["seq_last"] + 1, "the accepted hunk is one undo step"

    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", len(HELLO_LINES), 0)
    nv.feed(REJECT)
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn", result
    rejected = nv.buffer(buf)
    assert rejected["lines"] == accepted["lines"], "rejecting leaves the buffer unchanged"
    assert rejected["seq_last"] == accepted["seq_last"], "and adds no undo step"
    assert hello.read_text() == hello_text([FIRST, *HELLO_LINES[1:]]), nv.server_log()

    undone = nv.helper("undo", buf)
    assert undone["lines"] == HELLO_LINES, "one :undo takes the accepted hunk back out"


def test_a_proposed_edit_is_previewed_and_accepting_it_answers_the_permission(
    nv: PluginEditor, workspace: Path
) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(permission_ui="chat", review="off")
    turn = nv.prompt_async("edit")
    pending = "#require('acp_editor.questions.permissions').pending"
    nv.wait_until(f"{pending} == 1", "the permission request")
    nv.wait_until(f"#H.extmarks({buf}, '{PREVIEW_NS}') > 0", "the proposal is drawn")

    marks = nv.extmarks(buf, PREVIEW_NS)
    assert any(m["virt_lines"] == [f"+ {AGENT_LINE}"] for m in marks), marks
    assert any((m["virt_text"] or "").startswith(" proposal by ") for m in marks), marks

    nv.feed(ACCEPT)  # anywhere: the only change in the buffer
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn", result
    assert nv.buffer(buf)["lines"] == [*HELLO_LINES, AGENT_LINE]
    assert hello.read_text() == hello_text([*HELLO_LINES, AGENT_LINE])
    nv.wait_until(f"#H.extmarks({buf}, '{PREVIEW_NS}') == 0", "the proposal is gone once done")
    answers = [
        m["result"]["outcome"]
        for m in nv.agent_received()
        if "result" in m and isinstance(m["result"], dict) and "outcome" in m["result"]
    ]
    assert answers == [{"outcome": "selected", "optionId": "proceed_once"}], answers


def test_written_edit_is_marked_and_rejecting_reverts_it(nv: PluginEditor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])  # after-write review
    nv.prompt("edit")
    nv.wait_until("#H.review().pending == 1", "one hunk to review")
    assert nv.buffer(buf)["lines"] == [*HELLO_LINES, AGENT_LINE]

    marks = nv.extmarks(buf, PREVIEW_NS)
    added = at_row(marks, len(HELLO_LINES))
    assert any(m.get("line_hl") == "AcpEditorAdded" and m.get("sign") == "+" for m in added), marks

    items = nv.lua("vim.cmd('AcpReview'); return vim.fn.getqflist({items = 1, title = 1})")
    assert items["title"] == "acp-editor review"
    (item,) = items["items"]
    assert item["lnum"] == len(HELLO_LINES) + 1 and item["bufnr"] == buf, item
    assert "pending review" in item["text"] and "+1 -0" in item["text"], item

    nv.lua("vim.cmd('wincmd p')")  # back from the quickfix window to hello.py
    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", len(HELLO_LINES) + 1, 0)
    nv.feed(REJECT)
    nv.wait_until("#H.review().pending == 0", "the hunk is rejected")
    # The quickfix list follows the decision (it listed a hunk that no longer waits).
    nv.wait_until("#vim.fn.getqflist() == 0", "the decided hunk leaves the quickfix list")
    assert nv.lua("return vim.fn.getqflist({title = 1}).title") == "acp-editor review"
    assert nv.buffer(buf)["lines"] == HELLO_LINES, "exactly the agent's line is reverted"
    assert hello.read_text() == hello_text(HELLO_LINES)
    nv.wait_until(f"#H.extmarks({buf}, '{PREVIEW_NS}') == 0", "no preview is left")


def test_side_by_side_diff_of_the_proposal(nv: PluginEditor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(review="before-write", auto_approve=[{"kind": "edit", "option": "allow_once"}])
    turn = nv.prompt_async("hunks")
    nv.wait_until("#H.review().pending == 2", "two held hunks")

    opened = nv.lua(
        """
        vim.cmd('AcpDiff')
        local out = {}
        for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
          local b = vim.api.nvim_win_get_buf(win)
          table.insert(out, {buf = b, diff = vim.wo[win].diff,
            lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)})
        end
        return {tabs = #vim.api.nvim_list_tabpages(), wins = out}
        """
    )
    assert opened["tabs"] == 2, opened
    left, right = opened["wins"]
    assert left["buf"] == buf and left["diff"] and right["diff"], opened
    assert right["lines"] == [FIRST, *HELLO_LINES[1:], AGENT_LINE], right

    nv.lua("vim.cmd('tabclose')")
    nv.lua("vim.cmd('AcpReview reject')")
    result = nv.wait_turn(turn)
    assert result["stopReason"] == "end_turn", result
    assert nv.buffer(buf)["lines"] == HELLO_LINES
    assert hello.read_text() == hello_text(HELLO_LINES)


def test_accepted_held_hunk_is_not_offered_again(nv: PluginEditor, workspace: Path) -> None:
    nv.edit(workspace / "hello.py")
    nv.setup(review="before-write", auto_approve=[{"kind": "edit", "option": "allow_once"}])
    turn = nv.prompt_async("edit")
    nv.wait_until("#H.review().pending == 1", "one held hunk")
    nv.lua("vim.cmd('AcpReview accept')")
    nv.wait_turn(turn)
    nv.wait_until("#H.review().pending == 0", "the accepted hunk leaves the review")
    nv.settle(300)  # a window in which the written change must NOT come back as a new hunk
    assert nv.helper("review")["pending"] == []


def test_previews_follow_the_users_own_edits(nv: PluginEditor, workspace: Path) -> None:
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.setup(auto_approve=[{"kind": "edit", "option": "allow_once"}])  # after-write review
    nv.prompt("hunks")
    nv.wait_until("#H.review().pending == 2", "two written hunks")
    written = [FIRST, *HELLO_LINES[1:], AGENT_LINE]
    assert nv.buffer(buf)["lines"] == written

    nv.feed("ggO# user line<Esc>")  # the user adds a line above both hunks
    nv.lua("vim.api.nvim_win_set_cursor(0, {...})", len(written) + 1, 0)  # the agent's last line
    nv.feed(REJECT)
    nv.wait_until("#H.review().pending == 1", "the second hunk is rejected")
    assert nv.buffer(buf)["lines"] == ["# user line", *written[:-1]], "only the agent's line goes"
    # The first hunk is still drawn on its lines, one below where the server first put it.
    added = [m for m in nv.extmarks(buf, PREVIEW_NS) if m.get("line_hl") == "AcpEditorAdded"]
    assert [m["row"] for m in added] == [1], added


def test_change_keys_shadow_no_neovim_default_and_plug_mappings_work(
    nv: PluginEditor, workspace: Path
) -> None:
    """``]a`` / ``[a`` are Neovim 0.11's (the argument list): ours are <leader>an / <leader>ap,
    and <Plug> mappings let the user bind anything."""
    buf = nv.edit(workspace / "hello.py")
    nv.setup(review="before-write", auto_approve=[{"kind": "edit", "option": "allow_once"}])
    nv.prompt_async("hunks")
    nv.wait_until("#H.review().pending == 2", "two held hunks")
    for lhs in ("]a", "[a"):
        mapping = nv.lua(
            "local m = vim.fn.maparg(..., 'n', false, true); return {m.buffer, m.desc or ''}", lhs
        )
        assert mapping[0] == 0 and "acp-editor" not in mapping[1], mapping  # Neovim's own
    nv.lua("vim.api.nvim_win_set_cursor(0, {1, 0})")
    nv.feed("\\an")  # <leader>an: to the next change (the appended line, after the last)
    assert nv.lua("return vim.api.nvim_win_get_cursor(0)[1]") == len(HELLO_LINES)
    nv.lua("vim.keymap.set('n', 'gp', '<Plug>(acp-editor-prev)')")
    nv.feed("gp")
    assert nv.lua("return vim.api.nvim_win_get_cursor(0)[1]") == 1
    assert nv.buffer(buf)["lines"] == HELLO_LINES


def test_saving_after_the_agent_wrote_the_file_asks_nothing_and_keeps_both(
    nv: PluginEditor, workspace: Path
) -> None:
    """The agent writes hello.py itself while the buffer holds unsaved text: its change is
    merged in, and ``:w`` then writes the buffer without Neovim's "changed since reading it"
    question (which blocks, and whose wrong answer loses one side)."""
    hello = workspace / "hello.py"
    buf = nv.edit(hello)
    nv.lua("vim.api.nvim_buf_set_lines(0, 2, 2, false, {'# typed by the user'})")
    nv.setup(
        agents={"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}},
        auto_approve=[{"kind": "edit", "option": "allow_once"}],
    )
    nv.prompt("hunks")
    nv.wait_until(f"H.buffer({buf}).lines[1] == {FIRST!r}", "the agent's change is merged in")
    assert "# typed by the user" in nv.buffer(buf)["lines"]
    assert "# typed by the user" not in hello.read_text()  # the disk: the agent's version
    nv.lua("vim.cmd('checktime')")  # a focus change or :checktime asks nothing either
    nv.lua("vim.cmd('write')")
    assert hello.read_text() == hello_text(nv.buffer(buf)["lines"])
    assert not nv.buffer(buf)["modified"]
    assert "W12" not in "\n".join(nv.helper("errors"))


def generated_group(nv: PluginEditor, workspace: Path) -> dict[str, Any]:
    """'generate': the agent runs one command that writes 40 files in generated/; they wait as
    one group (no hunk per file), and the user is told so once."""
    nv.setup(agents={"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}})
    assert nv.prompt("generate")["stopReason"] == "end_turn", nv.server_log()
    assert len(list((workspace / "generated").iterdir())) == GENERATED
    nv.wait_until(
        f"#H.review().groups == 1 and H.review().groups[1].created == {GENERATED}",
        "one pending group of 40 created files",
    )
    # The first files may have been found one by one before the burst was seen as one: their
    # hunks are withdrawn (superseded) when they join the group.
    nv.wait_until("#H.review().pending == 0", "the group's files have no pending hunk")
    nv.wait_until(
        "#require('acp_editor.review').quickfix_items() == 0",
        "nothing of theirs left to list (a preview of one found alone goes with its tool call)",
    )
    review = nv.helper("review")
    (group,) = review["groups"]
    assert group["title"] == f"{GENERATED} new files in generated/", group
    # Told once the burst has settled, with its whole count, however many looks added to it.
    wait_note(nv, f"acp-editor: {group['title']} wait for review as one group: :AcpReviewGroups")
    notices = [note for note in nv.notes() if NOTICE.fullmatch(note)]
    assert len(notices) == 1, nv.notes()
    return group


def choose_group_action(nv: PluginEditor, group: dict[str, Any], action: str) -> None:
    """:AcpReviewGroups, the user picking the group, then ``action``."""
    nv.helper("answer_script", [{"select": group["title"]}, {"select": action}])
    nv.lua("vim.cmd('AcpReviewGroups')")


def wait_note(nv: PluginEditor, text: str) -> None:
    """Until the plugin told the user ``text`` (a decision is reported once it is carried out)."""
    nv.wait_until(
        f"vim.iter(H.notes):any(function(n) return n.msg == {json.dumps(text)} end)", text
    )


def test_a_bulk_change_is_one_group_and_rejecting_it_removes_its_files(
    nv: PluginEditor, workspace: Path
) -> None:
    group = generated_group(nv, workspace)
    choose_group_action(nv, group, "Reject")
    wait_note(nv, f"acp-editor: {group['title']} rejected")
    asked = nv.lua("return _G.acp_plugin_test.asked")
    assert [a["titles"] for a in asked] == [[group["title"]], GROUP_ACTIONS], asked
    assert not (workspace / "generated").exists(), "every file and the folder that held them"
    assert (workspace / "hello.py").read_text() == hello_text(HELLO_LINES), "nothing else"
    assert nv.helper("review")["groups"] == []


def test_a_groups_files_are_listed_and_accepting_it_keeps_them(
    nv: PluginEditor, workspace: Path
) -> None:
    group = generated_group(nv, workspace)
    choose_group_action(nv, group, "List files")
    nv.wait_until(f"#vim.fn.getqflist() == {GENERATED}", "the files in the quickfix list")
    listed = nv.helper("quickfix")
    assert listed["title"] == group["title"], listed["title"]
    files = {str(workspace / "generated" / f"file{i}.js") for i in range(1, GENERATED + 1)}
    assert {item["file"] for item in listed["items"]} == files
    assert {item["text"] for item in listed["items"]} == {"created"}

    choose_group_action(nv, group, "Accept")
    wait_note(nv, f"acp-editor: {group['title']} accepted")
    assert nv.helper("review")["groups"] == []
    assert len(list((workspace / "generated").iterdir())) == GENERATED


def test_review_reject_all_takes_the_group_too(nv: PluginEditor, workspace: Path) -> None:
    """``:AcpReview`` says a group waits (it has no lines for the quickfix list), and
    ``:AcpReview reject`` (``all``) rejects it with the hunks."""
    generated_group(nv, workspace)
    nv.lua("vim.cmd('AcpReview')")
    waits = "1 group of files waits for review as a whole: :AcpReviewGroups"
    assert f"acp-editor: no hunks to review; {waits}" in nv.notes(), nv.notes()
    nv.lua("vim.cmd('AcpReview reject')")
    nv.wait_until("#H.review().groups == 0", "the group is rejected")
    assert not (workspace / "generated").exists()


def test_a_group_left_pending_is_told_again_after_a_restart_and_can_be_rejected(
    nv: PluginEditor, workspace: Path
) -> None:
    """Pending groups outlive the sidecar; a new run gives them new ids (counting from g1
    again), so the plugin tells the user again and the reject still knows the files."""
    generated_group(nv, workspace)
    assert nv.helper("stop", WAIT_MS)
    nv.setup(agents={"demo": {"cmd": [*SCRIPTED_AGENT, "--writes-itself"]}})
    nv.wait_until("#H.review().groups == 1", "the pending group is back")
    (group,) = nv.helper("review")["groups"]
    told = "function(n) return n.msg:find('wait for review as one group', 1, true) end"
    nv.wait_until(f"#vim.tbl_filter({told}, H.notes) == 2", "told again after the restart")
    assert len([note for note in nv.notes() if NOTICE.fullmatch(note)]) == 2, nv.notes()
    choose_group_action(nv, group, "Reject")
    wait_note(nv, f"acp-editor: {group['title']} rejected")
    assert not (workspace / "generated").exists()
