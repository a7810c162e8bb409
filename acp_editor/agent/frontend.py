"""What the ACP client needs from whoever shows things to the user: the agent side's one view of
its front end.

Two front ends implement it: the terminal view of ``acp-editor demo`` and the editor link. Every
method has a harmless default, so a front end subclasses ``Frontend`` and overrides only what it
renders (a test's fake front end, too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from acp_editor.agent.auth_methods import TerminalSignIn
    from acp_editor.review.owner import ReviewEvent
    from acp_editor.session.state import SessionView


class Frontend(Protocol):
    """Callbacks from the ACP client. Sync ones are called in the agent's message order."""

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        """State changes of a session, minimal and in arrival order (see ``session.state``).

        ``state`` is the session's state after them, to read (never to keep or change)."""
        return None

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        """Ask the user; return the chosen ``optionId`` or None when the dialog was dismissed.

        ``words``: an ACP v2 request's own ``title`` (and ``description``), to show before what
        the tool call says (None on v1: the tool call's title is the question).

        The answer is checked against ``options`` by the caller. The task is cancelled when the
        turn is cancelled: withdraw the dialog then.
        """
        return None

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        """Pick one of agent ``agent``'s sign-in methods (each with its ``type``: ``agent`` or
        ``terminal``), or None to give up."""
        return None

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        """Run a terminal sign-in where the user can type, and return its exit status once it
        ends (None: it could not run, or the user gave up). The task is cancelled if nobody
        waits any more."""
        return None

    def auth_status(self, agent: str, status: dict[str, Any]) -> None:
        """The agent says whether it can start sessions without the user signing in
        (``auth/status``, ``auth/status_update``): ``{"state", "label"?, "accounts"?}``."""
        return None

    async def elicit(self, question: dict[str, Any]) -> dict[str, Any] | None:
        """Ask what an ``elicitation/create`` asks (its params, checked, plus ``agent``: the
        agent's name); return ``{"action", "content"?}``, or None when dismissed (cancel). Only
        modes listed in ``AgentConfig.elicitation_modes`` come here. The task is cancelled when
        the agent withdraws the request or the turn is cancelled: withdraw the question then."""
        return None

    def elicitation_completed(self, elicitation_id: str) -> None:
        """The agent says the web page of an accepted URL elicitation has done its work."""
        return None

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        """The agent reads (``"read"``) or writes (``"write"``) ``path`` through us."""
        return None

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        """Live output of a terminal the agent started."""
        return None

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        """A terminal's command ended with ``{"exitCode", "signal"}``."""
        return None

    def agent_exited(
        self, agent: str, returncode: int | None, stderr_tail: str, expected: bool
    ) -> None:
        """The agent process ended; ``expected`` is False for a crash."""
        return None

    def notice(self, message: str) -> None:
        """Something the user should know that asks nothing of them (a session that had to
        start without the editor-context server): shown once, without taking focus."""
        return None

    def review_changed(self, event: ReviewEvent) -> None:
        """Review changed (``review.owner``): a change the agent made itself was found, hunks or
        groups appeared or changed state, or there is something to tell of it. Review's one
        way to its front end."""
        return None


class SilentFrontend(Frontend):
    """Shows nothing and answers every question with "no": for scripts and tests."""
