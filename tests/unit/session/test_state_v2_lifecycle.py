"""The v2 draft's prompt lifecycle in the session state: message upserts by ``messageId``, the
agent's echo of our prompts (and of queued ones), ``state_update`` and plans by ``planId``.

Every call also checks that a mirror fed the changes equals the state (see conftest)."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.session import InvalidUpdate


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def msg(role: str, mid: str, **fields: Any) -> dict[str, Any]:
    return {"sessionUpdate": f"{role}", "messageId": mid, **fields}


def test_agent_message_upsert_creates_then_replaces_content(h2) -> None:
    h2.update(msg("agent_message", "m1", content=[text("Looking")]))
    h2.update({"sessionUpdate": "agent_message_chunk", "messageId": "m1", "content": text("...")})
    assert h2.entries()[0]["content"] == [text("Looking...")]
    # Concrete content replaces everything, chunks included; later chunks append to it.
    changes = h2.update(msg("agent_message", "m1", content=[text("Done")]))
    assert changes == [
        {"type": "message", "index": 0, "set": {"content": [text("Done")]}, "unset": []}
    ]
    h2.update({"sessionUpdate": "agent_message_chunk", "messageId": "m1", "content": text(".")})
    assert h2.entries()[0]["content"] == [text("Done.")]


def test_upsert_without_content_keeps_it_and_null_clears(h2) -> None:
    h2.update(msg("agent_thought", "t1", content=[text("hmm")]))
    assert h2.update(msg("agent_thought", "t1")) == []  # nothing said, nothing changes
    h2.update(msg("agent_thought", "t1", _meta={"k": 1}))
    assert h2.entries()[0] == {
        "kind": "message",
        "role": "thought",
        "messageId": "t1",
        "content": [text("hmm")],
        "_meta": {"k": 1},
    }
    h2.update(msg("agent_thought", "t1", content=None, _meta=None))
    assert h2.entries()[0]["content"] == []
    assert "_meta" not in h2.entries()[0]


def test_same_id_in_another_role_is_another_message(h2) -> None:
    h2.update(msg("agent_message", "x", content=[text("a")]))
    h2.update(msg("agent_thought", "x", content=[text("t")]))
    assert [e["role"] for e in h2.entries()] == ["agent", "thought"]


def test_upsert_without_message_id_is_refused_untouched(h2) -> None:
    with pytest.raises(InvalidUpdate):
        h2.update({"sessionUpdate": "agent_message", "content": [text("a")]})
    assert h2.entries() == []


def test_echo_names_our_prompt_instead_of_adding_a_copy(h2) -> None:
    h2.prompt([text("Fix it")])
    changes = h2.update(msg("user_message", "u1", content=[text("Fix it")]))
    assert changes == [
        {
            "type": "message",
            "index": 0,
            "set": {"messageId": "u1", "content": [text("Fix it")]},
            "unset": [],
        }
    ]
    assert len(h2.entries()) == 1
    # A second echo of the same id is an ordinary upsert of that message.
    h2.update(msg("user_message", "u1", content=[text("Fix it, please")]))
    assert h2.entries()[0]["content"] == [text("Fix it, please")]


def test_queued_prompts_are_echoed_in_order_and_stop_being_queued(h2) -> None:
    h2.prompt([text("first")])
    h2.prompt([text("second")], queued=True)
    assert h2.entries()[1]["queued"] is True
    h2.update(msg("user_message", "u1", content=[text("first")]))
    assert h2.entries()[1]["queued"] is True  # the first echo is the first prompt's
    h2.update({"sessionUpdate": "user_message_chunk", "messageId": "u2", "content": text("sec")})
    h2.update({"sessionUpdate": "user_message_chunk", "messageId": "u2", "content": text("ond")})
    second = h2.entries()[1]
    assert second["messageId"] == "u2" and "queued" not in second
    assert second["content"] == [text("second")]  # the echo's chunks, not ours plus theirs
    # A user message we did not send (another client's) is a message of its own.
    h2.update(msg("user_message", "u3", content=[text("from elsewhere")]))
    assert [e["messageId"] for e in h2.entries()] == ["u1", "u2", "u3"]


def test_v1_prompts_wait_for_no_echo(h1) -> None:
    h1.prompt([text("hi")])
    h1.update({"sessionUpdate": "user_message_chunk", "messageId": "u1", "content": text("x")})
    assert len(h1.entries()) == 2


def test_state_update_is_the_run_state(h2) -> None:
    assert h2.update({"sessionUpdate": "state_update", "state": "running"}) == [
        {"type": "run_state", "runState": {"state": "running"}}
    ]
    assert h2.update({"sessionUpdate": "state_update", "state": "running"}) == []
    h2.update({"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"})
    assert h2.snap["runState"] == {"state": "idle", "stopReason": "end_turn"}


def test_background_work_is_kept_verbatim_in_the_run_state(h2) -> None:
    """Schema 1.25: state updates list work still running (``BackgroundWork``), unknown kinds
    too; the whole update is the run state, read back through ``run_state``."""
    background = [
        {"type": "terminal", "terminalId": "t1", "_meta": {"x": 1}},
        {"type": "tool_call", "toolCallId": "c1"},
        {"type": "_watcher", "label": "docs"},
    ]
    idle = {"state": "idle", "stopReason": "end_turn", "background": background}
    h2.update({"sessionUpdate": "state_update", **idle})
    assert h2.snap["runState"] == idle
    assert h2.state.run_state() == idle
    h2.update({"sessionUpdate": "state_update", "state": "idle", "background": []})
    assert h2.state.run_state() == {"state": "idle", "background": []}


def test_plans_upsert_by_id_and_the_last_updated_is_shown(h2) -> None:
    one = {
        "type": "items",
        "planId": "p1",
        "entries": [{"content": "a", "priority": "high", "status": "pending"}],
    }
    two = {"type": "items", "planId": "p2", "entries": []}
    h2.update({"sessionUpdate": "plan_update", "plan": one})
    h2.update({"sessionUpdate": "plan_update", "plan": two})
    done = {**one, "entries": [{"content": "a", "priority": "high", "status": "completed"}]}
    h2.update({"sessionUpdate": "plan_update", "plan": done})
    assert h2.snap["plans"] == {"p1": done, "p2": two}
    assert h2.snap["plan"] == done


def test_plan_update_without_an_id_is_kept_raw(h2) -> None:
    update = {"sessionUpdate": "plan_update", "plan": {"type": "items", "entries": []}}
    assert h2.update(update)[0]["entry"] == {"kind": "update", "update": update}


def test_display_terminal_updates_leave_the_transcript_alone(h2) -> None:
    """agent/serving/display_terminals.py shows them as terminal output; an entry per chunk would
    grow the transcript without end."""
    assert h2.update({"sessionUpdate": "terminal_update", "terminalId": "t", "command": "ls"}) == []
    assert (
        h2.update({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "aGk="})
        == []
    )
    assert h2.entries() == []


def test_a_queued_prompt_the_agent_never_took_up_is_marked_dropped(h2) -> None:
    h2.prompt([text("first")])
    h2.prompt([text("second")], queued=True)
    h2.update(msg("user_message", "u1", content=[text("first")]))
    h2._track(h2.state.settle_prompts())  # the work ended (cancelled) before the second ran
    second = h2.entries()[1]
    assert second.get("dropped") is True and "queued" not in second
    h2.prompt([text("third")])
    h2.update(msg("user_message", "u3", content=[text("third")]))
    assert h2.entries()[2]["messageId"] == "u3"  # the echo is the new prompt's, not the second's


def test_a_queued_prompt_reads_where_its_wait_ended_not_before_the_reply_it_waited_for(h2) -> None:
    """A prompt queued at index 1 while the first turn runs keeps its index, but the first
    turn's reply comes after it: ``waitedUntil`` says it reads after that reply."""
    h2.prompt([text("first")])
    h2.prompt([text("second")], queued=True)
    h2.prompt([text("third")], queued=True)
    h2.update(msg("user_message", "u1", content=[text("first")]))
    h2.update(msg("agent_message", "a1", content=[text("the first's answer")]))
    h2.update(msg("user_message", "u2", content=[text("second")]))
    assert h2.entries()[1]["waitedUntil"] == 4  # after the first's answer (entry 3)
    assert "waitedUntil" not in h2.entries()[0]  # never queued
    h2.update(msg("agent_message", "a2", content=[text("the second's answer")]))
    h2._track(h2.state.settle_prompts())  # cancelled before the third ran
    third = h2.entries()[2]
    assert third.get("dropped") is True and third["waitedUntil"] == 5
