"""Prompts sent while a turn runs, and earlier prompts sent again, in a real Neovim 0.11 against
the real sidecar and the scripted agent (its ``wait`` turn runs until it is cancelled):

* v1: a prompt sent during a turn waits in the chat, marked with the keys that act on it; ``e``
  puts it in the prompt area and sending changes it (``acp/editPrompt``), ``x`` removes it
  (``acp/withdrawPrompt``); the chat's ``?`` help lists both keys;
* a cancel while prompts wait asks whether to keep them (they go after it) or drop them; ↑
  recalls a changed prompt as it went, never a removed one;
* a turn's reply reads under the prompt it answers, not under a prompt sent meanwhile (which
  reads after it once it goes; a removed one where it was removed);
* ``e`` on an earlier prompt puts it back in the prompt area and sending asks where it goes: in
  this session, a fork of it, or a new session; the session it came from is not rewritten;
* v2: the agent's own queue cannot be changed, and the chat says so.

What the user sees is read from Neovim (the transcript's lines, the prompt's text, the
question's choices); what the sidecar did, from ``acp/snapshot`` and the agent's record.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.nvim.plugin_driver import PluginEditor
from tests.support.starter import SCRIPTED_AGENT

PROMPT_TEXT = "vim.api.nvim_buf_get_lines(require('acp_editor.chat').prompt_buf, 0, -1, false)"
CHAT_TEXT = "table.concat(H.chat().lines, '\\n')"
RUNNING = (
    "(function() local s = require('acp_editor.store').current(); if not s then return false"
    " end; for _, c in pairs(s.toolCalls) do if c.status == 'in_progress' then return true"
    " end end; return false end)()"
)


def shows(nv: PluginEditor, text: str, what: str) -> None:
    nv.wait_until(f"{CHAT_TEXT}:find({text!r}, 1, true)", what)


def waiting_turn(nv: PluginEditor, *waiting: str) -> tuple[int, list[int]]:
    """A ``wait`` turn running in the open chat, and ``waiting`` sent after it (each shown
    queued); their handles."""
    nv.lua("vim.cmd('AcpChat')")
    first = nv.prompt_async("wait")
    nv.wait_until(RUNNING, "the turn's tool call runs")
    later = []
    for text in waiting:
        later.append(nv.prompt_async(text))
        shows(nv, text, f"{text!r} in the chat")
    count = len(waiting)
    queued = f"select(2, {CHAT_TEXT}:gsub('%(queued', ''))"
    nv.wait_until(f"{queued} == {count}", "the prompts shown queued")
    return first, later


def on_line_of(nv: PluginEditor, text: str) -> None:
    """The cursor in the transcript, on the line that says ``text``."""
    lines: list[str] = nv.chat()["lines"]
    row = lines.index(text) + 1
    nv.lua(
        "local chat = require('acp_editor.chat'); local win = vim.fn.bufwinid(chat.buf);"
        " vim.api.nvim_set_current_win(win); vim.api.nvim_win_set_cursor(win, { ..., 0 })",
        row,
    )


def marker_after(nv: PluginEditor, text: str) -> str:
    lines: list[str] = nv.chat()["lines"]
    return lines[lines.index(text) + 1]


def snapshot(nv: PluginEditor) -> dict[str, Any]:
    both = nv.helper("mirror_and_snapshot", 5000)
    assert both.get("err") is None and both["snapshot"], both
    session: dict[str, Any] = both["snapshot"]
    return session


def user_entries(session: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in session["entries"] if e["kind"] == "message" and e["role"] == "user"]


def sent_texts(nv: PluginEditor) -> list[tuple[str, str]]:
    """(session, first text) of every session/prompt the agent received."""
    return [
        (m["params"]["sessionId"], m["params"]["prompt"][0]["text"])
        for m in nv.agent_received()
        if m.get("method") == "session/prompt"
    ]


def test_a_waiting_prompt_is_changed_or_removed_and_a_cancel_keeps_the_rest(
    nv: PluginEditor,
) -> None:
    nv.setup()
    first, (changed, removed) = waiting_turn(nv, "first waiting", "second waiting")
    hint = "(queued — e edit, x remove; it goes when the turn before it ends)"
    assert marker_after(nv, "first waiting") == hint
    assert marker_after(nv, "second waiting") == hint
    help_lines = "\n".join(
        nv.lua(
            "local chat = require('acp_editor.chat');"
            " return require('acp_editor.chat.help').lines(chat.buf, chat.prompt_buf)"
        )
    )
    assert "  e        edit your prompt under the cursor" in help_lines, help_lines
    assert "  x        remove the waiting prompt under the cursor" in help_lines, help_lines

    # e: its text in the prompt area, which says what sending does; sending changes it.
    nv.lua(
        "vim.api.nvim_buf_set_lines(require('acp_editor.chat').prompt_buf, 0, -1, false, ...)",
        ["a draft"],
    )
    on_line_of(nv, "first waiting")
    nv.feed("e")
    nv.wait_until(f"{PROMPT_TEXT}[1] == 'first waiting'", "the waiting prompt in the prompt area")
    assert nv.lua("return vim.api.nvim_buf_get_name(0)").endswith("acp-editor://prompt")
    bar = nv.lua("return require('acp_editor.chat.prompt').bar()")
    assert bar == "Editing the waiting prompt: sending changes it", bar
    nv.feed("ccfirst, changed<Esc><CR>")
    shows(nv, "first, changed", "the changed prompt in the chat")
    assert nv.lua(f"return {PROMPT_TEXT}") == ["a draft"]  # what was typed before comes back
    assert marker_after(nv, "first, changed") == hint

    # x: the second will not go; it stays, marked.
    on_line_of(nv, "second waiting")
    nv.feed("x")
    shows(nv, "(not sent: removed before its turn", "the removed prompt marked")
    assert nv.wait_turn(removed)["stopReason"] == "cancelled"

    session = snapshot(nv)
    users = user_entries(session)
    assert [u["content"][0]["text"] for u in users] == ["wait", "first, changed", "second waiting"]
    assert users[1].get("queued") is True and users[2].get("dropped") is True, users

    # A cancel while one waits: asked, keeping it (first) and the waiting prompt goes next.
    nv.helper("answer_with", "Keep the waiting prompt")
    nv.lua("vim.cmd('AcpCancel')")
    assert nv.wait_turn(first)["stopReason"] == "cancelled"
    assert nv.wait_turn(changed)["stopReason"] == "end_turn"
    (question,) = nv.selects()
    assert question["kind"] == "acp_editor.cancel", question
    assert question["titles"] == ["Keep the waiting prompt", "Drop it"], question
    assert [text for _, text in sent_texts(nv)] == ["wait", "first, changed"]
    users = user_entries(snapshot(nv))
    assert not users[1].get("queued"), users
    # The removed prompt reads where it was removed, before the one that went and its reply.
    lines = nv.chat()["lines"]
    assert lines.index("second waiting") < lines.index("first, changed"), lines
    assert lines[lines.index("first, changed") + 4].startswith("You said: first, changed"), lines
    # ↑ in the prompt area recalls what went: the changed text, never the removed prompt.
    nv.lua("vim.api.nvim_set_current_win(vim.fn.bufwinid(require('acp_editor.chat').prompt_buf))")
    nv.lua("vim.api.nvim_buf_set_lines(0, 0, -1, false, {})")
    nv.feed("<Up>")
    nv.wait_until(f"{PROMPT_TEXT}[1] ~= ''", "↑")
    assert nv.lua(f"return {PROMPT_TEXT}") == ["first, changed"]
    nv.feed("<Up>")
    nv.wait_until(f"{PROMPT_TEXT}[1] == 'wait'", "↑↑: the first prompt")


def test_a_turns_reply_reads_under_its_prompt_not_under_the_one_sent_meanwhile(
    nv: PluginEditor,
) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    edit = nv.prompt_async("edit")  # asks before editing hello.py
    nv.wait_until("require('acp_editor').statusline():find('waiting for you')", "the question")
    hello = nv.prompt_async("hello")
    shows(nv, "(queued", "the prompt sent meanwhile, waiting")
    nv.lua("require('acp_editor.questions.permissions').answer_oldest('reject_once')")
    nv.wait_turn(edit)
    nv.wait_turn(hello)
    lines = nv.chat()["lines"]
    reply = "The edit of hello.py was rejected, so I stopped here."
    assert lines.index("edit") < lines.index(reply) < lines.index("hello"), lines
    at = lines.index("hello")
    assert lines[at + 3] == "## Agent" and lines[at + 4].startswith("You said: hello"), lines


def test_a_cancel_can_drop_what_waits(nv: PluginEditor) -> None:
    nv.setup()
    first, later = waiting_turn(nv, "one later", "two later")
    nv.helper("answer_with", "Drop them")
    nv.lua("vim.cmd('AcpCancel')")
    assert nv.wait_turn(first)["stopReason"] == "cancelled"
    assert [nv.wait_turn(t)["stopReason"] for t in later] == ["cancelled", "cancelled"]
    (question,) = nv.selects()
    assert question["titles"] == ["Keep the 2 waiting prompts", "Drop them"], question
    shows(nv, "(not sent: removed before its turn", "the dropped prompts marked")
    assert marker_after(nv, "one later").startswith("(not sent: removed before its turn")
    assert marker_after(nv, "two later").startswith("(not sent: removed before its turn")
    assert [text for _, text in sent_texts(nv)] == ["wait"]
    users = user_entries(snapshot(nv))
    assert [bool(u.get("dropped")) for u in users] == [False, True, True], users

    # With nothing waiting, a cancel asks nothing.
    again = nv.prompt_async("wait")
    nv.wait_until(
        "#vim.tbl_filter(function(c) return c.status == 'in_progress' end,"
        " require('acp_editor.store').current().toolCalls) == 1",
        "the second turn's tool call runs",
    )
    nv.lua("vim.cmd('AcpCancel')")
    assert nv.wait_turn(again)["stopReason"] == "cancelled"
    assert len(nv.selects()) == 1


@pytest.mark.parametrize("where", ["In a fork of the session", "In a new session"])
def test_an_earlier_prompt_is_edited_and_sent_again(nv: PluginEditor, where: str) -> None:
    nv.setup()
    nv.lua("vim.cmd('AcpChat')")
    nv.prompt("hello")
    nv.prompt("stream")
    original = nv.lua("return require('acp_editor.store').current_session")
    on_line_of(nv, "hello")
    nv.feed("e")
    nv.wait_until(f"{PROMPT_TEXT}[1] == 'hello'", "the earlier prompt in the prompt area")
    bar = nv.lua("return require('acp_editor.chat.prompt').bar()")
    assert bar == "Editing an earlier prompt: sending asks where it goes", bar

    nv.helper("answer_with", where)
    nv.feed("A there<Esc><CR>")
    nv.wait_until(
        "#vim.tbl_filter(function(m) return m == 'hello there' end,"
        " vim.tbl_map(function(e) return e.content and e.content[1] and e.content[1].text end,"
        " require('acp_editor.store').current().entries)) == 1"
        " and #vim.tbl_keys(require('acp_editor.store').turns) == 0",
        "the prompt sent again and its turn over",
    )
    (question,) = nv.selects()
    assert question["kind"] == "acp_editor.resend", question
    assert question["titles"] == [
        "In this session",
        "In a fork of the session",
        "In a new session",
    ], question
    assert nv.lua(f"return {PROMPT_TEXT}") == [""]

    current = nv.lua("return require('acp_editor.store').current_session")
    assert current != original
    sent = sent_texts(nv)
    assert sent[-1] == (current, "hello there"), sent
    methods = [m.get("method") for m in nv.agent_received()]
    assert ("session/fork" in methods) == (where == "In a fork of the session"), methods
    texts = [u["content"][0]["text"] for u in user_entries(snapshot(nv))]
    if where == "In a fork of the session":
        assert texts == ["hello", "stream", "hello there"]  # the fork keeps the whole context
    else:
        assert texts == ["hello there"]
    # The session it came from is as it was: ACP cannot cut a history at an earlier prompt.
    nv.lua("require('acp_editor.store').current_session = ...", original)
    assert [u["content"][0]["text"] for u in user_entries(snapshot(nv))] == ["hello", "stream"]


def test_a_v2_agents_queue_cannot_be_changed(nv: PluginEditor) -> None:
    agent = [*SCRIPTED_AGENT, "--record", str(nv.agent_record)]
    nv.setup(agents={"demo": {"cmd": agent, "protocol_version": 2}})
    first, (later,) = waiting_turn(nv, "after that")
    assert marker_after(nv, "after that") == (
        "(queued: the agent takes it up when it is done with the work before it;"
        " it cannot be changed)"
    )
    on_line_of(nv, "after that")
    nv.feed("e")
    nv.feed("x")
    nv.wait_until("#H.notes >= 2", "told twice")
    assert [n for n in nv.notes() if "queues prompts itself" in n] == [
        "acp-editor: this agent queues prompts itself: a waiting one cannot be changed",
        "acp-editor: this agent queues prompts itself: a waiting one cannot be removed",
    ]
    assert nv.lua(f"return {PROMPT_TEXT}") == [""]
    nv.lua("vim.cmd('AcpCancel')")  # the agent's own queue: nothing to ask
    assert nv.wait_turn(first)["stopReason"] == "cancelled"
    nv.wait_turn(later)
    assert nv.selects() == []
