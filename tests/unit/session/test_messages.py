"""Messages found again by id (session.messages): messages between sessions, the v1 way; v2's
echo of a prompt whose answer named its message (``PromptResponse.messageId``, schema 1.25).

The other v2 upserts and echoes are tested in test_state_v2_lifecycle.py and
test_state_messages.py."""

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


def _named(h: Harness, index: int, message_id: str) -> list[dict[str, Any]]:
    """v2: the agent's answer to our prompt at ``index`` named its user message."""
    return h._track(h.state.prompt_inserted(index, message_id))


def test_a_prompt_named_by_its_answer_takes_that_echo_whatever_the_order(h2: Harness) -> None:
    h2.prompt([text("first")])
    h2.prompt([text("second")], queued=True)
    assert _named(h2, 0, "u1") == [
        {"type": "message", "index": 0, "set": {"messageId": "u1"}, "unset": []}
    ]
    _named(h2, 1, "u2")
    # The agent takes the second prompt up first: its echo joins the second, not the oldest.
    h2.update({"sessionUpdate": "user_message", "messageId": "u2", "content": [text("second")]})
    assert [e["messageId"] for e in h2.entries()] == ["u1", "u2"]
    assert "queued" not in h2.entries()[1]
    h2.update({"sessionUpdate": "user_message_chunk", "messageId": "u1", "content": text("1st")})
    assert h2.entries()[0]["content"] == [text("1st")]  # the echo's words
    assert len(h2.entries()) == 2


def test_a_user_message_no_answer_named_is_not_taken_for_a_named_prompt(h2: Harness) -> None:
    h2.prompt([text("ours")])
    _named(h2, 0, "u1")
    h2.update({"sessionUpdate": "user_message", "messageId": "x9", "content": [text("theirs")]})
    assert [e["messageId"] for e in h2.entries()] == ["u1", "x9"]  # another client's, apart
    h2.update({"sessionUpdate": "user_message", "messageId": "u1", "content": [text("ours")]})
    assert len(h2.entries()) == 2


def test_an_echo_before_the_answer_is_taken_by_the_oldest_prompt(h2: Harness) -> None:
    h2.prompt([text("hi")])
    h2.update({"sessionUpdate": "user_message", "messageId": "u1", "content": [text("hi")]})
    assert _named(h2, 0, "u1") == []  # the answer only confirms it
    assert [e["messageId"] for e in h2.entries()] == ["u1"]


def test_names_are_forgotten_when_the_work_is_over(h2: Harness) -> None:
    h2.prompt([text("never echoed")])
    _named(h2, 0, "u1")
    h2._track(h2.state.settle_prompts())
    assert _named(h2, 0, "u1") == []  # settled: nothing waits for an echo any more
    h2.update({"sessionUpdate": "user_message", "messageId": "u1", "content": [text("late")]})
    assert h2.entries()[0]["content"] == [text("late")]  # an ordinary upsert of that message
