"""What claude-agent-acp 0.101 sends behind acp-editor's schema 1.25 opt-ins (issue 34), through
the real sidecar, offline against our fake Anthropic API: a subagent as a session of its own
(``subagents``), and a context compaction and notices (``session.compaction``,
``session.notices``). Every message the sidecar sends the agent is checked against the schema
(``schema_1_25.Tap``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto
from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import (
    MessagesRequest,
    Step,
    StepScript,
    call,
    running_fake_anthropic,
    say,
)
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.schema_1_25 import Tap, schemas
from tests.support.lsp import NEOVIM
from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm
__all__ = ["schemas"]

RICH = ["stream", "follow", "permissions", "review"]
CHILD_TASK = "Fix the greeting in notes.py (child task 7f3a)."
ORIGINAL = 'print("helo")\n'


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_AGENT_ACP)


@dataclass
class ParentAndChild:
    """The parent's conversation gets ``parent``; the subagent's (the one whose prompt is the
    parent's task for it) gets ``child``: each decides by its own conversation."""

    parent: StepScript
    child: StepScript

    def next_step(self, request: MessagesRequest) -> Step:
        first = request.messages[0] if request.messages else {}
        mine = CHILD_TASK in str(first.get("content"))
        return (self.child if mine else self.parent).next_step(request)


async def test_a_claude_subagent_is_a_session_of_its_own_followed_asking_and_reviewed(
    agent_installed: Path,
    editor_factory: StartEditor,
    workspace: Path,
    tmp_path: Path,
    schemas: Any,
) -> None:
    """The parent hands the fix to a helper (Claude Code's Agent tool); the helper reads the
    file and edits it, asking first (the ``default`` mode). ``run_in_background=False``: Claude
    Code runs helpers in the background by default, and the parent would answer before its
    helper worked (then once more when told it finished)."""
    target = workspace / "notes.py"
    target.write_text(ORIGINAL, encoding="utf-8")
    tap = Tap(tmp_path / "acp.jsonl", schemas)
    script = ParentAndChild(
        parent=StepScript(
            [
                call(
                    "Agent",
                    "I'll hand this to a helper.",
                    description="Fix the greeting",
                    prompt=CHILD_TASK,
                    subagent_type="general-purpose",
                    run_in_background=False,
                ),
                say("The helper fixed it."),
            ]
        ),
        child=StepScript(
            [
                call("Read", "Reading it first.", file_path=str(target)),
                call("Edit", file_path=str(target), old_string="helo", new_string="hello"),
                say("Fixed the greeting."),
            ]
        ),
    )
    with running_fake_anthropic(script) as api:
        argv, env = claude_agent(api.base_url, tmp_path / "home", asks=True)
        editor = await editor_factory(
            agent=tap.wrap(argv), env={**os.environ, **env}, features=RICH
        )
        parent = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
        result = await editor.request(
            proto.ACP_PROMPT, {"sessionId": parent, "prompt": "Fix notes.py with a helper."}
        )
        assert api.errors == [], api.errors
        assert result["stopReason"] == "end_turn", result
    assert target.read_text(encoding="utf-8") == 'print("hello")\n'  # the child's own edit

    # The child is announced on its parent (subagent_update) and is a session of its own.
    (announced,) = [u for u in tap.updates("subagent_update") if "title" in u]
    child = announced["sessionId"]
    assert announced["on"] == parent and announced["sessionId"] != parent
    named = {"parentSessionId": parent, "title": "Fix the greeting"}
    changed = {
        n["sessionId"]: n.get("parentSessionId") for n in editor.of(proto.ACP_SESSION_CHANGED)
    }
    assert changed == {parent: None, child: parent}, changed

    # Its tool calls are followed, named as the parent's subagent.
    followed = [f for f in editor.of(proto.ACP_FOLLOW) if f["sessionId"] == child]
    assert {f["toolCallId"] for f in followed} == {"toolu_fake_003_0", "toolu_fake_004_0"}, followed
    assert all(f["subagent"] == named for f in followed), followed
    assert all(f["uri"] == editor.uri("notes.py") for f in followed), followed

    # Its permission question is the child's, and names it.
    (asked,) = editor.asked
    assert asked["sessionId"] == child and asked["subagent"] == named, asked
    assert asked["toolCall"]["toolCallId"] == "toolu_fake_004_0"
    assert [d["newText"] for d in asked["diffs"]] == ["hello"]

    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    sessions = {s["sessionId"]: s for s in snapshot["sessions"]}
    # The parent's snapshot lists the child, as the agent last described it. claude-agent-acp
    # shows no Agent tool call to a client taking subagents (the call is replaced by the
    # session message to the child, whose id is the call's): there is no tool call to put the
    # child under, and none is claimed.
    record = sessions[parent]["subagents"][child]
    assert record == {
        "sessionId": child,
        "title": "Fix the greeting",
        "description": "general-purpose",
        "capabilities": {"cancel": {}},
        "state": {"state": "idle", "stopReason": "end_turn"},
    }, record
    assert sessions[parent]["toolCalls"] == {}
    handed = [e for e in sessions[parent]["entries"] if e.get("role") == "session"]
    assert [(e["senderSessionId"], e["recipientSessionId"]) for e in handed] == [
        (parent, child),
        (child, parent),
    ], handed
    assert handed[0]["messageId"] == "toolu_fake_002_0"
    assert handed[0]["content"] == [{"type": "text", "text": CHILD_TASK}]
    # The child's session: its own tool calls, its parent named.
    own = sessions[child]
    assert own["parentSessionId"] == parent
    assert set(own["toolCalls"]) == {"toolu_fake_003_0", "toolu_fake_004_0"}
    assert own["toolCalls"]["toolu_fake_004_0"]["status"] == "completed"

    # The child's edit is reviewed, as its parent's turn's work.
    (hunk,) = snapshot["review"]
    assert (hunk["sessionId"], hunk["state"]) == (parent, "pending"), hunk
    assert (hunk["oldLines"], hunk["newLines"]) == (['print("helo")'], ['print("hello")'])
    assert hunk["uri"] == editor.uri("notes.py")
    tap.check()


SUMMARY = "The user greeted the assistant, which greeted back; nothing else happened."


@dataclass
class Compacting:
    """``script``, except that Claude Code's request for a summary of the conversation (a
    ``/compact``) is answered as a model does: an analysis, then the summary."""

    script: StepScript

    def next_step(self, request: MessagesRequest) -> Step:
        asked = str(request.messages[-1].get("content")) if request.messages else ""
        if "summary of the conversation so far" in asked:
            return say(f"<analysis>\nA greeting.\n</analysis>\n<summary>\n{SUMMARY}\n</summary>")
        return self.script.next_step(request)


async def test_claude_compaction_and_notice_reach_a_plain_editor(
    agent_installed: Path,
    editor_factory: StartEditor,
    workspace: Path,
    tmp_path: Path,
    schemas: Any,
) -> None:
    """``/compact`` as the user types it: a compaction entry with its summary, and the usage
    after it. The notice is the one claude-agent-acp sends in auto mode whenever the model is
    reached through a gateway (our fake server): a plain editor is shown it."""
    tap = Tap(tmp_path / "acp.jsonl", schemas)
    with running_fake_anthropic(Compacting(StepScript([say("Hello to you too.")]))) as api:
        argv, env = claude_agent(api.base_url, tmp_path / "home")
        editor = await editor_factory(
            capabilities=NEOVIM, agent=tap.wrap(argv), env={**os.environ, **env}
        )
        greeted = await editor.command("acp.prompt", "Hello!")
        before = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
        compacted = await editor.command("acp.prompt", "/compact")
        assert api.errors == [], api.errors
    assert (greeted["stopReason"], compacted["stopReason"]) == ("end_turn", "end_turn")
    after = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]

    (compaction,) = [e for e in after["entries"] if e.get("role") == "compaction"]
    assert compaction["status"] == "completed", compaction
    assert compaction["content"] == [{"type": "text", "text": SUMMARY}], compaction
    assert compaction["messageId"] == tap.updates("compaction_update")[0]["compactionId"]
    # The usage after it: the context holds the summary, not the conversation.
    assert after["usage"]["used"] < before["usage"]["used"], (before["usage"], after["usage"])
    logged = [m.message for m in editor.client.log_messages]
    assert any(f"the agent compacted its context: {SUMMARY}" in line for line in logged), logged

    (notice,) = [e for e in after["entries"] if e.get("kind") == "notice"]
    assert notice["severity"] == "warning" and "auto mode" in notice["description"], notice
    shown = [m for m in editor.client.messages if "auto mode" in m.message]
    assert [m.type for m in shown] == [lsp.MessageType.Warning], editor.client.messages
    assert shown[0].message.startswith(f"acp-editor: {notice['title']}: ")
    tap.check()
