"""The vocabulary of ACP as the sidecar uses it: method names, versions, permission options and
outcomes, and reading untrusted params (what a tool call says: ``protocol.tool_call``).

Payloads stay plain JSON (dicts and lists) end to end: that is how unknown fields, kinds and
``_meta`` survive untouched from the agent to the editor. These helpers only read the few fields
the sidecar itself acts on, and raise ``InvalidParams`` with a message a human can act on. Every
module that asks "is this tool call finished?", "which paths does it name?", "which command does
it run?" or "which option is the reject?" asks here, so the answers cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from acp_editor.errors import InvalidParams

PROTOCOL_VERSION = 1
"""The stable wire protocol, negotiated by default."""
SUPPORTED_VERSIONS = (1, 2)
"""2 is the draft, used only when the user opts in (``--protocol-version 2``)."""

# Agent methods (we call them).
INITIALIZE = "initialize"
AUTHENTICATE = "authenticate"
SESSION_NEW = "session/new"
SESSION_LOAD = "session/load"
SESSION_RESUME = "session/resume"
ADDITIONAL_DIRECTORIES = "additionalDirectories"
"""The session capability of taking ``additionalDirectories`` (``AgentInfo.supports`` name)."""
SESSION_LIST = "session/list"
SESSION_CLOSE = "session/close"
SESSION_DELETE = "session/delete"
SESSION_FORK = "session/fork"
SESSION_SET_TITLE = "session/set_title"
SESSION_ARCHIVE = "session/archive"
SESSION_UNARCHIVE = "session/unarchive"
SESSION_STATUS = "session/status"
"""Unstable in ACP v1: used only when the agent advertises ``sessionCapabilities.fork``."""
LOGOUT = "logout"
AUTH_LOGOUT = "auth/logout"
AUTH_LOGIN = "auth/login"
AUTH_STATUS = "auth/status"
AUTH_STATUS_UPDATES = ("auth/status_update", "_auth/status_update")
"""The schema's notification (unstable) and claude-agent-acp's own, which it sends instead."""
"""``logout`` as ACP v2 names it."""
SESSION_PROMPT = "session/prompt"
SESSION_CANCEL = "session/cancel"
SESSION_SET_MODE = "session/set_mode"
SESSION_SET_CONFIG_OPTION = "session/set_config_option"
TOOL_CALL_CANCEL = "tool_call/cancel"
TERMINAL_CANCEL = "terminal/cancel"
"""v2 (schema 1.25): one tool call, or one terminal the agent runs itself, stopped while the rest
of the work goes on; sent only while it advertises ``capabilities.cancel`` (``can_cancel``)."""

# Client methods (the agent calls them; we serve them).
SESSION_UPDATE = "session/update"
MCP_CONNECT = "mcp/connect"
MCP_MESSAGE = "mcp/message"
MCP_DISCONNECT = "mcp/disconnect"
"""MCP-over-ACP (unstable): the agent reaches an MCP server the client declared as ``type: acp``."""
SESSION_REQUEST_PERMISSION = "session/request_permission"
FS_READ_TEXT_FILE = "fs/read_text_file"
FS_WRITE_TEXT_FILE = "fs/write_text_file"
TERMINAL_CREATE = "terminal/create"
TERMINAL_OUTPUT = "terminal/output"
TERMINAL_WAIT_FOR_EXIT = "terminal/wait_for_exit"
TERMINAL_KILL = "terminal/kill"
TERMINAL_RELEASE = "terminal/release"

REJECT_KINDS = ("reject_once", "reject_always")
ALLOW_KINDS = ("allow_once", "allow_always")

UNSUPPORTED_PROTOCOL_VERSION = -32022
"""v2's error for ``initialize``: its data lists the versions the agent speaks."""
RESOURCE_NOT_FOUND = -32002
"""A session-scoped request naming a session the agent does not have (v2: data ``{sessionId}``)."""


T = TypeVar("T")


# -- params -------------------------------------------------------------------------------------


def obj(params: Any, what: str = "params") -> dict[str, Any]:
    """``params`` as an object: JSON-RPC allows arrays and omission, ACP methods never do."""
    if not isinstance(params, dict):
        raise InvalidParams(f"{what} must be an object, got {type(params).__name__}")
    return params


def obj_or_empty(params: Any) -> dict[str, Any]:
    """Params of an editor request whose fields are all optional: omitted params mean ``{}``."""
    return {} if params is None else obj(params)


