"""The demo's terminal view: the text it prints for what the session state reports, fed the
updates the demo agent sends (schema 1.25: notices, compactions, plans by id, subagents, a tool
call named only by its tool, a turn's tokens) through the real ``SessionState``; and signing
in, with the demo agent's real login program typed into."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from acp_editor.agent.auth_methods import TerminalSignIn
from acp_editor.demo.view import TerminalView
from acp_editor.demo_agent.scenarios import opt_in_scenarios as opt_in
from acp_editor.demo_agent.scenarios import subagent_scenarios as sub
from acp_editor.session.state import SessionState

PARENT, CHILD = "s1", "c1"


class Shown:
    """A view printing into a string, and sessions whose updates it is shown."""

    def __init__(self, **options: Any) -> None:
        self.out = io.StringIO()
        self.view = TerminalView(self.out, **options)
        self.states = {PARENT: SessionState(PARENT)}

    def child(self, session_id: str = CHILD, parent: str = PARENT) -> None:
        """A subagent's session, as the client opens it when its parent's agent announces it."""
        self.states[session_id] = SessionState(session_id, parent=parent)

    def send(self, update: dict[str, Any], session_id: str = PARENT) -> None:
        state = self.states[session_id]
        self.view.session_changed(state, state.apply_update(update))

    def text(self) -> str:
        return self.out.getvalue()


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def test_a_notice_is_one_line_at_its_severity() -> None:
    shown = Shown()
    severity, title, description = opt_in.NOTICE
    notice = {"sessionUpdate": "notice", "severity": severity, "title": title}
    shown.send({**notice, "description": description})
    shown.send({"sessionUpdate": "notice", "severity": "error", "title": "Model unavailable"})
    assert shown.text().splitlines() == [
        f"notice (warning): {title}: {description}",
        "notice (error): Model unavailable",
    ]


def test_a_notice_is_coloured_by_its_severity() -> None:
    shown = Shown()
    shown.view.colour = True
    shown.send({"sessionUpdate": "notice", "severity": "error", "title": "Quota"})
    shown.send({"sessionUpdate": "notice", "severity": "_custom", "title": "Retrying"})
    red_bold, cyan_bold = "\033[31;1m", "\033[36;1m"
    assert shown.text().splitlines() == [
        f"{red_bold}notice (error): Quota\033[0m",
        f"{cyan_bold}notice (_custom): Retrying\033[0m",
    ]


def test_a_compaction_says_it_started_streams_its_summary_and_ends() -> None:
    shown = Shown()
    head = {"sessionUpdate": "compaction_update", "compactionId": "k1"}
    shown.send({"sessionUpdate": "usage_update", "used": opt_in.USED_BEFORE, "size": 200_000})
    shown.send({**head, "status": "in_progress"})
    for piece in opt_in.SUMMARY:
        chunk = {"compactionId": "k1", "content": text_block(piece)}
        shown.send({"sessionUpdate": "compaction_summary_chunk", **chunk})
    shown.send({**head, "status": "completed"})
    shown.send({"sessionUpdate": "usage_update", "used": opt_in.USED_AFTER, "size": 200_000})
    assert shown.text().splitlines() == [
        "context: 184,000 of 200,000 tokens used (92%)",
        "compacting the context",
        "summary> " + "".join(opt_in.SUMMARY),
        "context compacted",
        "context: 23,000 of 200,000 tokens used (12%)",
    ]


def test_a_failed_compaction_says_its_error_and_a_summary_sent_whole_is_shown() -> None:
    shown = Shown()
    head = {"sessionUpdate": "compaction_update", "compactionId": "k2"}
    shown.send({**head, "status": "in_progress"})
    shown.send({**head, "status": "failed", "error": "the model refused to summarise"})
    shown.send({**head | {"compactionId": "k3"}, "status": "in_progress"})
    shown.send({**head | {"compactionId": "k3"}, "summary": [text_block("All of it, at once.")]})
    assert shown.text().splitlines() == [
        "compacting the context",
        "context compaction failed: the model refused to summarise",
        "compacting the context",
        "summary> All of it, at once.",
    ]


def test_plans_by_id_each_with_its_kind_and_a_removed_one() -> None:
    shown = Shown()
    items = {"type": "items", "planId": "p1", "entries": opt_in.plan_entries(opt_in.PLAN_STEPS, 0)}
    markdown = {"type": "markdown", "planId": "p2", "content": opt_in.FOLLOW_UP}
    file = {"type": "file", "planId": "p3", "uri": "file:///work/PLAN.md"}
    for plan in (items, markdown, file):
        shown.send({"sessionUpdate": "plan_update", "plan": plan})
    done = {**items, "entries": opt_in.plan_entries(opt_in.PLAN_STEPS, 3)}
    shown.send({"sessionUpdate": "plan_update", "plan": done})
    shown.send({"sessionUpdate": "plan_removed", "planId": "p2"})
    assert shown.text().splitlines() == [
        "plan p1:",
        "  [>] Read hello.py",
        "  [ ] Edit hello.py",
        "  [ ] Run the tests",
        "plan p2 (markdown):",
        "  ## Follow-up",
        "",
        "  - Tidy the imports",
        "  - Write a docstring for `greet`",
        "plan p3 (file):",
        "  file:///work/PLAN.md",
        "plan p1:",
        "  [x] Read hello.py",
        "  [x] Edit hello.py",
        "  [x] Run the tests",
        "plan p2 removed",
    ]


def test_the_whole_plan_of_old_is_shown_as_before() -> None:
    shown = Shown()
    entries = opt_in.plan_entries(("Read", "Edit"), 1)
    shown.send({"sessionUpdate": "plan", "entries": entries})
    assert shown.text().splitlines() == ["plan:", "  [x] Read", "  [>] Edit"]


def test_a_tool_call_with_an_empty_title_shows_its_tool_name() -> None:
    shown = Shown()
    call = {"sessionUpdate": "tool_call", "toolCallId": "g1", "title": "", "kind": "search"}
    shown.send({**call, "name": "Glob", "status": "in_progress"})
    shown.send({"sessionUpdate": "tool_call_update", "toolCallId": "g1", "status": "completed"})
    assert shown.text().splitlines() == [
        "tool  Glob  [search] in_progress",
        "tool  Glob  [search] completed",
    ]


def test_a_turns_end_says_its_tokens_and_running_says_nothing() -> None:
    shown = Shown()
    shown.send({"sessionUpdate": "state_update", "state": "running"})
    usage = {"totalTokens": 1240, "inputTokens": 1225, "outputTokens": 15, "thoughtTokens": 7}
    idle = {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"}
    shown.send({**idle, "usage": usage})
    assert shown.text().splitlines() == ["tokens: 1,240 (1,225 in, 15 out, 7 thinking)"]


def announce(shown: Shown, **fields: Any) -> None:
    shown.send({"sessionUpdate": "subagent_update", "sessionId": CHILD, **fields})


def test_a_subagents_lines_come_under_its_title_indented_with_its_state_changes() -> None:
    shown = Shown()
    call = {
        "sessionUpdate": "tool_call",
        "toolCallId": "task",
        "kind": "think",
        "status": "pending",
    }
    shown.send({**call, "title": "Task: explore hello.py"})
    running = {"state": "running"}
    announce(shown, title=sub.CHILD_TITLE, description=sub.CHILD_DESCRIPTION, state=running)
    shown.child()
    to_child: dict[str, Any] = {"sessionUpdate": "session_message", "senderSessionId": PARENT}
    to_child |= {"recipientSessionId": CHILD, "content": [text_block("Read it.")]}
    shown.send({**to_child, "messageId": "m1"})
    shown.send({**to_child, "messageId": "m2"}, CHILD)
    read = {"sessionUpdate": "tool_call", "toolCallId": "r1", "title": "Read hello.py"}
    shown.send({**read, "kind": "read", "status": "completed"}, CHILD)
    shown.send({"sessionUpdate": "agent_message_chunk", "content": text_block("Done.")}, CHILD)
    usage = {"totalTokens": 912, "inputTokens": 900, "outputTokens": 12}
    announce(shown, state={"state": "idle", "stopReason": "end_turn", "usage": usage})
    reply = {"sessionUpdate": "session_message", "messageId": "m3", "senderSessionId": CHILD}
    shown.send({**reply, "recipientSessionId": PARENT})
    for word in ("I read ", "it."):
        chunk = {"sessionUpdate": "session_message_chunk", "messageId": "m3"}
        shown.send({**chunk, "content": text_block(word)})
    assert shown.text().splitlines() == [
        "tool  Task: explore hello.py  [think] pending",
        "subagent “Explore hello.py” started: Reads hello.py and makes one small edit",
        "to subagent “Explore hello.py”> Read it.",
        "subagent “Explore hello.py”:",
        "    from parent> Read it.",
        "    tool  Read hello.py  [read] completed",
        "    agent> Done.",
        "subagent “Explore hello.py” finished (end_turn; tokens: 912 (900 in, 12 out))",
        "from subagent “Explore hello.py”> I read it.",
    ]


def test_a_subagent_that_fails_or_is_cancelled_says_so() -> None:
    shown = Shown()
    announce(shown, title="Explore", state={"state": "running"})
    shown.send(
        {"sessionUpdate": "subagent_update", "sessionId": "c2", "state": {"state": "running"}}
    )
    failed = {"state": "idle", "stopReason": "error", "error": sub.FAILURE}
    announce(shown, state=failed)
    cancelled = {"state": "idle", "stopReason": "cancelled"}
    shown.send({"sessionUpdate": "subagent_update", "sessionId": "c2", "state": cancelled})
    assert shown.text().splitlines() == [
        "subagent “Explore” started",
        "subagent c2 started",
        f"subagent “Explore” failed: {sub.FAILURE['message']}",
        "subagent c2 was cancelled",
    ]


async def test_a_subagents_question_and_its_file_reads_come_under_its_title() -> None:
    shown = Shown(auto_yes=True)
    announce(shown, title="Explore", state={"state": "running"})
    shown.child()
    shown.view.file_accessed("read", "/w/hello.py", CHILD)
    options = [{"optionId": "ok", "name": "Allow", "kind": "allow_once"}]
    call = {"toolCallId": "e1", "title": "", "name": "Edit", "kind": "edit"}
    assert await shown.view.request_permission(CHILD, call, options) == "ok"
    shown.view.line("turn ended: end_turn")
    assert shown.text().splitlines() == [
        "subagent “Explore” started",
        "subagent “Explore”:",
        "      follow -> /w/hello.py (read)",
        "    permission: Edit [edit]",
        "      1) Allow (allow_once)",
        "      --yes: ok",
        "turn ended: end_turn",
    ]


def test_the_sign_in_state_is_said_when_it_changes() -> None:
    shown = Shown()
    shown.view.auth_status("default", {"state": "not_required"})
    shown.view.auth_status("default", {"state": "unauthenticated"})
    shown.view.auth_status("default", {"state": "unauthenticated"})
    shown.view.auth_status("default", {"state": "authenticated", "label": "Alice"})
    assert shown.text().splitlines() == [
        "sign-in: unauthenticated",
        "sign-in: authenticated (Alice)",
    ]


METHODS = [
    {"id": "claude-ai-login", "name": "Claude Subscription", "type": "terminal"},
    {"id": "console-login", "name": "Anthropic Console", "type": "terminal"},
    {"id": "key", "name": "API key", "description": "Uses $KEY", "type": "agent"},
]


async def test_choosing_a_sign_in_method_at_the_keyboard() -> None:
    shown = Shown(keyboard=io.StringIO("7\n2\n"))
    shown.view.agent_title = "Claude Agent"
    assert await shown.view.choose_auth_method(METHODS, "claude") == "console-login"
    assert shown.text().splitlines() == [
        "sign-in: Claude Agent needs you to sign in. Choose how:",
        "  1) Claude Subscription (a command in a terminal)",
        "  2) Anthropic Console (a command in a terminal)",
        "  3) API key (the agent signs in): Uses $KEY",
        "  choose 1-3 (Enter to give up): ",
        "  choose 1-3 (Enter to give up): ",
    ]


async def test_no_answer_gives_up_and_yes_takes_the_first() -> None:
    assert await Shown(keyboard=io.StringIO("")).view.choose_auth_method(METHODS) is None
    assert await Shown(keyboard=io.StringIO("\n")).view.choose_auth_method(METHODS) is None
    shown = Shown(auto_yes=True)
    assert await shown.view.choose_auth_method(METHODS, "claude") == "claude-ai-login"
    assert shown.text().splitlines()[0] == "sign-in: claude needs you to sign in. Choose how:"
    assert shown.text().splitlines()[-1] == "  --yes: claude-ai-login"


def demo_login(tmp_path: Path) -> TerminalSignIn:
    """The demo agent's own terminal sign-in, as the client hands it to the front end."""
    login = tmp_path / "login.json"
    return TerminalSignIn(
        agent="default",
        agent_name="acp-editor demo agent",
        method_id="demo-terminal-login",
        name="Log in from a terminal",
        command=[
            sys.executable,
            "-m",
            "acp_editor.demo_agent",
            "--login",
            "--login-file",
            str(login),
        ],
        env={"ACP_EDITOR_DEMO_SEEN": "yes"},
        cwd=str(tmp_path),
    )


