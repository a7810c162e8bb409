"""One ACP session as the client tracks it around the pure state."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.agent.prompting import Foreground

if TYPE_CHECKING:
    from acp_editor.session.state import SessionState


@dataclass
class Waiting:
    """v1: a prompt waiting for the turn before it to end (``agent.calls.prompt_queue``)."""

    index: int
    """Its message entry in the session's transcript."""
    blocks: list[dict[str, Any]]
    go: asyncio.Future[bool] = field(default_factory=asyncio.Future)
    """True: its turn has come; False: withdrawn."""


@dataclass
class Session:
    id: str
    cwd: str
    state: SessionState
    additional_directories: list[str] = field(default_factory=list)
    prompts: int = 0
    """Prompts sent and not over yet: more than one when v2 prompts were queued."""
    starting: int = 0
    """Prompts whose turn is being set up (checkpoints) before they are sent."""
    waiting: list[Waiting] = field(default_factory=list)
    """v1: prompts waiting for the turn before them to end (``agent.calls.prompt_queue``)."""
    foreground: Foreground = field(default_factory=Foreground)
    cancelling: bool = False
    """Set by ``cancel`` until the prompt's response arrives: new permission requests are then
    answered ``cancelled`` at once."""
    permissions: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    """Pending permission requests: the future resolves to the outcome sent to the agent."""
    questions: int = 0
    """Permission questions the user has not answered yet (v1's run state: ``agent.run_state``)."""
    parent: str | None = None
    """A subagent's session: the session whose agent started it. We never prompt it; the
    parent's agent reports its work (``subagent_update``) and it asks and reads as any other."""
    reported: dict[str, Any] | None = None
    """A subagent's foreground work as its parent's agent last reported it (``state``)."""

    @property
    def prompting(self) -> bool:
        """Whether a turn runs (one or more prompts not over yet)."""
        return self.prompts > 0

    @property
    def roots(self) -> list[str]:
        return [self.cwd, *self.additional_directories]
