"""What a plain editor is told of notices, compactions and subagents (editor.show.markers),
fed the changes the real session state makes of the agent's updates."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from acp_editor.editor.show.lineage import Lineage
from acp_editor.editor.show.markers import PlainMarkers, summary_text
from acp_editor.session.state import SessionState
from tests.support.fake_editor import FakeChannel


def shown(updates: list[dict[str, Any]], *, parent: str | None = None) -> FakeChannel:
    channel = FakeChannel()
    lineage = Lineage()
    markers = PlainMarkers(channel, lineage)
    state = SessionState("s1", parent=parent)
    lineage.seen("s1", parent)
    for update in updates:
        for change in state.apply_update(update):
            if change["type"] == "subagents":
                lineage.subagents_changed(change["subagents"])
            markers.changed(state, change)
    return channel


def test_a_notice_is_shown_at_its_severity_and_logged() -> None:
    channel = shown(
        [
            {"sessionUpdate": "notice", "severity": "error", "title": "Quota", "description": "x"},
            {"sessionUpdate": "notice", "severity": "_custom", "title": "FYI"},
        ]
    )
    assert channel.messages == [
        ("acp-editor: Quota: x", lsp.MessageType.Error),
        ("acp-editor: FYI", lsp.MessageType.Info),
    ]
    assert channel.logged[0] == "acp-editor: notice (error): Quota: x"


def test_a_subagents_notice_names_it() -> None:
    channel = shown(
        [{"sessionUpdate": "notice", "severity": "warning", "title": "Slow"}], parent="p"
    )
    assert channel.messages == [("acp-editor (A subagent): Slow", lsp.MessageType.Warning)]


def test_a_compaction_is_logged_as_it_starts_and_ends_with_its_summary() -> None:
    c1 = {"compactionId": "c1"}
    channel = shown(
        [
            {"sessionUpdate": "compaction_update", **c1, "status": "in_progress"},
            {
                "sessionUpdate": "compaction_summary_chunk",
                **c1,
                "content": {"type": "text", "text": "Fixed\nthe test"},
            },
            {"sessionUpdate": "compaction_update", **c1, "status": "completed"},
            {"sessionUpdate": "compaction_update", "compactionId": "c2", "status": "failed"},
        ]
    )
    assert channel.logged == [
        "acp-editor: the agent is compacting its context",
        "acp-editor: the agent compacted its context: Fixed the test",
    ]
    assert channel.messages == [
        ("acp-editor: the agent's context compaction ended failed", lsp.MessageType.Warning)
    ]


def test_a_subagent_starting_finishing_and_failing() -> None:
    child = {"sessionUpdate": "subagent_update", "sessionId": "c", "title": "Explore"}
    error = {"code": -32603, "message": "model overloaded"}
    channel = shown(
        [
            {**child, "state": {"state": "running"}},
            {**child, "description": "looks around"},  # no new state: nothing said
            {**child, "state": {"state": "idle", "stopReason": "end_turn"}},
            {**child, "state": {"state": "idle", "stopReason": "error", "error": error}},
        ]
    )
    assert channel.logged == [
        "acp-editor: subagent “Explore” is running",
        "acp-editor: subagent “Explore” finished (end_turn)",
    ]
    assert channel.messages == [
        ("acp-editor: subagent “Explore” failed: model overloaded", lsp.MessageType.Warning)
    ]


def test_summary_text_is_one_shortened_line() -> None:
    entry = {"content": [{"type": "text", "text": "a " * 400}, {"type": "image"}]}
    text = summary_text(entry, 20)
    assert len(text) == 20 and text.endswith("…") and "\n" not in text
