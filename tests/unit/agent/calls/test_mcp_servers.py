"""A session set-up call's ``mcpServers``: the user's servers the agent can start, and the
editor-context server over the first transport it takes (MCP over ACP, stdio, HTTP), with a
token minted for the call's folders; a failure that names that server is recognised."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from acp_editor.agent.calls import mcp_servers
from acp_editor.agent.config import AgentConfig
from acp_editor.errors import RpcError
from acp_editor.protocol.editor_context import SERVER_NAME
from acp_editor.services.path_map import PathMap

STDIO = {"name": "docs", "command": "docs-mcp", "args": [], "env": []}
HTTP = {"type": "http", "name": "web", "url": "https://example.com/mcp", "headers": []}
V1_HTTP = {"mcpCapabilities": {"http": True}}
V2_ALL = {"session": {"mcp": {"stdio": {}, "http": {}, "acp": {}}}}


class EditorContext:
    def __init__(self) -> None:
        self.minted: list[tuple[list[str], str]] = []

    async def entry(
        self, roots: Sequence[str], transport: str = "stdio", paths: PathMap | None = None
    ) -> tuple[dict[str, Any], str]:
        self.minted.append((list(roots), transport))
        self.paths = paths
        return {"type": transport, "name": SERVER_NAME}, "token-1"


@pytest.mark.parametrize(
    ("server", "capabilities", "version", "usable"),
    [
        (STDIO, {}, 1, True),  # every v1 agent takes stdio
        (HTTP, {}, 1, False),
        (HTTP, V1_HTTP, 1, True),
        (HTTP, {"mcpCapabilities": {"http": "yes"}}, 1, False),
        (STDIO, {}, 2, False),  # v2: even stdio must be advertised
        (STDIO, V2_ALL, 2, True),
        (HTTP, {"session": {"mcp": {"stdio": {}}}}, 2, False),
    ],
)
def test_a_server_is_passed_on_only_over_a_transport_the_agent_takes(
    server: dict[str, Any], capabilities: dict[str, Any], version: int, usable: bool
) -> None:
    assert mcp_servers.usable(server, capabilities, version) is usable


def test_the_editor_server_takes_the_first_transport_in_order_of_preference() -> None:
    assert mcp_servers.editor_transport(V2_ALL, 2) == "acp"
    assert mcp_servers.editor_transport({}, 1) == "stdio"
    assert mcp_servers.editor_transport({"session": {"mcp": {"http": {}}}}, 2) == "http"
    assert mcp_servers.editor_transport({}, 2) is None


async def test_an_agent_elsewhere_reaches_the_editor_server_over_its_own_connection_only() -> None:
    """Our socket and loopback port are on this machine, not where the agent runs; its
    answers name its paths (the token carries the pairs)."""
    context = EditorContext()
    pairs = PathMap.parse(["/workspace=/w"])
    config = AgentConfig(["agent"], editor_context=context, paths=pairs)  # type: ignore[arg-type]
    assert mcp_servers.editor_transport(V2_ALL, 2, config) == "acp"
    assert mcp_servers.editor_transport({}, 1, config) is None  # stdio only: none
    params: dict[str, Any] = {"cwd": "/w"}
    await mcp_servers.add_servers(config, V2_ALL, 2, params)
    assert context.minted == [(["/w"], "acp")] and context.paths is pairs


async def test_set_up_params_get_the_users_servers_and_a_token_for_the_calls_folders() -> None:
    context = EditorContext()
    config = AgentConfig(["agent"], mcp_servers=[STDIO, HTTP], editor_context=context)  # type: ignore[arg-type]
    params: dict[str, Any] = {"cwd": "/w", "additionalDirectories": ["/lib"]}
    assert await mcp_servers.add_servers(config, V1_HTTP, 1, params) == "token-1"
    assert params["mcpServers"] == [STDIO, HTTP, {"type": "stdio", "name": SERVER_NAME}]
    assert context.minted == [(["/w", "/lib"], "stdio")]
    v2: dict[str, Any] = {"cwd": "/w"}
    await mcp_servers.add_servers(config, V2_ALL, 2, v2)
    assert v2["mcpServers"][0] == {"type": "stdio", **STDIO}  # v2 names every transport


async def test_no_token_is_minted_when_the_editor_server_is_off_or_unreachable() -> None:
    context = EditorContext()
    params: dict[str, Any] = {"cwd": "/w"}
    assert await mcp_servers.add_servers(AgentConfig(["agent"]), {}, 1, params) is None
    assert params["mcpServers"] == []
    config = AgentConfig(["agent"], editor_context=context)  # type: ignore[arg-type]
    assert await mcp_servers.add_servers(config, {}, 2, params) is None
    assert context.minted == []


def test_a_call_without_the_editor_server_keeps_the_users() -> None:
    params = {"cwd": "/w", "mcpServers": [STDIO, {"name": SERVER_NAME, "type": "http"}]}
    assert mcp_servers.without_editor(params) == {"cwd": "/w", "mcpServers": [STDIO]}
    assert params["mcpServers"][1]["name"] == SERVER_NAME  # the original is left alone


@pytest.mark.parametrize(
    ("error", "blamed"),
    [
        (RpcError("x", {"details": f"MCP Server: '{SERVER_NAME}': Failed to initialize"}), True),
        (RpcError(f"mcp server {SERVER_NAME} did not start"), True),
        (RpcError(f"could not open the {SERVER_NAME} settings"), False),
        (RpcError("mcp: the my-editor server failed"), False),
    ],
)
def test_a_failure_naming_the_editor_server_is_recognised(error: RpcError, blamed: bool) -> None:
    assert mcp_servers.blames_editor(error) is blamed
