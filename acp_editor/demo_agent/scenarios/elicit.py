"""Scenarios where the demo agent asks the user something (ACP elicitation): a form, or consent
to open a web page. Each asks only in a mode the client advertised and says in its reply what
the user answered, so a viewer (and a test) sees the whole round trip."""

from __future__ import annotations

import json
from typing import Any

from acp_editor.demo_agent.turn.prompt_turn import PERMISSION_TIMEOUT, Turn

FORM_MESSAGE = "How should I go about the refactoring?"
FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "strategy": {
            "type": "string",
            "title": "Strategy",
            "oneOf": [
                {"const": "careful", "title": "Careful: small steps, tests first"},
                {"const": "quick", "title": "Quick: one sweep"},
            ],
            "default": "careful",
        },
        "files": {"type": "integer", "title": "At most this many files", "minimum": 1},
        "notify": {"type": "boolean", "title": "Tell me when done", "default": True},
        "name": {"type": "string", "title": "Branch name", "maxLength": 40},
    },
    "required": ["strategy"],
}
PAGE_URL = "https://example.com/acp-editor-demo/sign-in"
PAGE_MESSAGE = "Sign in to the demo service so I can read your issues."


async def ask_form(turn: Turn) -> None:
    """A form: a choice, a number, a yes/no and a text, one of them required."""
    if "form" not in turn.caps.elicitation:
        await turn.stream("agent_message_chunk", "This client shows no forms, so I did not ask.")
        return
    result = await _elicit(
        turn, {"mode": "form", "message": FORM_MESSAGE, "requestedSchema": FORM_SCHEMA}
    )
    await turn.stream("agent_message_chunk", f"Form answered: {_said(result)}")


async def ask_page(turn: Turn) -> None:
    """Consent to open a web page (URL mode), then ``elicitation/complete`` when accepted, as an
    agent does once the page's work is done."""
    if "url" not in turn.caps.elicitation:
        await turn.stream(
            "agent_message_chunk", "This client opens no web pages, so I did not ask."
        )
        return
    elicitation_id = turn.new_id("page")
    params = {
        "mode": "url",
        "elicitationId": elicitation_id,
        "url": PAGE_URL,
        "message": PAGE_MESSAGE,
    }
    result = await _elicit(turn, params)
    if isinstance(result, dict) and result.get("action") == "accept":
        await turn.peer.notify("elicitation/complete", {"elicitationId": elicitation_id})
    await turn.stream("agent_message_chunk", f"Web page answered: {_said(result)}")


async def _elicit(turn: Turn, params: dict[str, Any]) -> Any:
    return await turn.peer.request(
        "elicitation/create",
        {"sessionId": turn.session.session_id, **params},
        timeout=PERMISSION_TIMEOUT,
    )


def _said(result: Any) -> str:
    """The answer, on one line: ``accept {"strategy": "careful"}``, ``decline``..."""
    if not isinstance(result, dict):
        return f"no answer ({result!r})"
    action = str(result.get("action"))
    content = result.get("content")
    return f"{action} {json.dumps(content, sort_keys=True)}" if content else action
