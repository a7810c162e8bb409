"""A v1 session's run state, reported by us the v2 way: running while a prompt is out, waiting
for the user while a permission question is open, idle with the turn's stop reason after; a v2
session's is the agent's own."""

from __future__ import annotations

from acp_editor.agent import run_state
from acp_editor.agent.sessions import Session
from acp_editor.session.state import SessionState


def session(version: int = 1) -> Session:
    return Session("s1", "/w", SessionState("s1", version))


def test_a_v1_turn_runs_waits_for_the_user_and_ends_idle_with_its_stop_reason() -> None:
    s = session()
    s.prompts = 1
    assert run_state.changes(s) == [{"type": "run_state", "runState": {"state": "running"}}]
    assert run_state.changes(s) == []  # nothing new: nothing sent
    s.questions = 1
    assert run_state.changes(s)[0]["runState"] == {"state": "requires_action"}
    s.questions = 0
    assert run_state.changes(s)[0]["runState"] == {"state": "running"}
    s.prompts = 0
    ended = run_state.changes(s, "end_turn")
    assert ended == [{"type": "run_state", "runState": {"state": "idle", "stopReason": "end_turn"}}]
    assert s.state.snapshot()["runState"] == {"state": "idle", "stopReason": "end_turn"}


def test_a_v2_sessions_run_state_is_the_agents_own() -> None:
    s = session(version=2)
    s.prompts = 1
    assert run_state.changes(s) == []
    assert s.state.snapshot()["runState"] is None
