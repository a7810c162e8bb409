"""The agent's status: held for ``acp.status``, told as ``acp/agentStatus`` to editors with the
``stream`` feature once they are initialized; an unexpected exit says why."""

from __future__ import annotations

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.show.status import AgentStatus, AgentStatuses
from acp_editor.protocol import editor as proto
from tests.support.fake_editor import FakeChannel


def test_a_rich_editor_is_told_each_change_and_a_plain_one_reads_it() -> None:
    rich, plain = FakeChannel(ClientFeatures(rich={proto.FEATURE_STREAM})), FakeChannel()
    for channel in (rich, plain):
        status = AgentStatus(channel, ["agent", "--acp"], "claude")
        assert status.current == {
            "agent": "claude",
            "state": "starting",
            "command": ["agent", "--acp"],
        }
        assert not status.started
        status.set(state="ready")
        assert status.started
        assert status.current == {
            "agent": "claude",
            "command": ["agent", "--acp"],
            "state": "ready",
        }
    assert rich.notes_of(proto.ACP_AGENT_STATUS) == [
        {"agent": "claude", "command": ["agent", "--acp"], "state": "ready"}
    ]
    assert plain.notes == []


def test_nothing_is_sent_before_the_editor_is_initialized() -> None:
    channel = FakeChannel(ClientFeatures(rich={proto.FEATURE_STREAM}))
    channel.initialized = False
    AgentStatus(channel, ["agent"]).set(state="ready")
    assert channel.notes == []


def test_an_exit_is_exited_when_expected_and_failed_with_the_reason_otherwise() -> None:
    status = AgentStatus(FakeChannel(), ["agent"])
    status.exited(0, "", expected=True)
    assert status.current == {
        "agent": "default",
        "command": ["agent"],
        "state": "exited",
        "exitCode": 0,
    }
    status.exited(3, "fatal: no key", expected=False)
    assert status.current["state"] == "failed" and status.current["stderrTail"] == "fatal: no key"
    assert status.current["message"] == "the agent exited unexpectedly with code 3"


def test_each_agent_has_its_own_status_made_when_first_asked_for() -> None:
    statuses = AgentStatuses(FakeChannel(ClientFeatures(rich={proto.FEATURE_STREAM})))
    assert statuses.get("codex") is None
    codex = statuses.of("codex", ["codex-acp"])
    assert statuses.of("codex", ["ignored"]) is codex and statuses.get("codex") is codex
    claude = statuses.of("claude", ["claude-acp"])
    claude.set(state="failed", message="no key")
    assert codex.current["state"] == "starting" and claude.current["agent"] == "claude"
