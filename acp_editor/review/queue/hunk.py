"""One reviewed hunk of an agent's change, and a write held for review
(``review.queue.review_queue`` decides them)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from acp_editor.errors import RpcError
from acp_editor.review.queue.anchor import Anchor, block_range, current_range, holds
from acp_editor.text.positions import path_to_uri

State = Literal["pending", "accepted", "rejected", "superseded"]
"""``superseded``: the agent changed the hunk's lines again; a new hunk holds both changes."""
FileChange = Literal["created", "deleted", None]


class ChangeRejected(RpcError):
    """The user rejected (part of) an agent's write: the agent is told what was kept."""

    CODE = -32603
    MESSAGE = "The user rejected the change"


@dataclass
class ReviewHunk:
    hunk_id: str
    session_id: str
    tool_call_id: str | None
    path: str
    anchor: Anchor
    applied: bool
    state: State = "pending"
    hint: int = 0
    message: str | None = None
    write: HeldWrite | None = None
    reported: bool = False
    """A rejection already told to the agent (``tellAgentRejections``)."""
    found_on_disk: bool = False
    """Found by comparing checkpoints (the agent or a command wrote it), not written through us."""
    file_change: FileChange = None
    """The change made or removed the whole file: rejecting it removes or restores the file."""
    exact: bool = False
    """``hint`` is, for certain, the line where the hunk's lines start in the queue's known text
    of the file (``review.queue.tracking``)."""
    lost: bool = False
    """A change the queue followed fell on the hunk's lines (the user typed in them) or left its
    place in doubt: looking for it by its lines could take a look-alike, so it is not decided."""
    sessions: tuple[str, ...] = ()
    """Every session that may have made it, when which one did is not certain (turns of several
    ran then: ``review.finding.attribution``); empty: ``session_id`` did."""
    conflicts_with: tuple[str, ...] = ()
    """Pending hunks of other sessions whose lines this change changed again (each stays its
    own: ``review.queue.review_queue`` does not fold another session's hunks into this one)."""
    made: float = field(default_factory=time.time)
    """When it was recorded (kept with it when review outlives the sidecar): undoing a turn
    that began before takes its change away (``review.undo``)."""
    supersedes: tuple[ReviewHunk, ...] = ()
    """The session's pending hunks whose lines this change changed again (now ``superseded``,
    their change held in this one): undoing the turn of this one and not of theirs brings
    them back (``review.undo``)."""

    @property
    def block(self) -> tuple[str, ...]:
        """The lines to find in the file now: the new ones of an applied hunk, else the old."""
        return self.anchor.new_lines if self.applied else self.anchor.old_lines

    def view(self, text: str | None, known: str | None = None) -> dict[str, Any]:
        """The hunk for an editor; its range in ``text`` where a decision would act: at its
        exact line when ``text`` is the queue's ``known`` text of the file, else found by its
        lines and context."""
        located = None
        if text is not None and self.state == "pending" and not self.lost:
            if self.exact and text == known and holds(text, self.block, self.hint):
                located = block_range(text, self.hint, len(self.block))
            else:
                located = current_range(text, self.anchor, self.applied, hint=self.hint)
        out: dict[str, Any] = {
            "hunkId": self.hunk_id,
            "sessionId": self.session_id,
            "toolCallId": self.tool_call_id,
            "uri": path_to_uri(self.path),
            "path": self.path,
            "state": self.state,
            "applied": self.applied,
            "oldLines": list(self.anchor.old_lines),
            "newLines": list(self.anchor.new_lines),
            "range": located,
        }
        if self.message:
            out["message"] = self.message
        if self.sessions:
            out["sessions"] = list(self.sessions)
        if self.conflicts_with:
            out["conflictsWith"] = list(self.conflicts_with)
        return out


def _new_future() -> asyncio.Future[None]:
    return asyncio.get_running_loop().create_future()


@dataclass
class HeldWrite:
    """An ``fs/write_text_file`` waiting for the user (before-write mode)."""

    hunks: list[ReviewHunk] = field(default_factory=list)
    done: asyncio.Future[None] = field(default_factory=_new_future)


def describe(hunk: ReviewHunk) -> str:
    old, new = len(hunk.anchor.old_lines), len(hunk.anchor.new_lines)
    return f"{hunk.path} near line {hunk.hint + 1} (-{old} +{new} lines)"
