"""claude-agent-acp and codex-acp side by side behind one sidecar (issue 28), offline against the
fake model servers: Claude is the server's own agent (after ``--``), Codex a second one from the
editor's ``initializationOptions.acp.agents``. A session of each, their turns at the same time,
each agent editing a different file on disk itself: each session and status names its agent,
each edit is reviewed under its own session, only the session in front is followed until
``acp/setFollow {allSessions: true}``, and shutting down leaves no process of either agent."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from acp_editor.protocol import editor as proto
from tests.agents.claude_code import claude_agent
from tests.agents.codex import codex_agent
from tests.agents.fake_anthropic import StepScript, call, running_fake_anthropic, say
from tests.agents.fake_openai import patch, running_fake_openai
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.test_lsp_lifecycle import alive
from tests.nvim.driver import descendants
from tests.support.lsp import Editor, wait_until
from tests.support.npm import CLAUDE_AGENT_ACP, CODEX_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm

CLAUDES = 'print("claude was here")\n'
CODEXES = 'print("codex was here")\n'
FEATURES = ["stream", "follow", "review"]


@pytest.fixture(scope="module")
def agents_installed() -> None:
    ensure_npm_package(CLAUDE_AGENT_ACP)
    ensure_npm_package(CODEX_ACP)


def prompt(editor: Editor, session_id: str, text: str) -> Any:
    return editor.request(proto.ACP_PROMPT, {"sessionId": session_id, "prompt": text})


def pending_hunks(editor: Editor) -> dict[str, dict[str, Any]]:
    """The latest state of every hunk the editor was sent, by file name, pending ones only."""
    latest = {h["hunkId"]: h for n in editor.of(proto.ACP_REVIEW_CHANGED) for h in n["hunks"]}
    return {Path(h["path"]).name: h for h in latest.values() if h["state"] == "pending"}


def run_states(editor: Editor) -> list[tuple[str, str]]:
    """(session, state) of every run state the editor was told, in the order it was told."""
    return [
        (note["sessionId"], change["runState"]["state"])
        for note in editor.of(proto.ACP_SESSION_CHANGED)
        for change in note["changes"]
        if change["type"] == "run_state"
    ]


def command_lines(pids: list[int]) -> str:
    lines = []
    for pid in pids:
        try:
            lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    return "\n".join(lines)


async def test_claude_and_codex_side_by_side_each_reviewed_and_followed_as_its_session(
    agents_installed: None, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    claudes, codexes = workspace / "claude.py", workspace / "codex.py"
    claudes.write_text(CLAUDES, encoding="utf-8")
    codexes.write_text(CODEXES, encoding="utf-8")
    claude_script = StepScript(
        [
            call("Read", "Let me read it.", file_path=str(claudes)),
            call("Edit", file_path=str(claudes), old_string="claude", new_string="Claude"),
            say("Done."),
            # The second turn only reads: where a session in the background works.
            call("Read", "Once more.", file_path=str(claudes)),
            say("Seen."),
        ]
    )
    codex_steps = [("exec_command", {"cmd": patch("codex.py", CODEXES[:-1], "print('Codex')")})]
    with (
        running_fake_anthropic(claude_script) as anthropic,
        running_fake_openai(codex_steps) as openai,
    ):
        claude_argv, claude_env = claude_agent(anthropic.base_url, tmp_path / "claude-home")
        codex_argv, codex_env = codex_agent(openai.base_url, tmp_path / "codex-home")
        agents = {"codex": {"command": codex_argv, "env": codex_env}}
        editor = await editor_factory(
            agent=claude_argv,
            env={**os.environ, **claude_env},
            init_options={"acp": {"features": FEATURES, "agents": agents}},
        )
        listed = (await editor.request(proto.ACP_AGENTS, {}))["agents"]
        assert [(a["id"], a["default"]) for a in listed] == [("default", True), ("codex", False)]

        claude = await editor.request(proto.ACP_NEW_SESSION, {})
        codex = await editor.request(proto.ACP_NEW_SESSION, {"agent": "codex"})
        assert (claude["snapshot"]["agent"], codex["snapshot"]["agent"]) == ("default", "codex")
        claude_sid, codex_sid = claude["sessionId"], codex["sessionId"]
        await editor.request(proto.ACP_SELECT_SESSION, {"sessionId": codex_sid})  # in front
        await wait_until(
            lambda: (
                {("default", "ready"), ("codex", "ready")}
                <= {(s["agent"], s["state"]) for s in editor.of(proto.ACP_AGENT_STATUS)}
            )
        )

        turns = await asyncio.gather(
            prompt(editor, claude_sid, "Edit claude.py."),
            prompt(editor, codex_sid, "Edit codex.py."),
        )
        assert [t["stopReason"] for t in turns] == ["end_turn", "end_turn"], turns
        assert anthropic.errors == []
        # The turns ran at the same time: both were running before either ended.
        states = run_states(editor)
        first_idle = states.index(next(s for s in states if s[1] == "idle"))
        assert {(claude_sid, "running"), (codex_sid, "running")} <= set(states[:first_idle])
        # Each agent wrote the disk itself.
        assert claudes.read_text(encoding="utf-8") == CLAUDES.replace("claude", "Claude")
        assert codexes.read_text(encoding="utf-8") == "print('Codex')\n"

        # Each edit is review of its own session, and of it alone.
        await wait_until(lambda: {"claude.py", "codex.py"} <= pending_hunks(editor).keys())
        hunks = pending_hunks(editor)
        assert hunks.keys() == {"claude.py", "codex.py"}, hunks
        assert hunks["claude.py"]["sessionId"] == claude_sid, (claude_sid, hunks)
        assert hunks["codex.py"]["sessionId"] == codex_sid, (codex_sid, hunks)
        assert "sessions" not in hunks["claude.py"] and "sessions" not in hunks["codex.py"]
        snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
        assert {s["sessionId"]: s["agent"] for s in snapshot["sessions"]} == {
            claude_sid: "default",
            codex_sid: "codex",
        }
        assert {h["sessionId"] for h in snapshot["review"]} == {claude_sid, codex_sid}

        # Followed: only the session in front, though Claude's tool calls had locations too.
        followed = editor.of(proto.ACP_FOLLOW)
        assert followed and {f["sessionId"] for f in followed} == {codex_sid}, followed
        await editor.request(proto.ACP_SET_FOLLOW, {"enabled": True, "allSessions": True})
        assert (await prompt(editor, claude_sid, "Look again."))["stopReason"] == "end_turn"
        await wait_until(lambda: editor.of(proto.ACP_FOLLOW)[-1]["sessionId"] == claude_sid)
        assert editor.of(proto.ACP_FOLLOW)[-1]["uri"] == editor.uri("claude.py")

    # Shutting down ends both agents and everything below them.
    assert editor.client._server is not None
    tree = descendants(editor.client._server.pid)
    running = command_lines(tree)
    assert "claude-agent-acp" in running and "codex-acp" in running, running
    await editor.close()
    await wait_until(lambda: not any(alive(pid) for pid in tree))
