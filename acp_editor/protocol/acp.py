"""ACP method names, versions and small helpers for reading untrusted params.

Payloads stay plain JSON (dicts and lists) end to end: that is how unknown fields, kinds and
``_meta`` survive untouched from the agent to the editor. These helpers only check the few fields
the sidecar itself acts on, and raise ``InvalidParams`` with a message a human can act on.
"""

from __future__ import annotations

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
SESSION_LIST = "session/list"
SESSION_CLOSE = "session/close"
SESSION_PROMPT = "session/prompt"
SESSION_CANCEL = "session/cancel"
SESSION_SET_MODE = "session/set_mode"
SESSION_SET_CONFIG_OPTION = "session/set_config_option"

# Client methods (the agent calls them; we serve them).
SESSION_UPDATE = "session/update"
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

T = TypeVar("T")


def obj(params: Any, what: str = "params") -> dict[str, Any]:
    if not isinstance(params, dict):
        raise InvalidParams(f"{what} must be an object, got {type(params).__name__}")
    return params


def field(params: dict[str, Any], name: str, kind: type[T], *, what: str = "params") -> T:
    value = params.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidParams(f"{what}.{name} must be a {kind.__name__}, got {value!r}"[:200])
    return value


def cancelled_outcome() -> dict[str, Any]:
    return {"outcome": {"outcome": "cancelled"}}


def selected_outcome(option_id: str) -> dict[str, Any]:
    return {"outcome": {"outcome": "selected", "optionId": option_id}}


def default_reject(options: list[dict[str, Any]]) -> str | None:
    """The option a dismissed dialog means: reject_once if offered, else the first reject."""
    for kind in REJECT_KINDS:
        for option in options:
            if option.get("kind") == kind and isinstance(option.get("optionId"), str):
                return str(option["optionId"])
    return None
