"""A v1 session's foreground work, reported by us: v2 agents say it themselves (``state_update``:
running, idle, requires_action); a v1 agent says nothing, so editors could not tell a session
that works from one that waits for the user. The server knows: a prompt is out, or a permission
question waits for the user. Reported the v2 way, so editors read one field for both."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from acp_editor.agent.sessions import Session


def changes(
    session: Session, stop_reason: str | None = None, usage: Any = None
) -> list[dict[str, Any]]:
    """The session's run state as it is now (``stop_reason`` and ``usage``: of the turn that
    just ended, from its ``PromptResponse``), as state changes; none for a v2 session, or when
    nothing changed. A subagent's is what its parent's agent reported, unless a question of
    its waits for the user."""
    if session.state.protocol_version >= 2:
        return []
    update: dict[str, Any] = {"sessionUpdate": "state_update"}
    if session.questions > 0:
        update["state"] = "requires_action"
    elif session.parent is not None:
        if session.reported is None:
            return []
        update.update(session.reported)
    elif session.prompting:
        update["state"] = "running"
    else:
        update["state"] = "idle"
        if stop_reason is not None:
            update["stopReason"] = stop_reason
        if isinstance(usage, dict):
            update["usage"] = usage
    return session.state.apply_update(update)
