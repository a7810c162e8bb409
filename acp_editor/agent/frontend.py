"""What the ACP client needs from whoever shows things to the user.

Two front ends implement this: the terminal view of ``acp-editor demo`` and the editor link. Every
method has a harmless default, so a front end overrides only what it renders.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from acp_editor.session.state import SessionState


class Frontend:
    """Callbacks from the ACP client. Sync ones are called in the agent's message order."""

    def session_changed(self, session_id: str, changes: list[dict[str, Any]]) -> None:
        """State changes of a session, minimal and in arrival order (see ``session.state``)."""

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Ask the user; return the chosen ``optionId`` or None when the dialog was dismissed.

        The task is cancelled when the turn is cancelled: withdraw the dialog then.
        """
        return None

    async def choose_auth_method(self, methods: list[dict[str, Any]]) -> str | None:
        """Pick one of the agent's (agent-type) auth methods, or None to give up."""
        return None

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        """The agent reads (``"read"``) or writes (``"write"``) ``path`` through us."""

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        """Live output of a terminal the agent started."""

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        """A terminal's command ended with ``{"exitCode", "signal"}``."""

    def agent_exited(self, returncode: int | None, stderr_tail: str, expected: bool) -> None:
        """The agent process ended; ``expected`` is False for a crash."""

    def review_changed(self, hunks: list[Any]) -> None:
        """Review hunks (``review.queue.ReviewHunk``) appeared or changed state."""


@dataclass
class Session:
    """One ACP session as the client tracks it around the pure state."""

    id: str
    cwd: str
    state: SessionState
    additional_directories: list[str] = field(default_factory=list)
    prompting: bool = False
    cancelling: bool = False
    """Set by ``cancel`` until the prompt's response arrives: new permission requests are then
    answered ``cancelled`` at once."""
    permissions: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    """Pending permission requests: the future resolves to the outcome sent to the agent."""
