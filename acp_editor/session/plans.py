"""Plans addressed by id (``plan_update`` / ``plan_removed``: v2, and v1 since the 2026-11-20
stabilisation, offered to clients that advertise ``clientCapabilities.plan``).

``plans`` holds every plan by its ``planId``; ``plan`` is the one updated last, which is what an
editor shows when it shows one plan (the old whole-``plan`` update sets only ``plan``). A plan
is ``{"type": "items", "planId", "entries"}``, ``{"type": "markdown", "planId", "content"}`` or
``{"type": "file", "planId", "uri"}``, kept verbatim (v2's plans have no ``type``).
"""

from __future__ import annotations

from typing import Any

from acp_editor.session.reducer import json_copy, json_equal
from acp_editor.session.update_fields import InvalidUpdate


def _replace(snapshot: dict[str, Any], field: str, value: Any) -> list[dict[str, Any]]:
    if json_equal(snapshot[field], value):
        return []
    return [{"type": field, field: value}]


def plan_updated(snapshot: dict[str, Any], plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The plan with that ``planId`` replaced whole, and shown."""
    plans = json_copy(snapshot["plans"]) or {}
    plans[plan["planId"]] = json_copy(plan)
    return [*_replace(snapshot, "plans", plans), *_replace(snapshot, "plan", json_copy(plan))]


def plan_removed(snapshot: dict[str, Any], update: dict[str, Any]) -> list[dict[str, Any]]:
    """``plan_removed``: the plan goes; when it was the one shown, the newest left is shown
    (or none). Removing a plan nobody announced changes nothing."""
    plan_id = update.get("planId")
    if not isinstance(plan_id, str):
        raise InvalidUpdate(f"plan_removed needs a string planId, got {plan_id!r}")
    plans: dict[str, Any] = json_copy(snapshot["plans"]) or {}
    if plan_id not in plans:
        return []
    del plans[plan_id]
    changes = _replace(snapshot, "plans", plans)
    shown = snapshot["plan"]
    if isinstance(shown, dict) and shown.get("planId") == plan_id:
        newest = json_copy(list(plans.values())[-1]) if plans else None
        changes += _replace(snapshot, "plan", newest)
    return changes
