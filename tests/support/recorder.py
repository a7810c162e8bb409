"""A front end for tests: records every callback and answers permissions by option kind."""

from __future__ import annotations

import asyncio
from typing import Any

from acp_editor.agent.frontend import Frontend
from acp_editor.session.reducer import apply_change, empty_snapshot
from acp_editor.session.state import SessionView


class Recorder(Frontend):
    """A front end that records everything and answers permissions by option kind."""

    def __init__(
        self, answer_kind: str | None = "allow_once", release: asyncio.Event | None = None
    ) -> None:
        self.answer_kind = answer_kind
        """The option kind to choose; None leaves the dialog open until cancelled."""
        self.release = release
        """When given, the "user" answers only once it is set."""
        self.changes: dict[str, list[dict[str, Any]]] = {}
        self.mirrors: dict[str, dict[str, Any]] = {}
        self.permissions: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.permission_cancelled = 0
        self.accessed: list[tuple[str, str]] = []
        self.output: dict[str, str] = {}
        self.exits: list[tuple[int | None, str, bool]] = []
        self.notices: list[str] = []
        self.words: list[dict[str, str] | None] = []
        """Each permission question's own words (ACP v2 title and description), in order."""
        self.asked = asyncio.Event()

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        session_id = state.session_id
        self.changes.setdefault(session_id, []).extend(changes)
        mirror = self.mirrors.setdefault(session_id, empty_snapshot(session_id, 0))
        for change in changes:
            apply_change(mirror, change)

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        self.permissions.append((tool_call, options))
        self.words.append(words)
        self.asked.set()
        if self.release is not None:
            await self.release.wait()
        if self.answer_kind is None:
            try:
                await asyncio.sleep(3600)  # a dialog nobody answers: it ends only when cancelled
            except asyncio.CancelledError:
                self.permission_cancelled += 1
                raise
        for option in options:
            if option.get("kind") == self.answer_kind:
                return str(option["optionId"])
        return None

    def notice(self, message: str) -> None:
        self.notices.append(message)

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        self.accessed.append((kind, path))

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        self.output[terminal_id] = self.output.get(terminal_id, "") + text

    def agent_exited(
        self, agent: str, returncode: int | None, stderr_tail: str, expected: bool
    ) -> None:
        self.exits.append((returncode, stderr_tail, expected))

    def of_type(self, session_id: str, kind: str) -> list[dict[str, Any]]:
        return [c for c in self.changes.get(session_id, []) if c.get("type") == kind]
