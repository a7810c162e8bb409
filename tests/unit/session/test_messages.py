"""Messages found again by id (session.messages): messages between sessions, the v1 way.

The v2 upserts and echoes are tested in test_state_v2_lifecycle.py and test_state_messages.py."""

from __future__ import annotations

from typing import Any

from tests.unit.session.conftest import Harness


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def test_a_session_message_is_upserted_by_id_and_streamed_into(h1: Harness) -> None:
    h1.update(
        {
            "sessionUpdate": "session_message",
            "messageId": "m1",
            "senderSessionId": "parent",
            "recipientSessionId": "child",
        }
    )
    h1.update({"sessionUpdate": "session_message_chunk", "messageId": "m1", "content": text("a")})
    h1.update({"sessionUpdate": "agent_message_chunk", "content": text("meanwhile")})
    h1.update({"sessionUpdate": "session_message_chunk", "messageId": "m1", "content": text("b")})
    first = h1.entries()[0]
    assert first["role"] == "session"
    assert first["content"] == [text("ab")]
    assert first["recipientSessionId"] == "child"
    h1.update({"sessionUpdate": "session_message", "messageId": "m1", "recipientSessionId": None})
    assert "recipientSessionId" not in h1.entries()[0]
    assert h1.entries()[0]["senderSessionId"] == "parent"


def test_a_chunk_before_its_upsert_makes_the_message(h1: Harness) -> None:
    h1.update({"sessionUpdate": "session_message_chunk", "messageId": "m", "content": text("x")})
    h1.update({"sessionUpdate": "session_message", "messageId": "m", "senderSessionId": "c"})
    assert h1.entries() == [
        {
            "kind": "message",
            "role": "session",
            "messageId": "m",
            "content": [text("x")],
            "senderSessionId": "c",
        }
    ]


def test_a_fork_keeps_finding_messages_by_id(h1: Harness) -> None:
    h1.update({"sessionUpdate": "session_message_chunk", "messageId": "m", "content": text("x")})
    fork = h1.state.copy_as("fork")
    fork.apply_update(
        {"sessionUpdate": "session_message_chunk", "messageId": "m", "content": text("y")}
    )
    assert fork.snapshot()["entries"][0]["content"] == [text("xy")]
    assert h1.entries()[0]["content"] == [text("x")]  # the original is untouched
