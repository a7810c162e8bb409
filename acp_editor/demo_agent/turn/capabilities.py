"""What the client offered in ``initialize``'s ``clientCapabilities``, read once.

The agent calls nothing the client did not offer and sends no opt-in update it did not ask for,
as claude-agent-acp 0.101 and codex-acp 2.6 do: a client that asks for nothing gets less from
the same agent. Each opt-in follows the schema's rule (1.25): an object capability counts when
present and not null (``{}`` is enough), a boolean one only when ``true``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ClientCaps:
    """The client capabilities from ``initialize``: the agent must not call what is missing."""

    read: bool = False
    write: bool = False
    terminal: bool = False
    elicitation: tuple[str, ...] = ()
    """The elicitation modes (``form``, ``url``) the client advertised."""
    notices: bool = False
    """``session.notices``: ``notice`` updates (else the same words as an agent message)."""
    compaction: bool = False
    """``session.compaction``: ``compaction_update`` and ``compaction_summary_chunk``."""
    boolean_config: bool = False
    """``session.configOptions.boolean``: config options of ``type: "boolean"``."""
    plans: bool = False
    """``plan``: several plans by id (``plan_update``, ``plan_removed``)."""
    subagents: bool = False
    """``subagents``: children as sessions of their own (``subagent_update``,
    ``session_message``); else their text and tool calls are the parent's."""
    terminal_auth: bool = False
    """``auth.terminal``: ``terminal`` sign-in methods may be offered."""


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _offered(parent: dict[str, Any], name: str) -> bool:
    """An object capability: present and not null."""
    return isinstance(parent.get(name), dict)


def read_caps(capabilities: Any) -> ClientCaps:
    """``clientCapabilities`` as sent (anything malformed counts as not offered)."""
    caps = _obj(capabilities)
    fs, session = _obj(caps.get("fs")), _obj(caps.get("session"))
    eliciting = _obj(caps.get("elicitation"))
    return ClientCaps(
        read=fs.get("readTextFile") is True,
        write=fs.get("writeTextFile") is True,
        terminal=caps.get("terminal") is True,
        elicitation=tuple(m for m in ("form", "url") if _offered(eliciting, m)),
        notices=_offered(session, "notices"),
        compaction=_offered(session, "compaction"),
        boolean_config=_offered(_obj(session.get("configOptions")), "boolean"),
        plans=_offered(caps, "plan"),
        subagents=_offered(caps, "subagents"),
        terminal_auth=_obj(caps.get("auth")).get("terminal") is True,
    )
