"""v1: prompts sent while a turn runs wait their turn here, visibly, instead of reaching the agent
as a second ``session/prompt`` at once (v1 agents run one turn at a time; what a second
concurrent prompt does is up to each agent).

A waiting prompt is in the transcript at once, as a user message marked ``queued`` (the same mark
a v2 agent's own queue gives it), so every editor shows it. Until its turn it can be edited or
withdrawn (it is then marked ``dropped``, and its ``acp/prompt`` answers ``cancelled``); when the
turn before it ends it goes, with whatever it then says. A cancel keeps the waiting prompts (the
next one goes after the cancelled turn) unless it is asked to drop them. v2 agents keep their own
queue (``agent/prompting.py``): nothing waits here for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.agent.sessions import Waiting
from acp_editor.errors import InvalidParams

if TYPE_CHECKING:
    from acp_editor.agent.sessions import Session


def busy(session: Session) -> bool:
    """Whether a prompt now has to wait: a turn runs, one is starting, or others wait already."""
    return session.prompts > 0 or session.starting > 0 or bool(session.waiting)


def enqueue(session: Session, blocks: list[dict[str, Any]]) -> tuple[Waiting, list[dict[str, Any]]]:
    """The prompt joins the queue; the changes that show it (a ``queued`` user message)."""
    index = session.state.entry_count()
    changes = session.state.add_user_prompt(blocks, None, queued=True)
    waiting = Waiting(index, blocks)
    session.waiting.append(waiting)
    return waiting, changes


def next_turn(session: Session) -> None:
    """The turn is over: the first waiting prompt goes (it leaves the queue once it has started,
    so a prompt sent meanwhile still waits behind it)."""
    if session.waiting and not session.waiting[0].go.done():
        session.waiting[0].go.set_result(True)


def started(session: Session, waiting: Waiting) -> None:
    if waiting in session.waiting:
        session.waiting.remove(waiting)


def find(session: Session, index: int) -> Waiting:
    for waiting in session.waiting:
        if waiting.index == index and not waiting.go.done():
            return waiting
    raise InvalidParams(f"entry {index} is not a prompt waiting for its turn")


def edit(session: Session, index: int, blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A waiting prompt says something else; the changes that show it."""
    waiting = find(session, index)
    waiting.blocks = blocks
    return session.state.edit_queued(index, blocks)


def withdraw(session: Session, index: int) -> list[dict[str, Any]]:
    """A waiting prompt will not go; the changes that show it ``dropped``."""
    waiting = find(session, index)
    session.waiting.remove(waiting)
    waiting.go.set_result(False)
    return session.state.drop_queued(index)


def withdraw_all(session: Session) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = []
    for waiting in [w for w in session.waiting if not w.go.done()]:
        changes += withdraw(session, waiting.index)
    return changes
