"""Notices and compactions in the transcript (session.markers, through SessionState).

Every step also checks that an editor's mirror, fed the changes as JSON, equals the state
(the ``h`` harness)."""

from __future__ import annotations

from typing import Any

from tests.unit.session.conftest import Harness

C1 = {"compactionId": "c1"}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def test_a_notice_is_an_entry_at_its_severity(h: Harness) -> None:
    h.update({"sessionUpdate": "notice", "severity": "error", "title": "Quota", "description": "d"})
    assert h.entries() == [
        {"kind": "notice", "severity": "error", "title": "Quota", "description": "d"}
    ]


def test_a_notice_without_severity_is_information_and_null_description_is_absent(
    h: Harness,
) -> None:
    h.update({"sessionUpdate": "notice", "title": "Hi", "description": None, "severity": 3})
    assert h.entries() == [{"kind": "notice", "severity": "info", "title": "Hi"}]


def test_a_notice_without_title_is_kept_raw(h: Harness) -> None:
    update = {"sessionUpdate": "notice", "severity": "info", "title": ""}
    h.update(update)
    assert h.entries() == [{"kind": "update", "update": update}]


def test_summary_chunks_first_make_an_in_progress_compaction_then_it_completes(
    h: Harness,
) -> None:
    h.update({"sessionUpdate": "compaction_summary_chunk", **C1, "content": text("We ")})
    h.update({"sessionUpdate": "compaction_summary_chunk", **C1, "content": text("fixed it")})
    assert h.entries()[0]["status"] == "in_progress"
    h.update({"sessionUpdate": "compaction_update", **C1, "status": "completed"})
    assert h.entries() == [
        {
            "kind": "message",
            "role": "compaction",
            "messageId": "c1",
            "status": "completed",
            "content": [text("We fixed it")],
        }
    ]


def test_an_update_replaces_the_summary_and_null_clears_the_error(h: Harness) -> None:
    h.update({"sessionUpdate": "compaction_update", **C1, "status": "in_progress"})
    h.update({"sessionUpdate": "compaction_update", **C1, "status": "failed", "error": "big"})
    assert h.entries()[0]["error"] == "big"
    changes = h.update(
        {"sessionUpdate": "compaction_update", **C1, "error": None, "summary": [text("S")]}
    )
    assert changes == [
        {"type": "message", "index": 0, "set": {"content": [text("S")]}, "unset": ["error"]}
    ]
    assert h.entries()[0]["status"] == "failed"  # omitted: unchanged
    assert h.update({"sessionUpdate": "compaction_update", **C1, "status": "failed"}) == []


def test_agent_text_after_a_compaction_starts_its_own_message(h: Harness) -> None:
    h.update({"sessionUpdate": "compaction_update", **C1, "status": "completed"})
    h.update({"sessionUpdate": "agent_message_chunk", "content": text("Back")})
    assert [e["role"] for e in h.entries()] == ["compaction", "agent"]


def test_a_compaction_without_its_id_is_skipped(h: Harness) -> None:
    import pytest

    from acp_editor.session import InvalidUpdate

    with pytest.raises(InvalidUpdate):
        h.state.apply_update({"sessionUpdate": "compaction_update", "status": "completed"})
    assert h.entries() == []
