"""What ACP schema 1.25 added to a transcript, in the plugin's chat, in a real Neovim 0.11
against the real sidecar and the demo agent (which sends each only to a client that opted in,
as the sidecar does):

* a ``notice`` at its severity: its title and description in the chat with the notice's
  highlight group, and a ``vim.notify`` at that level;
* a compaction: its marker (completed) with the summary folded under it;
* plans by id: two plans side by side, a Markdown one among them, then the removed one gone;
* a tool call with an empty title shows its tool's ``name``;
* a v1 turn's end shows the tokens it used (``runState.usage``); a turn that failed shows
  its error (drawn from a snapshot: the demo's turns do not fail).
"""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.demo_agent.scenarios.opt_in_scenarios import NOTICE, SUMMARY
from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import STREAMING_AGENT

CHAT_NS = "acp_editor_chat"
WARN = 3  # vim.log.levels.WARN


def chat_turn(nv: PluginEditor, prompt: str) -> list[str]:
    """Open the chat, run the turn; the transcript once its end is drawn."""
    nv.lua("vim.cmd('AcpChat')")
    assert nv.prompt(prompt)["stopReason"] == "end_turn"
    last = "H.chat().lines[#H.chat().lines]"
    nv.wait_until(f"{last}:find('^%(turn ended')", "the turn's end is drawn")
    lines: list[str] = nv.chat()["lines"]
    return lines


def highlight(nv: PluginEditor, row: int) -> str | None:
    """The line highlight the chat gave its line ``row`` (0-based)."""
    buf = nv.lua("return require('acp_editor.chat').buf")
    groups = [m["line_hl"] for m in nv.extmarks(buf, CHAT_NS) if m["row"] == row]
    return groups[0] if groups else None


def test_a_notice_is_shown_at_its_severity(nv: PluginEditor) -> None:
    nv.setup()
    lines = chat_turn(nv, "notice")
    severity, title, description = NOTICE
    assert severity == "warning"
    at = lines.index(f"⚠ Warning: {title}")
    assert lines[at + 1] == f"  {description}", lines
    assert highlight(nv, at) == "AcpEditorNotice_warning"
    assert highlight(nv, at + 1) == "AcpEditorNoticeText"
    linked = nv.lua("return vim.api.nvim_get_hl(0, { name = 'AcpEditorNotice_warning' }).link")
    assert linked == "DiagnosticWarn"
    # Said at its level too, as it came.
    notes = nv.lua("return _G.acp_plugin_test.notes")
    said = [n for n in notes if n["msg"] == f"acp-editor: {title}: {description}"]
    assert [n["level"] for n in said] == [WARN], notes


def test_a_compaction_is_a_marker_with_its_summary(nv: PluginEditor) -> None:
    nv.setup()
    lines = chat_turn(nv, "compact")
    at = lines.index("✓ Conversation compacted · summary below")
    assert lines[at + 1] == "  " + "".join(SUMMARY), lines
    assert highlight(nv, at) == "AcpEditorCompaction"
    folds = nv.chat()["folds"]
    assert folds[at]["level"] == 1 and folds[at + 1]["closed"] == at + 1, folds[at : at + 2]
    # The context it made room in, in the header.
    assert lines[0].endswith("· 23k/200k tokens (12%)"), lines[0]


def test_plans_by_id_and_a_removed_one_goes(nv: PluginEditor) -> None:
    # At the demo's pace: each step of the plans shows a moment before the next.
    nv.setup(agents={"demo": {"cmd": STREAMING_AGENT}})
    nv.lua("vim.cmd('AcpChat')")
    turn = nv.prompt_async("plans")
    nv.wait_until("vim.tbl_contains(H.chat().lines, '## Plan (p2)')", "two plans", 8000)
    both = nv.chat()["lines"]
    first, second = both.index("## Plan (p1)"), both.index("## Plan (p2)")
    assert both[first + 1].endswith(" Read hello.py"), both
    # The Markdown plan, as the agent wrote it.
    assert both[second + 1 : second + 5] == [
        "  ## Follow-up",
        "  ",
        "  - Tidy the imports",
        "  - Write a docstring for `greet`",
    ], both
    assert nv.wait_turn(turn)["stopReason"] == "end_turn"
    nv.wait_until("not vim.tbl_contains(H.chat().lines, '## Plan (p2)')", "p2 removed")
    lines = nv.chat()["lines"]
    plan = lines.index("## Plan")
    assert lines[plan + 1 :] == ["  ✓ Read hello.py", "  ✓ Edit hello.py", "  ✓ Run the tests"]
    assert "## Plan (p1)" not in lines and "Follow-up" not in "\n".join(lines)


