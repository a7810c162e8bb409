"""What the demo's terminal view says of schema 1.25's additions, as plain text: notices, a turn's
tokens and the context used, plans by id, subagents and their states, the sign-in state and
methods. Pure functions of what the session state holds (``session.markers``, ``plans``,
``subagents``), so each wording is tested on its own."""

from __future__ import annotations

from typing import Any

PLAN_MARKS = {"completed": "[x]", "in_progress": "[>]", "pending": "[ ]"}
SEVERITY_STYLES = {"error": "red", "warning": "yellow"}
"""A notice's colour by severity; any other (``info``, a future one) is cyan."""


def _number(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,}"
    return None


def notice_text(entry: dict[str, Any]) -> str:
    """``notice (warning): Title: description``."""
    description = entry.get("description")
    more = f": {description}" if isinstance(description, str) and description.strip() else ""
    return f"notice ({entry.get('severity', 'info')}): {entry.get('title')}{more}"


def notice_style(entry: dict[str, Any]) -> str:
    return SEVERITY_STYLES.get(str(entry.get("severity")), "cyan")


def tokens_text(usage: Any) -> str | None:
    """A turn's tokens (``PromptResponse.usage``), or None when it says none."""
    if not isinstance(usage, dict):
        return None
    total = _number(usage.get("totalTokens"))
    parts = [
        f"{said} {name}"
        for field, name in (
            ("inputTokens", "in"),
            ("outputTokens", "out"),
            ("thoughtTokens", "thinking"),
            ("cachedReadTokens", "cache read"),
            ("cachedWriteTokens", "cache written"),
        )
        if (said := _number(usage.get(field))) is not None
    ]
    if total is None and not parts:
        return None
    head = f"tokens: {total}" if total is not None else "tokens:"
    return f"{head} ({', '.join(parts)})" if parts else head


def context_text(usage: Any) -> str | None:
    """The context window (``usage_update``): how much is used, of what, and the cost so far."""
    if not isinstance(usage, dict):
        return None
    used, size = usage.get("used"), usage.get("size")
    if _number(used) is None:
        return None
    text = f"context: {_number(used)} tokens used"
    if _number(size) is not None and size:
        text = f"context: {_number(used)} of {_number(size)} tokens used ({used / size:.0%})"
    cost = usage.get("cost")
    if isinstance(cost, dict) and _number(cost.get("amount")) is not None:
        text += f", cost {cost['amount']:g} {cost.get('currency', '')}".rstrip()
    return text


def plan_kind(plan: dict[str, Any]) -> str:
    """``items``, ``markdown`` or ``file`` (v2's plans carry no ``type``: read by their fields)."""
    kind = plan.get("type")
    if isinstance(kind, str):
        return kind
    for field, name in (("entries", "items"), ("content", "markdown"), ("uri", "file")):
        if field in plan:
            return name
    return "unknown"


def plan_header(plan: dict[str, Any]) -> str:
    """``plan:`` for the old whole plan, ``plan p1:`` or ``plan p2 (markdown):`` by id."""
    plan_id = plan.get("planId")
    if not isinstance(plan_id, str):
        return "plan:"
    kind = plan_kind(plan)
    return f"plan {plan_id}:" if kind == "items" else f"plan {plan_id} ({kind}):"


def plan_lines(plan: dict[str, Any]) -> list[str]:
    """A plan's body, each line indented by two spaces."""
    kind = plan_kind(plan)
    if kind == "items":
        lines = []
        for entry in plan.get("entries") or []:
            if isinstance(entry, dict):
                mark = PLAN_MARKS.get(str(entry.get("status")), "[?]")
                lines.append(f"  {mark} {entry.get('content')}")
        return lines
    if kind == "markdown" and isinstance(plan.get("content"), str):
        return [f"  {line}".rstrip() for line in plan["content"].splitlines()]
    if kind == "file":
        return [f"  {plan.get('uri')}"]
    return [f"  [{kind} plan: shown generically]"]


def subagent_name(child_id: str, record: dict[str, Any] | None) -> str:
    title = (record or {}).get("title")
    return (
        f"subagent “{title}”"
        if isinstance(title, str) and title.strip()
        else f"subagent {child_id}"
    )


def subagent_state(name: str, state: dict[str, Any]) -> tuple[str, str]:
    """A subagent's state as its parent's agent reports it, and the colour to say it in."""
    what = state.get("state")
    if what == "running":
        return f"{name} is running", "cyan"
    if what == "requires_action":
        return f"{name} waits for you", "yellow"
    if what != "idle":
        return f"{name} is {what}", "dim"
    reason = state.get("stopReason")
    if reason == "error":
        error = state.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        return f"{name} failed" + (f": {message}" if isinstance(message, str) else ""), "red"
    if reason == "cancelled":
        return f"{name} was cancelled", "red"
    tokens = tokens_text(state.get("usage"))
    return f"{name} finished ({reason}" + (f"; {tokens}" if tokens else "") + ")", "green"


def auth_text(status: dict[str, Any]) -> str:
    """``sign-in: authenticated (Alice)``: the agent's own word on whether it is signed in."""
    label = status.get("label")
    said = f" ({label})" if isinstance(label, str) and label else ""
    return f"sign-in: {status.get('state')}{said}"


def method_line(number: int, method: dict[str, Any]) -> str:
    """One sign-in method to choose: its name, what choosing it does, its description."""
    how = "a command in a terminal" if method.get("type") == "terminal" else "the agent signs in"
    about = method.get("description")
    said = f": {about.strip()}" if isinstance(about, str) and about.strip() else ""
    return f"  {number}) {method.get('name') or method.get('id')} ({how}){said}"
