"""The demo agent's memory of sessions between runs: one JSON file per session in its state
directory, so ``session/list`` and ``session/load`` work after a restart, and ``session/delete``
forgets for good."""

from __future__ import annotations

import json
import os

from acp_editor.demo_agent.turn.prompt_turn import AgentSession
from acp_editor.log import get_logger

log = get_logger(__name__)


def load_sessions(state_dir: str | None) -> dict[str, AgentSession]:
    """Sessions an earlier run of this agent kept in ``state_dir``: loadable, not active."""
    sessions: dict[str, AgentSession] = {}
    if state_dir is None or not os.path.isdir(state_dir):
        return sessions
    for name in sorted(os.listdir(state_dir)):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(state_dir, name), encoding="utf-8") as f:
                data = json.load(f)
            session = AgentSession(session_id=data["sessionId"], cwd=data["cwd"], active=False)
            session.history = [(str(role), str(text)) for role, text in data["history"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("skipping saved session %s: %s", name, exc)
            continue
        sessions[session.session_id] = session
    return sessions


def save_session(state_dir: str | None, session: AgentSession) -> None:
    if state_dir is None:
        return
    os.makedirs(state_dir, exist_ok=True)
    data = {"sessionId": session.session_id, "cwd": session.cwd, "history": session.history}
    with open(os.path.join(state_dir, f"{session.session_id}.json"), "w", encoding="utf-8") as f:
        json.dump(data, f)


def delete_saved(state_dir: str | None, session_id: str) -> None:
    if state_dir is None:
        return
    path = os.path.join(state_dir, f"{session_id}.json")
    if os.path.exists(path):
        os.remove(path)
