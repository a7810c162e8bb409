"""Answering ``elicitation/create``: the agent asks the user to fill in a form or to open a web
page. The front end asks; the answer is checked here, once, before the agent gets it.

Whatever goes wrong ends as ``cancel``, never as an ``accept`` the user did not give: a dismissed
question, a front end that failed, a form answered with values that do not fit its schema, a turn
the user cancelled. A request the agent withdraws (``$/cancel_request``) withdraws the question.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from acp_editor.errors import InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol import elicitation

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend

log = get_logger(__name__)

CANCEL: dict[str, Any] = {"action": "cancel"}


class Elicitor:
    def __init__(
        self,
        frontend: Frontend,
        modes: Sequence[str],
        agent_name: Callable[[], str],
        known_session: Callable[[str], bool],
    ) -> None:
        self.frontend = frontend
        self.modes = modes
        """The modes advertised in ``clientCapabilities.elicitation``: the only ones served."""
        self.agent_name = agent_name
        self.known_session = known_session
        self._asking: dict[asyncio.Task[Any], str | None] = {}  # question -> its session
        self._withdrawn: set[asyncio.Task[Any]] = set()
        self._open_urls: set[str] = set()
        """``elicitationId`` of URL elicitations not completed yet."""

    async def create(self, params: Any) -> dict[str, Any]:
        request = elicitation.checked_request(params, self.modes)
        session_id = request.get("sessionId")
        if isinstance(session_id, str) and not self.known_session(session_id):
            raise InvalidParams(f"unknown session: {session_id!r}")
        question = {**request, "agent": self.agent_name()}
        asking = asyncio.ensure_future(self.frontend.elicit(question))
        self._asking[asking] = session_id if isinstance(session_id, str) else None
        try:
            answer = await asking
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if asking in self._withdrawn and not (current and current.cancelling()):
                return dict(CANCEL)  # the user cancelled the turn
            raise  # the agent withdrew the request: the question went with it
        except Exception as exc:  # a front end that fails must not fail the agent's request
            log.warning("asking the user (%s elicitation) failed: %s", request["mode"], exc)
            return dict(CANCEL)
        finally:
            self._asking.pop(asking, None)
            self._withdrawn.discard(asking)
        checked = checked_answer(request, answer)
        if request["mode"] == "url" and checked["action"] == "accept":
            self._open_urls.add(request["elicitationId"])
        return checked

    def complete(self, params: Any) -> None:
        """``elicitation/complete``: the page's task is done; unknown or finished ids are
        ignored, as the spec asks."""
        elicitation_id = params.get("elicitationId") if isinstance(params, dict) else None
        if elicitation_id not in self._open_urls:
            log.info("elicitation/complete for an unknown elicitation ignored: %r", elicitation_id)
            return
        self._open_urls.discard(elicitation_id)
        self.frontend.elicitation_completed(elicitation_id)

    def cancel(self, session_id: str) -> None:
        """The user cancelled the session's turn: its questions are withdrawn, answered
        ``cancel``."""
        for asking, owner in list(self._asking.items()):
            if owner == session_id and not asking.done():
                self._withdrawn.add(asking)
                asking.cancel()


def checked_answer(request: dict[str, Any], answer: Any) -> dict[str, Any]:
    """The front end's answer as the agent may get it: an action the spec knows, and for an
    accepted form answers that fit its schema (else ``cancel``)."""
    action = answer.get("action") if isinstance(answer, dict) else None
    if action not in elicitation.ACTIONS:
        if answer is not None:
            log.warning("an elicitation answer without a known action: %r", answer)
        return dict(CANCEL)
    if action != "accept":
        return {"action": action}
    if request["mode"] == "url":
        return {"action": "accept"}
    content = answer.get("content")
    problems = elicitation.answer_problems(request.get("requestedSchema") or {}, content)
    if problems:
        log.warning("form answers that do not fit the form, not sent: %s", "; ".join(problems))
        return dict(CANCEL)
    return {"action": "accept", "content": content}
