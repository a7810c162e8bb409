"""``initialize``: what the client offers, which version is agreed, what the agent can do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from acp_editor import __version__
from acp_editor.errors import AgentError, RpcError
from acp_editor.protocol import acp, elicitation

_CAPABILITY_OF = {
    acp.SESSION_SET_TITLE: "title",
    acp.SESSION_ARCHIVE: "archive",
    acp.SESSION_UNARCHIVE: "archive",
}
"""Session methods whose ``sessionCapabilities`` entry is named otherwise (unstable, 1.25)."""

CLIENT_INFO = {"name": "acp-editor", "title": "acp-editor", "version": __version__}


def initialize_params(
    protocol_version: int, elicitation_modes: Sequence[str] = (), terminal: bool = True
) -> dict[str, Any]:
    """What we offer. Offering version 2, both shapes go: v2's ``info`` and ``capabilities``
    (no client file system or terminals there), and v1's ``clientInfo`` and
    ``clientCapabilities`` for an agent that answers 1 (each version's schema allows the
    other's fields)."""
    capabilities: dict[str, Any] = {
        "fs": {"readTextFile": True, "writeTextFile": True},
        # Not where the agent runs (its paths mapped): its commands would run on our machine.
        "terminal": terminal,
        # Agents that run commands themselves report their output in tool calls' _meta
        # to clients that say they show it (agent.serving.display_terminals).
        "_meta": {"terminal_output": True},
        # Schema 1.25 and the 2026-11-20 stabilisations: agents offer each of these only to a
        # client that asks. Terminal sign-in: we run the agent's own command with the method's
        # args where the user can type (agent.calls.signing_in); notices and compactions are
        # transcript entries (session.markers); plans by id (session.plans); subagents are
        # sessions of their own (session.subagents, agent.serving.requests); boolean options
        # toggle.
        "auth": {"terminal": True},
        "session": {"notices": {}, "compaction": {}, "configOptions": {"boolean": {}}},
        "plan": {},
        "subagents": {},
    }
    eliciting = elicitation.capabilities(elicitation_modes)
    if eliciting is not None:  # omitted: unsupported (each supported mode is explicit)
        capabilities["elicitation"] = eliciting
    params: dict[str, Any] = {
        "protocolVersion": protocol_version,
        "clientCapabilities": capabilities,
        "clientInfo": dict(CLIENT_INFO),
    }
    if protocol_version >= 2:
        params["info"] = dict(CLIENT_INFO)
        params["capabilities"] = v2_capabilities(eliciting)
    return params


def v2_capabilities(eliciting: dict[str, Any] | None) -> dict[str, Any]:
    """v2's ``ClientCapabilities`` (schema 1.25): terminal sign-in as v2 says it (an object),
    and elicitation. Nothing to offer for ``tool_call/cancel`` or ``terminal/cancel``: each tool
    call and terminal advertises its own, and background work is read from any state update."""
    capabilities: dict[str, Any] = {"auth": {"terminal": {}}}
    if eliciting is not None:
        capabilities["elicitation"] = eliciting
    return capabilities


def initialize_failure(exc: RpcError) -> str:
    """What a failed ``initialize`` tells the user: for v2's -32022, the versions the agent
    speaks (``UnsupportedProtocolVersionErrorData``) and how to start with one of them."""
    spoken = acp.versions_spoken(exc.code, exc.data)
    if spoken is None:
        return exc.message
    asked = exc.data.get("requested") if isinstance(exc.data, dict) else None
    said = ", ".join(str(v) for v in spoken) or "none it names"
    ours = [v for v in spoken if v in acp.SUPPORTED_VERSIONS]
    if not ours:
        hint = f"; acp-editor speaks {', '.join(map(str, acp.SUPPORTED_VERSIONS))}"
    elif max(ours) == acp.PROTOCOL_VERSION:
        hint = ": start acp-editor without --protocol-version"
    else:
        hint = f": start acp-editor with --protocol-version {max(ours)}"
    return f"the agent does not speak ACP protocol version {asked}; it speaks {said}{hint}"


def agreed_version(result: dict[str, Any], offered: int) -> int:
    """The version the agent answered, if we speak it and did not offer less."""
    version = result.get("protocolVersion")
    if version not in acp.SUPPORTED_VERSIONS or version > offered:
        raise AgentError(
            f"the agent speaks ACP protocol version {version!r}; acp-editor speaks version 1 "
            "(and the version 2 draft with --protocol-version 2)"
        )
    return int(version)


@dataclass
class AgentInfo:
    """The agent's ``initialize`` answer, read defensively (it is the agent's JSON)."""

    result: dict[str, Any] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return 2 if self.result.get("protocolVersion") == 2 else 1

    @property
    def capabilities(self) -> dict[str, Any]:
        """``agentCapabilities`` (v1) or ``capabilities`` (v2)."""
        caps = self.result.get("capabilities" if self.version >= 2 else "agentCapabilities")
        return caps if isinstance(caps, dict) else {}

    @property
    def auth_methods(self) -> list[dict[str, Any]]:
        """The sign-in methods offered, each with its ``id`` (v2 names it ``methodId``)."""
        methods = self.result.get("authMethods")
        if not isinstance(methods, list):
            return []
        return [
            {**m, "id": m["methodId"]} if "id" not in m and "methodId" in m else m
            for m in methods
            if isinstance(m, dict)
        ]

    @property
    def identity(self) -> dict[str, Any] | None:
        """What the agent says it is (``name``, ``title``, ``version``): ``agentInfo`` (v1) or
        ``info`` (v2); None when it says nothing."""
        info = self.result.get("info" if self.version >= 2 else "agentInfo")
        return info if isinstance(info, dict) else None

    def display_name(self, fallback: str) -> str:
        """What the user is told the agent is called: its title, else its name, else
        ``fallback``."""
        info = self.identity or {}
        for key in ("title", "name"):
            if isinstance(info.get(key), str) and info[key].strip():
                return str(info[key]).strip()
        return fallback

    def supports(self, method: str) -> bool:
        """Whether the agent advertised an optional session method."""
        if self.version >= 2:
            return self._supports_v2(method)
        caps = self.capabilities
        if method == acp.SESSION_LOAD:
            return caps.get("loadSession") is True
        if method == acp.LOGOUT:
            auth = caps.get("auth")
            return isinstance(auth, dict) and isinstance(auth.get("logout"), dict)
        session_caps = caps.get("sessionCapabilities")
        if not isinstance(session_caps, dict):
            return False
        name = _CAPABILITY_OF.get(method, method.removeprefix("session/"))
        return name in session_caps and session_caps[name] is not None

    def _supports_v2(self, method: str) -> bool:
        """v2: list, close and resume are required, load, set_mode and fork are gone, the
        optional ones are under ``capabilities.session``, logout comes with any login."""
        if method in (acp.SESSION_LIST, acp.SESSION_CLOSE, acp.SESSION_RESUME):
            return True
        if method == acp.LOGOUT:
            return bool(self.auth_methods)
        session = self.capabilities.get("session")
        name = method.removeprefix("session/")
        if method in (acp.SESSION_DELETE, acp.ADDITIONAL_DIRECTORIES) and isinstance(session, dict):
            return isinstance(session.get(name), dict)
        return False
