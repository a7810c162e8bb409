"""Answering ``session/request_permission``: a rule answers, or the user does; the answer is
checked once, here.

``agent.serving.requests`` has already stored the request's tool call in the session state (in
arrival order, before anything is awaited), so the question names the tool call as the state knows
it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from acp_editor.log import get_logger
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend
    from acp_editor.agent.sessions import Session
    from acp_editor.services.permissions import PermissionPolicy

log = get_logger(__name__)


class PermissionAsker:
    def __init__(
        self,
        frontend: Frontend,
        policy: PermissionPolicy,
        waiting_changed: Callable[[Session], None] = lambda session: None,
    ) -> None:
        self.frontend = frontend
        self.policy = policy
        self._ids = itertools.count(1)
        self.waiting_changed = waiting_changed
        """Called when a question to the user starts or stops waiting (``session.questions``)."""

    async def ask(
        self,
        session: Session,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The outcome to send the agent (``session.cancelling``: cancelled at once); ``words``:
        a v2 request's own title and description, for the user."""
        if session.cancelling:
            return acp.cancelled_outcome()
        automatic = await asyncio.to_thread(self.policy.decide, session.cwd, tool_call, options)
        if automatic is not None:
            log.info("permission for %s answered by a rule: %s", tool_call.get("title"), automatic)
            return acp.selected_outcome(automatic)
        session.questions += 1
        self.waiting_changed(session)
        try:
            outcome = await self._ask_user(session, tool_call, options, words)
        finally:
            session.questions -= 1
            self.waiting_changed(session)
        kind = acp.kind_of_option(options, outcome["outcome"].get("optionId"))
        if kind is not None:
            rule = await asyncio.to_thread(self.policy.remember, session.cwd, tool_call, kind)
            if rule is not None:
                log.info("remembered for this workspace: %s", rule)
        return outcome

    async def _ask_user(
        self,
        session: Session,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None,
    ) -> dict[str, Any]:
        key = next(self._ids)
        decided: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        session.permissions[key] = decided
        asking = asyncio.ensure_future(
            self.frontend.request_permission(session.id, tool_call, options, words)
        )

        def settle(task: asyncio.Future[str | None]) -> None:
            if decided.done():
                return
            choice = None
            if not task.cancelled() and task.exception() is None:
                choice = task.result()
            elif not task.cancelled():
                log.warning("asking for permission failed: %s", task.exception())
            decided.set_result(outcome_of(choice, options, session.state.protocol_version))

        asking.add_done_callback(settle)
        try:
            return await asyncio.shield(decided)
        except asyncio.CancelledError:
            # The agent withdrew the request, or the link closed.
            if not decided.cancelled():
                raise
            return acp.cancelled_outcome()
        finally:
            session.permissions.pop(key, None)
            if not asking.done():
                asking.cancel()

    @staticmethod
    def cancel(session: Session) -> None:
        """Answer every pending permission of ``session`` with ``cancelled``."""
        for fut in list(session.permissions.values()):
            if not fut.done():
                fut.set_result(acp.cancelled_outcome())

    @staticmethod
    def abandon(session: Session) -> None:
        """The agent is gone: nobody waits for these answers any more."""
        for fut in session.permissions.values():
            if not fut.done():
                fut.cancel()


def outcome_of(
    choice: str | None, options: list[dict[str, Any]], version: int = 1
) -> dict[str, Any]:
    """The one place a front end's answer is checked: an option the agent offered, else what a
    dismissed dialog means (never an allow): on v1 the reject; on v2 the ``cancelled`` outcome,
    which schema 1.25 gives that meaning (not approved, no option selected)."""
    if choice is not None and any(o.get("optionId") == choice for o in options):
        return acp.selected_outcome(choice)
    if choice is not None:
        log.warning("the front end chose %r, which the agent did not offer: declining", choice)
    if version >= 2:
        return acp.cancelled_outcome()
    reject = acp.default_reject(options)
    return acp.selected_outcome(reject) if reject is not None else acp.cancelled_outcome()
