"""Review's share of one agent: all the agent side sees of review.

Review's owner builds one for each agent it is handed to (``review.owner.Review.for_agent``):
the documents the agent's writes go through, its sessions' turns checkpointed and looked at (the
one turn watch every agent shares), and undoing them. The agent side calls its methods, never
into its parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from acp_editor.review.finding.intake import Isolated, ReviewingDocuments
    from acp_editor.review.finding.looks import Looks
    from acp_editor.review.finding.turns import TurnWatch
    from acp_editor.review.queue.review_queue import ReviewQueue
    from acp_editor.review.undo import Restore, TurnUndo
    from acp_editor.session.state import SessionView


@dataclass(frozen=True)
class AgentReview:
    """Review's share of one agent, all the agent side sees of review: the documents its
    writes go through, its turns checkpointed and looked at, undoing them. Its parts are
    review's own: the agent side calls the methods below, never into a part."""

    turns: TurnWatch
    documents: ReviewingDocuments
    """The ``DocumentSource`` the agent's ``fs/*`` writes go through."""
    looks: Looks
    undo: TurnUndo
    queue: ReviewQueue
    isolated: Isolated

    async def begin_turn(self, session_id: str, roots: list[str]) -> int | None:
        """Checkpoint the session's roots before its turn (from what the file watch kept
        between turns, where it did) and watch them: the turn's number, None when checkpoints
        are off or the session runs in a worktree of its own (reviewed when brought back)."""
        if roots and self.isolated.holds(roots[0]):
            return None
        looks = self.looks.session(session_id)
        await looks.adopt(roots)
        turn = await self.turns.begin(session_id, roots, looks.begin_paths(roots), looks)
        if turn is None:
            return None
        await looks.watch()
        return turn.number

    async def end_turn(self, session_id: str, roots: list[str]) -> None:
        """The turn is over: what is left of its changes goes to review."""
        if roots and self.isolated.holds(roots[0]):
            return
        looks = self.looks.session(session_id)
        where = await looks.end_turn(roots)
        await self.looks.settle()  # looks at the turn's last tool calls come first
        await self.turns.end(session_id, looks.late(roots), where)

    def observe(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """Session changes as they arrive (a tool call that ended may have changed files)."""
        self.looks.observe(state, changes)

    def session_closed(self, session_id: str) -> None:
        """A session of the agent's is gone: its watch stops."""
        self.looks.unwatch(session_id)

    async def settle(self) -> None:
        """Wait for the looks under way (tests, and before answering a snapshot)."""
        await self.looks.settle()

    async def close(self) -> None:
        """The agent is gone: every watch of its sessions stops."""
        await self.looks.close()

    def unreported_rejections(self, session_id: str) -> str | None:
        """A note on the changes the user rejected since the session's last prompt (then
        reported: None next time), for an agent told of them."""
        return self.queue.unreported_rejections(session_id)

    async def undoable(self, current: str | None, roots: Sequence[str]) -> str:
        """The session a turn is undone in when the editor names none (``TurnUndo.undoable``)."""
        return await self.undo.undoable(current, roots)

    async def restore_plan(
        self, session_id: str, number: int | None, roots: Sequence[str]
    ) -> tuple[int, list[Restore]]:
        """What undoing the session's turn ``number`` (None: the last) would put back."""
        return await self.undo.plan(session_id, number, roots)

    async def restore(self, plan: list[Restore], session_id: str, number: int) -> None:
        """Put every file of the plan back as before turn ``number``; the hunks of what it
        took away withdrawn."""
        await self.undo.restore(plan, session_id, number)
