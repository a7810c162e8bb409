"""What review tells the front end, as it happens: one ``ReviewEvent`` at a time.

Review's owner (``review.owner``) tells every one of them through one callable, the front end's
``review_changed``, in the order they happen: a change found on disk before the hunks recorded
for it (docs/architecture.md, "The path of a change an agent makes itself", crossing 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.queue.hunk import ReviewHunk


@dataclass(frozen=True)
class FoundChange:
    """A file an agent changed itself, found on disk during ``tool_call_id`` (None: the turn).
    ``None`` texts: the file did not / does not exist. Told before the hunks recorded for it."""

    kind: Literal["found"] = field(default="found", init=False)
    session_id: str
    tool_call_id: str | None
    path: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class HunksChanged:
    """Hunks that appeared or changed state."""

    kind: Literal["hunks"] = field(default="hunks", init=False)
    hunks: list[ReviewHunk]
    restored: bool = False
    """What an earlier run left pending: shown, never followed to."""


@dataclass(frozen=True)
class GroupsChanged:
    """Groups of bulk changes that appeared, grew or were decided."""

    kind: Literal["groups"] = field(default="groups", init=False)
    groups: list[ReviewGroup]


@dataclass(frozen=True)
class ReviewNotice:
    """Something the user should know (changes that could not be reviewed)."""

    kind: Literal["notice"] = field(default="notice", init=False)
    message: str


ReviewEvent = FoundChange | HunksChanged | GroupsChanged | ReviewNotice
"""What changed in review: one of these, told as it happens, told apart by its ``kind`` (so a
front end need not import review's classes, which load after ``initialize``)."""

Listener = Callable[[ReviewEvent], None]
