"""The editor side's view of review: what it reads, and the user's decisions and saves.

Review's owner (``review.owner.Review``) implements it; the editor side holds review as this
view, never the queue itself, so it reads hunks and groups and changes them only through the
user's decisions (``tests/unit/test_architecture.py`` checks both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.queue.review_queue import Mode


class ReviewView(Protocol):
    """The editor side's view of review: what it may read, and the user's decisions and saves.
    Nothing of the queue's own parts: hunks and groups are read, never changed, here."""

    @property
    def mode(self) -> Mode: ...

    def hunks(self) -> list[ReviewHunk]: ...

    def of_path(self, path: str) -> list[ReviewHunk]:
        """One file's hunks, oldest first."""
        ...

    def known(self, path: str) -> str | None:
        """The file's text as review last saw it (where its hunks' lines are counted)."""
        ...

    def select(
        self,
        *,
        hunk_ids: Iterable[str] | None = None,
        path: str | None = None,
        tool_call_id: str | None = None,
        session_id: str | None = None,
    ) -> list[ReviewHunk]: ...

    def groups(self) -> list[ReviewGroup]: ...

    def looking(self, session_id: str) -> bool:
        """Whether the session's turn is still looked at: its changes may not all be in
        review yet (a turn's end looks once more after the agent said it ended)."""
        ...

    async def decide(self, hunks: list[ReviewHunk], accept: bool) -> list[dict[str, Any]]: ...

    async def decide_groups(
        self, groups: list[ReviewGroup], accept: bool
    ) -> list[dict[str, Any]]: ...

    def saved_by_editor(self, path: Path, text: str) -> None:
        """The editor saved ``text`` to ``path``: not a change of the agent's."""
        ...
