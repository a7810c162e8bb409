"""ACP v1 elicitation (``elicitation/create``, ``elicitation/complete``): what a request must
hold before anyone is asked, whether a form's answers fit its schema, and how a URL's host is
shown. Pure: no I/O, no asking.

The rules are the spec's (docs/protocol/v1/elicitation.mdx): a mode the client did not advertise
is invalid params; a form is a flat object of strings (with formats), numbers, integers,
booleans, single-select enums (``enum`` or ``oneOf``) and multi-select string arrays; a URL is
shown whole, its host set apart, with a warning when the host can mislead.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from acp_editor.errors import InvalidParams

CREATE = "elicitation/create"
COMPLETE = "elicitation/complete"
MODES = ("form", "url")
ACTIONS = ("accept", "decline", "cancel")
FIELD_TYPES = ("string", "number", "integer", "boolean", "array")


def capabilities(modes: Sequence[str]) -> dict[str, Any] | None:
    """``clientCapabilities.elicitation`` for ``modes``: each one explicit, None for none."""
    wanted = [m for m in MODES if m in modes]
    return {mode: {} for mode in wanted} or None


def checked_request(params: Any, modes: Sequence[str]) -> dict[str, Any]:
    """``params`` of ``elicitation/create``, checked; raises ``InvalidParams`` (-32602)."""
    if not isinstance(params, dict):
        raise InvalidParams("elicitation/create params must be an object")
    mode = params.get("mode")
    if mode not in MODES:
        raise InvalidParams(f"elicitation mode must be one of {list(MODES)}, got {mode!r}")
    if mode not in modes:
        raise InvalidParams(f"the client did not advertise {mode} elicitation")
    if not isinstance(params.get("message"), str):
        raise InvalidParams("elicitation/create needs a string message")
    if not isinstance(params.get("sessionId"), str) and "requestId" not in params:
        raise InvalidParams("elicitation/create needs a sessionId or a requestId")
    if mode == "url":
        if not isinstance(params.get("elicitationId"), str):
            raise InvalidParams("a URL elicitation needs a string elicitationId")
        url = params.get("url")
        if not isinstance(url, str) or url_host(url) is None:
            raise InvalidParams(f"a URL elicitation needs an http(s) URL with a host: {url!r}")
    else:
        _check_schema(params.get("requestedSchema"))
    return params


def _check_schema(schema: Any) -> None:
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        raise InvalidParams("requestedSchema must be an object schema")
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise InvalidParams("requestedSchema.properties must be an object")
    for name, field in properties.items():
        if not isinstance(field, dict) or field.get("type") not in FIELD_TYPES:
            raise InvalidParams(f"requestedSchema.properties.{name}: not a supported field")
    required = schema.get("required") or []
    if not isinstance(required, list) or any(r not in properties for r in required):
        raise InvalidParams("requestedSchema.required must name its properties")


def answer_problems(schema: Mapping[str, Any], content: Any) -> list[str]:
    """Why ``content`` does not answer the form ``schema`` (an empty list: it does)."""
    if not isinstance(content, dict):
        return ["the answers must be an object"]
    properties: Mapping[str, Any] = schema.get("properties") or {}
    problems = [f"{name}: required" for name in schema.get("required") or [] if name not in content]
    for name, value in content.items():
        field = properties.get(name)
        if not isinstance(field, dict):
            problems.append(f"{name}: not asked for")
        else:
            problems += [f"{name}: {p}" for p in _value_problems(field, value)]
    return problems


def _value_problems(field: Mapping[str, Any], value: Any) -> list[str]:
    kind = field.get("type")
    if kind == "boolean":
        return [] if isinstance(value, bool) else ["must be true or false"]
    if kind in ("number", "integer"):
        return _number_problems(field, value)
    if kind == "array":
        allowed = choices(field.get("items") or {})
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return ["must be a list of strings"]
        return [f"{v!r} is not one of the choices" for v in value if allowed and v not in allowed]
    if not isinstance(value, str):
        return ["must be text"]
    allowed = choices(field)
    if allowed and value not in allowed:
        return [f"{value!r} is not one of the choices"]
    return _text_problems(field, value)


def _number_problems(field: Mapping[str, Any], value: Any) -> list[str]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ["must be a number"]
    if field.get("type") == "integer" and not isinstance(value, int):
        return ["must be a whole number"]
    low, high = field.get("minimum"), field.get("maximum")
    if isinstance(low, int | float) and value < low:
        return [f"must be at least {low}"]
    if isinstance(high, int | float) and value > high:
        return [f"must be at most {high}"]
    return []


def _text_problems(field: Mapping[str, Any], value: str) -> list[str]:
    shortest, longest = field.get("minLength"), field.get("maxLength")
    if isinstance(shortest, int) and len(value) < shortest:
        return [f"must be at least {shortest} characters"]
    if isinstance(longest, int) and len(value) > longest:
        return [f"must be at most {longest} characters"]
    pattern = field.get("pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                return [f"must match {pattern}"]
        except re.error:
            pass  # a pattern Python cannot read checks nothing; the agent checks again
    if field.get("format") == "email" and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", value):
        return ["must be an email address"]
    return []


def choices(field: Mapping[str, Any]) -> list[str]:
    """The values a single- or multi-select field allows (``enum``, or ``oneOf``'s consts)."""
    if isinstance(field.get("enum"), list):
        return [v for v in field["enum"] if isinstance(v, str)]
    options = field.get("oneOf") or field.get("anyOf")
    if isinstance(options, list):
        consts = [o.get("const") for o in options if isinstance(o, dict)]
        return [c for c in consts if isinstance(c, str)]
    return []


def url_host(url: str) -> str | None:
    """The host an http(s) URL opens, else None (no other scheme is ever opened)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname


def host_warning(url: str) -> str | None:
    """Why the URL's host could mislead a reader, or None."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.username is not None or parts.password is not None:
        return "the address has a user name before the host, a way to disguise where it leads"
    if any(label.startswith("xn--") for label in host.split(".")) or not host.isascii():
        return "the host has international characters (Punycode): it may imitate another site"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return "the host is a bare IP address, not a name"
    if parts.scheme.lower() == "http":
        return "the page is not encrypted (http)"
    return None
