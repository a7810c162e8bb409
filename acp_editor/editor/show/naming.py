"""Which session and agent a plain editor's message is about, when more than one session is live.

A plain editor has a message line and no list of sessions: with two sessions live, "The agent
asks permission" or "turn ended" could be either's. Then its questions and turn ends name the
session (its title, else a short id) and its agent (its name); with one session they stay as
short as they were. A subagent's session is its parent's work, so it names its top session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.show.lineage import Lineage
    from acp_editor.editor.show.status import AgentStatuses

SHORT_ID = 8
"""Characters of a session id shown for an untitled session (more when two live ids share
them)."""


class SessionNames:
    def __init__(self, slot: AgentSlot, statuses: AgentStatuses, lineage: Lineage) -> None:
        self.slot = slot
        self.statuses = statuses
        self.lineage = lineage

    def live(self) -> list[str]:
        """The open sessions the user started, in every agent (not subagents' sessions)."""
        found = []
        for agent in self.slot.agents.values():
            for session_id in agent.session_ids():
                state = agent.session_state(session_id)
                if state is not None and state.parent is None:
                    found.append(session_id)
        return found

    def several(self) -> bool:
        return len(self.live()) > 1

    def label(self, session_id: str) -> str | None:
        """``session “Fix the tests” (Claude Code)`` while several sessions are live (a
        subagent's: its top session's), else None."""
        live = self.live()
        if len(live) < 2:
            return None
        top = self.lineage.root_of(session_id)
        state = self.slot.session_state(top)
        title = state.title() if state is not None else None
        name = f"“{title}”" if title else short_id(top, live)
        agent = state.agent if state is not None else None
        return f"session {name} ({self.agent_name(agent)})" if agent else f"session {name}"

    def agent_name(self, agent_id: str) -> str:
        """The name the agent gave itself (``agentInfo``: its title, else its name), with its id
        when another running agent gives the same name; else its id."""
        name = self._given_name(agent_id)
        if name is None:
            return agent_id
        others = (self._given_name(other) for other in self.slot.agents if other != agent_id)
        return f"{name} [{agent_id}]" if name in others else name

    def _given_name(self, agent_id: str) -> str | None:
        status = self.statuses.get(agent_id)
        info = status.current.get("agentInfo") if status is not None else None
        for key in ("title", "name"):
            value = info.get(key) if isinstance(info, dict) else None
            if isinstance(value, str) and value.strip():
                return value.strip()
        return None


def short_id(session_id: str, live: list[str]) -> str:
    """The first ``SHORT_ID`` characters of the id, or as many more as tell it from the other
    live ids (a short id whole)."""
    if len(session_id) <= SHORT_ID + 4:
        return session_id
    n = SHORT_ID
    while n < len(session_id) and any(
        other != session_id and other[:n] == session_id[:n] for other in live
    ):
        n += 4
    return session_id[:n]