def test_an_untitled_tool_call_shows_its_name_and_the_turn_its_tokens(nv: PluginEditor) -> None:
    nv.setup()
    lines = chat_turn(nv, "untitled")
    assert "✓ [search] Glob · completed" in lines, lines
    last = lines[-1]
    usage = nv.lua("return require('acp_editor.store').current().runState.usage")
    total = usage["totalTokens"]
    assert total > 1000, usage
    words = f"{total / 1000:.1f}k tokens".replace(".0k", "k")
    assert last.startswith(f"(turn ended: end_turn · {words} ("), last
    assert highlight(nv, len(lines) - 1) == "AcpEditorHint"


RENDER = """
local snap = require("acp_editor.session.reducer").new("s")
snap.entries = { { kind = "message", role = "user", content = { { type = "text", text = "go" } } } }
snap.runState = ...
local drawn = require("acp_editor.chat.render").render(snap, { keys = {} })
return drawn.lines
"""


@pytest.mark.parametrize(
    ("run_state", "expected"),
    [
        (
            {"state": "idle", "stopReason": "error", "error": {"code": -32603, "message": "boom"}},
            ["✗ The turn failed: boom"],
        ),
        (
            {"state": "idle", "stopReason": "max_tokens", "usage": {"totalTokens": 950}},
            ["(turn ended: max_tokens · 950 tokens)"],
        ),
        ({"state": "idle", "stopReason": "end_turn"}, []),
        ({"state": "running"}, []),
    ],
    ids=["error", "usage", "nothing-more", "running"],
)
def test_the_turns_end_line(
    nv: PluginEditor, run_state: dict[str, Any], expected: list[str]
) -> None:
    nv.lua("require('acp_editor').setup({})")
    lines: list[str] = nv.lua(RENDER, run_state)
    end = lines[lines.index("go") + 1 :]
    assert [line for line in end if line] == expected, lines


PLANS = """
local snap = require("acp_editor.session.reducer").new("s")
snap.plans = ...
return require("acp_editor.chat.render").render(snap, { keys = {} }).lines
"""


def test_a_file_plan_is_its_path_and_an_untyped_plan_is_read_by_its_fields(
    nv: PluginEditor,
) -> None:
    """What the demo agent does not send: a ``file`` plan, and v2's plans, which have no
    ``type``."""
    nv.lua("require('acp_editor').setup({})")
    plans = {
        "a": {"type": "file", "planId": "a", "uri": "file:///nowhere/PLAN.md"},
        "b": {"planId": "b", "entries": [{"content": "Write it", "status": "pending"}]},
        "c": {"planId": "c", "content": "- first\n- then"},
    }
    lines: list[str] = nv.lua(PLANS, plans)
    at = lines.index("## Plan (a)")
    assert lines[at : at + 9] == [
        "## Plan (a)",
        "  in the file /nowhere/PLAN.md (:edit /nowhere/PLAN.md)",
        "",
        "## Plan (b)",
        "  ○ Write it",
        "",
        "## Plan (c)",
        "  - first",
        "  - then",
    ], lines


ENTRIES = """
local snap = require("acp_editor.session.reducer").new("child")
snap.parentSessionId = "parent"
snap.entries = ...
return require("acp_editor.chat.render").render(snap, { keys = {} }).lines
"""


def test_failed_compactions_other_severities_and_the_parents_messages(nv: PluginEditor) -> None:
    """Drawn from entries the demo agent does not send: a compaction that failed, a notice of a
    severity nobody defined yet, and, in a subagent's own transcript, its parent's message."""
    nv.lua("require('acp_editor').setup({})")
    text = [{"type": "text", "text": "Look at a.py"}]
    entries = [
        {"kind": "message", "role": "compaction", "messageId": "c", "status": "failed"}
        | {"content": [], "error": "the summary was too long"},
        {"kind": "notice", "severity": "_shout", "title": "Hey"},
        {"kind": "message", "role": "session", "messageId": "m", "content": text}
        | {"senderSessionId": "parent", "recipientSessionId": "child"},
    ]
    lines: list[str] = nv.lua(ENTRIES, entries)
    assert [line for line in lines[1:] if line] == [
        "✗ Compaction failed: the summary was too long",
        "• Notice (_shout): Hey",
        "## Parent session → agent",
        "Look at a.py",
    ], lines