async def test_the_method_typed_then_the_name_typed_into_the_login_program(
    tmp_path: Path,
) -> None:
    """One keyboard for both: the method's number is read up to its line and no further, so
    the login program, run on the same input, reads the name typed next."""
    (tmp_path / "typed").write_text("1\nAlice\n", encoding="utf-8")
    with (tmp_path / "typed").open() as keyboard, (tmp_path / "out").open("a") as out:
        view = TerminalView(out, keyboard=keyboard)
        assert await view.choose_auth_method(METHODS) == "claude-ai-login"
        assert await view.sign_in_terminal(demo_login(tmp_path)) == 0
    assert (tmp_path / "login.json").read_text().startswith('{"name": "Alice"')
    lines = (tmp_path / "out").read_text().splitlines()
    assert lines[-6:] == [
        "  choose 1-3 (Enter to give up): ",
        f"sign-in: Log in from a terminal: running in {tmp_path}:",
        f"  ACP_EDITOR_DEMO_SEEN=yes {' '.join(demo_login(tmp_path).command)}",
        "Demo sign-in for acp-editor. Type your name and press Enter:",
        "Signed in as Alice. You can close this terminal.",
        "sign-in: the command ended with exit status 0: signed in",
    ]


async def test_a_login_given_nothing_ends_with_its_status(tmp_path: Path) -> None:
    (tmp_path / "typed").write_text("", encoding="utf-8")  # the input ends: no name
    with (tmp_path / "out").open("a") as out, (tmp_path / "typed").open() as keyboard:
        view = TerminalView(out, keyboard=keyboard)
        assert await view.sign_in_terminal(demo_login(tmp_path)) == 1
    said = (tmp_path / "out").read_text().splitlines()[-1]
    assert said == "sign-in: the command ended with exit status 1: not signed in"
    assert not (tmp_path / "login.json").exists()


async def test_yes_with_nobody_at_a_terminal_says_what_to_run(tmp_path: Path) -> None:
    shown = Shown(auto_yes=True, keyboard=io.StringIO(""))
    request = demo_login(tmp_path)
    assert await shown.view.sign_in_terminal(request) is None
    assert shown.text().splitlines() == [
        f"sign-in: Log in from a terminal: run this in a terminal in {tmp_path}:",
        f"  {request.command_line()}",
    ]
    assert not (tmp_path / "login.json").exists()


async def test_a_login_command_that_cannot_start_says_why(tmp_path: Path) -> None:
    shown = Shown(keyboard=io.StringIO(""))
    request = TerminalSignIn("a", "Agent", "m", "Log in", [str(tmp_path / "no-such-agent")])
    assert await shown.view.sign_in_terminal(request) is None
    assert "sign-in: the command could not start: " in shown.text().splitlines()[-1]
