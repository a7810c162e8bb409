"""Reading one ``session/update`` before the state takes it in: what makes an update unusable
(``InvalidUpdate``, raised before anything changes), and its fields as the state needs them."""

from __future__ import annotations

from typing import Any

from acp_editor.session.reducer import json_copy


class InvalidUpdate(ValueError):
    """An update the state cannot use at all (as opposed to one it merely does not understand).

    Raised before anything changes, so the state is untouched and the caller can log the update
    and carry on with the session.
    """


def without_tag(update: dict[str, Any]) -> dict[str, Any]:
    return {k: json_copy(v) for k, v in update.items() if k != "sessionUpdate"}


def require_tool_call_id(update: dict[str, Any], what: str) -> str:
    tool_call_id = update.get("toolCallId")
    if not isinstance(tool_call_id, str):
        raise InvalidUpdate(f"{what} needs a string toolCallId, got {tool_call_id!r}")
    return tool_call_id


def plan_id(update: dict[str, Any]) -> str | None:
    plan = update.get("plan")
    plan_id = plan.get("planId") if isinstance(plan, dict) else None
    return plan_id if isinstance(plan_id, str) else None


def require_content(update: dict[str, Any], what: str) -> Any:
    content = update.get("content")
    if content is None:
        raise InvalidUpdate(f"{what} has no content")
    return content