def field(params: dict[str, Any], name: str, kind: type[T], *, what: str = "params") -> T:
    value = params.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidParams(f"{what}.{name} must be a {kind.__name__}, got {value!r}"[:200])
    return value


def require_str(params: dict[str, Any], key: str) -> str:
    """A required string field (``sessionId``, ``terminalId``, ``content``, ...)."""
    value = params.get(key)
    if not isinstance(value, str):
        if value is None:
            raise InvalidParams(f"missing required field {key!r}")
        raise InvalidParams(f"{key!r} must be a string, got {type(value).__name__}")
    return value


def nonempty_str(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidParams(f"params.{name} must be a non-empty string")
    return value


def optional_str(params: dict[str, Any], name: str) -> str | None:
    value = params.get(name)
    if value is not None and not isinstance(value, str):
        raise InvalidParams(f"params.{name} must be a string")
    return value


def optional_uint(params: dict[str, Any], key: str) -> int | None:
    """An optional non-negative integer (``line``, ``limit``, ``outputByteLimit``); null means
    absent. ``True`` is refused although Python counts it as an int."""
    value = params.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidParams(f"{key!r} must be a non-negative integer, got {value!r}")
    return value


def permission_options(params: dict[str, Any]) -> list[dict[str, Any]]:
    """``options`` of a permission request: each must carry an ``optionId`` to answer with."""
    options = params.get("options")
    if not isinstance(options, list) or not all(
        isinstance(o, dict) and isinstance(o.get("optionId"), str) for o in options
    ):
        raise InvalidParams("params.options must be a list of options with an optionId")
    return options


# -- tool calls ---------------------------------------------------------------------------------


def mode_option_id(options: Any) -> str | None:
    """The id of the config option of category ``mode`` (how ACP v2 offers session modes)."""
    for option in options if isinstance(options, list) else []:
        if isinstance(option, dict) and option.get("category") == "mode":
            option_id = option.get("id")
            return option_id if isinstance(option_id, str) else None
    return None


def mode_choices(modes: Any, options: Any) -> tuple[Any, list[Any]]:
    """The current mode and the modes offered: v1's ``modes``, else (v2) the config option of
    category ``mode``."""
    if isinstance(modes, dict):
        return modes.get("currentModeId"), _member_of_each(modes.get("availableModes"), "id")
    option_id = mode_option_id(options)
    for option in options if option_id is not None else []:
        if isinstance(option, dict) and option.get("id") == option_id:
            return option.get("currentValue"), _member_of_each(option.get("options"), "value")
    return None, []


def _member_of_each(items: Any, key: str) -> list[Any]:
    return [i.get(key) for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def auth_status(params: Any) -> dict[str, Any] | None:
    """An agent's sign-in state as ``{"state", "label"?, "accounts"?}``, from ``auth/status``'s
    answer or ``auth/status_update`` (``state``: authenticated, unauthenticated, not_required,
    unknown; an unknown value is kept, and read as unknown by whoever acts on it), or from
    claude-agent-acp's ``_auth/status_update`` (``authStatus: {kind, label}``: ``none`` is
    signed out). None: neither shape."""
    if not isinstance(params, dict):
        return None
    if isinstance(params.get("state"), str):
        status: dict[str, Any] = {"state": params["state"]}
        accounts = params.get("accounts")
        if isinstance(accounts, list) and accounts:
            status["accounts"] = accounts
            active = [a for a in accounts if isinstance(a, dict) and a.get("active")]
            first = (active or accounts)[0]
            label = first.get("label") if isinstance(first, dict) else None
            if isinstance(label, str):
                status["label"] = label
        return status
    claude = params.get("authStatus")
    if isinstance(claude, dict) and isinstance(claude.get("kind"), str):
        state = "unauthenticated" if claude["kind"] == "none" else "authenticated"
        status = {"state": state}
        if isinstance(claude.get("label"), str):
            status["label"] = claude["label"]
        return status
    return None


# -- permission options and outcomes --------------------------------------------------------------


def permission_subject(params: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """What a permission request is about, as a tool call to show, and whether it is one the
    session state should hold. v1 sends ``toolCall``; the v2 draft sends a ``title``, maybe a
    ``description`` (its own words: ``permission_words``) and a ``subject``: a tool call (held
    like v1's), a command (shown as an ``execute`` call with its command line), or a kind we do
    not know; the call made up for the last two is titled with the request's title."""
    if "toolCall" in params:
        return obj(params.get("toolCall"), "params.toolCall"), True
    title = params.get("title")
    if not isinstance(title, str):
        raise InvalidParams("params.title must be a string (or params.toolCall an object)")
    subject = params.get("subject")
    subject = subject if isinstance(subject, dict) else {}
    if subject.get("type") == "tool_call":
        return obj(subject.get("toolCall"), "params.subject.toolCall"), True
    call_id = subject.get("toolCallId")
    call: dict[str, Any] = {
        "toolCallId": call_id if isinstance(call_id, str) else "permission",
        "title": title,
        "kind": "other",
    }
    if subject.get("type") == "command" and isinstance(subject.get("command"), str):
        call["kind"] = "execute"
        call["rawInput"] = {"command": subject["command"], "cwd": subject.get("cwd")}
    return call, False


def permission_words(params: Mapping[str, Any]) -> dict[str, str] | None:
    """A v2 request's own words, ``{"title", "description"?}``, to show before the tool call's
    (which may say something else: a tool call's title is its state, not the question). None
    for v1, whose question is the tool call's title."""
    title = params.get("title")
    if "toolCall" in params or not isinstance(title, str):
        return None
    description = params.get("description")
    if isinstance(description, str) and description.strip():
        return {"title": title, "description": description}
    return {"title": title}


def option_of_kind(options: list[dict[str, Any]], kinds: tuple[str, ...]) -> str | None:
    """The id of the first option of the first of ``kinds`` offered."""
    for kind in kinds:
        for option in options:
            if option.get("kind") == kind and isinstance(option.get("optionId"), str):
                return str(option["optionId"])
    return None


def kind_of_option(options: list[dict[str, Any]], option_id: str | None) -> str | None:
    for option in options:
        if option.get("optionId") == option_id and isinstance(option.get("kind"), str):
            return str(option["kind"])
    return None


def default_reject(options: list[dict[str, Any]]) -> str | None:
    """The option a dismissed dialog means: reject_once if offered, else the first reject."""
    return option_of_kind(options, REJECT_KINDS)


def first_allow(options: list[dict[str, Any]]) -> str | None:
    return option_of_kind(options, ALLOW_KINDS)


def cancelled_outcome() -> dict[str, Any]:
    return {"outcome": {"outcome": "cancelled"}}


def selected_outcome(option_id: str) -> dict[str, Any]:
    return {"outcome": {"outcome": "selected", "optionId": option_id}}


# -- error data (v2's ErrorData) ------------------------------------------------------------------


def versions_spoken(code: int, data: Any) -> list[int] | None:
    """The versions an agent speaks, from its ``initialize`` error -32022
    (``UnsupportedProtocolVersionErrorData.supported``); None for any other error."""
    supported = data.get("supported") if isinstance(data, dict) else None
    if code != UNSUPPORTED_PROTOCOL_VERSION or not isinstance(supported, list):
        return None
    return [v for v in supported if isinstance(v, int) and not isinstance(v, bool)]


def session_not_found(code: int, data: Any) -> str | None:
    """The session an agent says it does not have (-32002 with ``SessionNotFoundErrorData``)."""
    session_id = data.get("sessionId") if isinstance(data, dict) else None
    return session_id if code == RESOURCE_NOT_FOUND and isinstance(session_id, str) else None


def mcp_servers_checked(entries: list[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """A user's MCP servers as ACP's ``McpServer`` objects, and what was wrong with the rest:
    stdio ``{name, command, args?, env?}`` (``env`` as ``[{name, value}]`` or an object), or
    ``{type: "http" | "sse", name, url, headers?}``."""
    servers: list[dict[str, Any]] = []
    problems: list[str] = []
    for entry in entries:
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not name:
            problems.append(f"{entry!r}: no name")
            continue
        kind = entry.get("type", "stdio")
        if kind == "stdio" and isinstance(entry.get("command"), str):
            args = entry.get("args", [])
            env = entry.get("env", [])
            if isinstance(env, dict):
                env = [{"name": str(k), "value": str(v)} for k, v in env.items()]
            servers.append({"name": name, "command": entry["command"], "args": args, "env": env})
        elif kind in ("http", "sse") and isinstance(entry.get("url"), str):
            headers = entry.get("headers", [])
            servers.append({"type": kind, "name": name, "url": entry["url"], "headers": headers})
        else:
            problems.append(f"{name}: a stdio server needs a command, http and sse a url")
    return servers, problems
