"""The ``mcpServers`` of a session set-up call: the user's own servers, and the editor-context
server (``editor``) with a token minted for this session.

Transports the agent did not advertise are left out: v1 agents all take stdio, and HTTP or SSE
only under ``mcpCapabilities``; on the v2 draft every server says its ``type`` and stdio too needs
``session.mcp.stdio``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from acp_editor.protocol.editor_context import SERVER_NAME

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig
    from acp_editor.errors import RpcError


def usable(server: dict[str, Any], capabilities: dict[str, Any], version: int) -> bool:
    kind = server.get("type", "stdio")
    if version >= 2:
        session = capabilities.get("session")
        mcp = session.get("mcp") if isinstance(session, dict) else None
        return isinstance(mcp, dict) and isinstance(mcp.get(kind), dict)
    if kind == "stdio":
        return True
    offered = capabilities.get("mcpCapabilities")
    return isinstance(offered, dict) and offered.get(kind) is True


def shaped(server: dict[str, Any], version: int) -> dict[str, Any]:
    """v2 names every server's transport; v1 names only http and sse (stdio is the default)."""
    if version >= 2:
        return {"type": "stdio", **server}
    return server


EDITOR_TRANSPORTS = ("acp", "stdio", "http")
"""In order of preference: MCP-over-ACP needs nothing beside the agent's own connection; stdio
reaches the sidecar over a Unix socket only this user can open; HTTP listens on a loopback port
any local user can connect to (a token keeps them out), so it is used only by agents that take
neither."""


async def add_servers(
    config: AgentConfig, capabilities: dict[str, Any], version: int, params: dict[str, Any]
) -> str | None:
    """Fill ``params["mcpServers"]``; the editor-context token, when one was minted."""
    servers = [shaped(s, version) for s in config.mcp_servers]
    params["mcpServers"] = [s for s in servers if usable(s, capabilities, version)]
    transport = editor_transport(capabilities, version, config)
    if config.editor_context is None or transport is None:
        return None  # off, or the agent takes no transport we serve: no token is minted
    entry, token = await config.editor_context.entry(roots(params), transport, config.paths)
    params["mcpServers"].append(shaped(entry, version))
    return token


def editor_transport(
    capabilities: dict[str, Any], version: int, config: AgentConfig | None = None
) -> str | None:
    """How the agent will reach the editor-context server: the first it takes, or None. An
    agent elsewhere (its paths mapped) only over its own connection: our socket and loopback
    port are on this machine, not where it runs."""
    for transport in ("acp",) if config is not None and config.paths else EDITOR_TRANSPORTS:
        if usable({"type": transport}, capabilities, version):
            return transport
    return None


def prepare(config: AgentConfig, capabilities: dict[str, Any], version: int) -> None:
    """Right after ``initialize``: start what the agent's sessions will use, in the background
    (HTTP's endpoint takes half a second to start; the first session need not wait for all of
    it)."""
    transport = editor_transport(capabilities, version, config)
    if config.editor_context is not None and transport is not None:
        config.editor_context.prepare(transport)


def roots(params: dict[str, Any]) -> list[str]:
    """The folders a set-up call gives the session: what its editor-context token opens."""
    return [params["cwd"], *params.get("additionalDirectories", [])]


def bind(config: AgentConfig, token: str, params: dict[str, Any], result: Any) -> None:
    """The session now has an id (new and fork: in the answer; load and resume: asked for)."""
    assert config.editor_context is not None
    named = result.get("sessionId") if isinstance(result, dict) else None
    session_id = named if isinstance(named, str) else params.get("sessionId")
    config.editor_context.bind(token, str(session_id), roots(params))


def without_editor(params: dict[str, Any]) -> dict[str, Any]:
    """The same call without the editor-context server (the agent could not start it)."""
    servers = [s for s in params.get("mcpServers", []) if s.get("name") != SERVER_NAME]
    return {**params, "mcpServers": servers}


_NAMED = re.compile(rf"""['"`]{SERVER_NAME}['"`]|\bmcp\b.*(?<![-\w]){SERVER_NAME}\b""", re.I | re.S)


def blames_editor(error: RpcError) -> bool:
    """Whether a failed set-up call names the editor-context server as the cause (fast-agent:
    ``data.details`` "MCP Server: 'editor': Failed to initialize ...")."""
    return bool(_NAMED.search(f"{error.message} {json.dumps(error.data, default=str)}"))


def sessions_closed(config: AgentConfig, session_ids: Iterable[str]) -> None:
    """Those sessions are gone: their editor-context tokens open nothing any more."""
    if config.editor_context is not None:
        for session_id in session_ids:
            config.editor_context.session_closed(session_id)
