"""Which session started which: subagents' sessions and their parents, as the editor is told.

Learned from the session changes that pass through the front end (a child's state names its
parent; the parent's ``subagents`` change describes each child), so every part that shows a
child (follow-along, questions, plain editors' messages) can say whose it is without reaching
into the agent side.
"""

from __future__ import annotations

from typing import Any


class Lineage:
    def __init__(self) -> None:
        self._parents: dict[str, str] = {}
        self._children: dict[str, dict[str, Any]] = {}  # child id -> its record, as last told

    def seen(self, session_id: str, parent: str | None) -> None:
        if parent is not None:
            self._parents[session_id] = parent

    def subagents_changed(self, records: Any) -> None:
        """A parent's whole ``subagents`` value (a ``subagents`` change)."""
        for child_id, record in (records or {}).items() if isinstance(records, dict) else ():
            if isinstance(record, dict):
                self._children[child_id] = record

    def parent_of(self, session_id: str) -> str | None:
        return self._parents.get(session_id)

    def root_of(self, session_id: str) -> str:
        """The top session of a subagent's line (a subagent may start its own): the one the
        user prompted, whose place in front a child shares."""
        seen = {session_id}
        while (parent := self._parents.get(session_id)) is not None and parent not in seen:
            seen.add(parent)
            session_id = parent
        return session_id

    def record(self, session_id: str) -> dict[str, Any] | None:
        return self._children.get(session_id)

    def title(self, session_id: str) -> str | None:
        """A child's title as its parent's agent gave it (None: untitled, or not a child)."""
        title = (self._children.get(session_id) or {}).get("title")
        return title if isinstance(title, str) and title.strip() else None

    def subagent(self, session_id: str) -> dict[str, Any] | None:
        """What the rich messages about a child's work carry (``acp/follow``,
        ``acp/requestPermission``): its parent and title; None for a top session."""
        parent = self._parents.get(session_id)
        if parent is None:
            return None
        title = self.title(session_id)
        return {"parentSessionId": parent, **({"title": title} if title else {})}

    def label(self, session_id: str) -> str | None:
        """How a plain editor's message names a child ("Subagent “Explore”"), else None."""
        if session_id not in self._parents:
            return None
        title = self.title(session_id)
        return f"Subagent “{title}”" if title else "A subagent"
