"""The editor-context MCP server through the real sidecar: a session's ``mcpServers`` carries an
``editor`` entry; started as an agent starts it (here by the official MCP SDK's stdio client),
it answers with the text the editor holds (unsaved changes included) and refuses paths outside
the session's folders. ``--no-editor-context`` leaves it out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import HELLO, StartEditor


def setup_params(record: Path) -> list[dict[str, Any]]:
    received = [json.loads(line) for line in record.read_text().splitlines()]
    return [m["params"] for m in received if m.get("method") == "session/new"]


async def session_new_params(
    editor_factory: StartEditor, tmp_path: Path, *agent_flags: str, **options: Any
) -> dict[str, Any]:
    """What the agent got in the first ``session/new`` of a sidecar started with ``options``."""
    record = tmp_path / "agent.jsonl"
    record.unlink(missing_ok=True)
    editor = await editor_factory(
        features=["stream"], agent_flags=("--record", str(record), *agent_flags), **options
    )
    await editor.request(proto.ACP_NEW_SESSION, {})
    ((params,),) = [setup_params(record)]
    await editor.close()
    return params


async def editor_server(editor: Any, record: Path) -> StdioServerParameters:
    """A new session's ``editor`` entry, as the agent would start it."""
    await editor.request(proto.ACP_NEW_SESSION, {})
    ((params,),) = [setup_params(record)]
    (entry,) = [s for s in params["mcpServers"] if s["name"] == "editor"]
    return StdioServerParameters(
        command=entry["command"],
        args=entry["args"],
        env={e["name"]: e["value"] for e in entry["env"]},
    )


async def test_the_agent_reads_the_unsaved_buffer_through_the_editor_server(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    record = tmp_path / "agent.jsonl"
    stdio = ("--record", str(record), "--mcp", "stdio")  # not the demo's own MCP-over-ACP
    editor = await editor_factory(features=["stream"], agent_flags=stdio)
    editor.open("hello.py", HELLO + "# not saved yet\n")
    server = await editor_server(editor, record)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as mcp:
        await mcp.initialize()
        tools = {t.name for t in (await mcp.list_tools()).tools}
        assert tools == {"open_buffers", "read_buffer", "diagnostics", "selection", "review_state"}
        got = await mcp.call_tool("read_buffer", {"path": str(workspace / "hello.py")})
        assert not got.is_error
        assert got.structured_content["text"] == HELLO + "# not saved yet\n"
        listed = await mcp.call_tool("open_buffers", {})
        assert listed.structured_content["result"] == [
            {"path": str(workspace / "hello.py"), "modified": True}
        ]
        outside = await mcp.call_tool("read_buffer", {"path": str(tmp_path / "agent.jsonl")})
        assert outside.is_error and "outside this session's folders" in outside.content[0].text
    # Each call is in the session like a tool call: the user sees what the agent looked at.
    session = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    shown = list(session["toolCalls"].values())  # in the order they began
    assert [(c["title"], c["status"]) for c in shown] == [
        ("Editor: read hello.py", "completed"),
        ("Editor: open buffers", "completed"),
        (f"Editor: read {tmp_path / 'agent.jsonl'}", "failed"),
    ]
    assert shown[0]["locations"] == [{"path": str(workspace / "hello.py")}]
    assert "outside this session's folders" in json.dumps(shown[2]["content"])
    await editor.close()


async def test_no_editor_context_leaves_the_server_out(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    off = ("--no-editor-context",)
    params = await session_new_params(editor_factory, tmp_path, server_args=off)
    assert params["mcpServers"] == []


async def test_the_users_own_servers_are_passed_on_and_the_setting_turns_ours_off(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    mine = {"name": "mine", "command": "/usr/bin/my-mcp", "env": {"KEY": "v"}}
    web = {"type": "http", "name": "web", "url": "http://127.0.0.1:9/mcp"}
    servers = {"acp": {"features": ["stream"], "mcpServers": [mine, web, {"x": 1}]}}
    params = await session_new_params(editor_factory, tmp_path, init_options=servers)
    # The agent takes no HTTP (no mcpCapabilities.http): the http server is left out.
    assert [s["name"] for s in params["mcpServers"]] == ["mine", "editor"]
    assert params["mcpServers"][0] == {
        "name": "mine",
        "command": "/usr/bin/my-mcp",
        "args": [],
        "env": [{"name": "KEY", "value": "v"}],
    }
    off = {"acp": {"features": ["stream"], "mcpServers": [mine], "editorContext": False}}
    params = await session_new_params(editor_factory, tmp_path, init_options=off)
    assert [s["name"] for s in params["mcpServers"]] == ["mine"]


async def test_diagnostics_and_selection_come_from_a_rich_editor(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    """An editor with the ``context`` feature answers acp/diagnostics and acp/selection; the
    agent gets 1-based lines and nothing outside the session's folders."""
    record = tmp_path / "agent.jsonl"
    editor = await editor_factory(
        features=["stream", "context"], agent_flags=("--record", str(record), "--mcp", "stdio")
    )
    hello = str(workspace / "hello.py")
    where = {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 9}}
    asked: list[Any] = []

    def diagnostics(params: Any) -> Any:
        asked.append(params)
        found = [
            {"path": hello, "range": where, "severity": "error", "message": "bad", "source": "ty"},
            {
                "path": str(tmp_path / "elsewhere.py"),
                "range": where,
                "severity": "hint",
                "message": "x",
            },
        ]
        return {"diagnostics": found}

    editor.client.feature(proto.ACP_DIAGNOSTICS)(diagnostics)
    editor.client.feature(proto.ACP_SELECTION)(
        lambda _params: {"path": hello, "range": where, "text": "greet"}
    )
    server = await editor_server(editor, record)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as mcp:
        await mcp.initialize()
        got = (await mcp.call_tool("diagnostics", {"path": hello})).structured_content
        # A result that may be null comes wrapped, as lists do.
        selected = (await mcp.call_tool("selection", {})).structured_content["result"]
    one_based = {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 9}}
    assert got == {
        "diagnostics": [
            {
                "path": hello,
                "range": one_based,
                "severity": "error",
                "message": "bad",
                "source": "ty",
            }
        ]
    }
    assert asked == [{"path": hello}]
    assert selected["path"] == hello and selected["text"] == "greet"
    assert selected["range"] == one_based


async def test_an_agent_that_takes_only_http_gets_the_server_on_loopback_with_a_token(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    """A v2 agent advertising ``session.mcp.http`` and no stdio: the sidecar serves the tools on
    127.0.0.1 itself; the session's token is the bearer token, and nothing answers without it."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    record = tmp_path / "agent.jsonl"
    editor = await editor_factory(
        features=["stream"],
        server_args=("--protocol-version", "2"),
        agent_flags=("--record", str(record), "--mcp", "http"),
    )
    editor.open("hello.py", HELLO + "# not saved yet\n")
    await editor.request(proto.ACP_NEW_SESSION, {})
    ((params,),) = [setup_params(record)]
    (entry,) = params["mcpServers"]
    assert entry["type"] == "http" and entry["name"] == "editor"
    assert entry["url"].startswith("http://127.0.0.1:")
    headers = {h["name"]: h["value"] for h in entry["headers"]}
    async with (
        create_mcp_http_client(headers=headers) as http,
        streamable_http_client(entry["url"], http_client=http) as (read, write),
        ClientSession(read, write) as mcp,
    ):
        await mcp.initialize()
        got = await mcp.call_tool("read_buffer", {"path": str(workspace / "hello.py")})
        assert not got.is_error
        assert got.structured_content["text"] == HELLO + "# not saved yet\n"
        outside = await mcp.call_tool("read_buffer", {"path": str(tmp_path / "agent.jsonl")})
        assert outside.is_error and "outside this session's folders" in outside.content[0].text
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient() as http:
        for auth in ({}, {"authorization": "Bearer not-a-token"}, {"authorization": "x"}):
            refused = await http.post(entry["url"], json=hello, headers={**accept, **auth})
            assert refused.status_code == 401, (auth, refused.status_code)
    await editor.close()
    async with httpx2.AsyncClient() as http:  # the sidecar is gone: so is its port
        try:
            await http.post(entry["url"], json=hello, headers=accept)
        except httpx2.ConnectError:
            pass
        else:
            raise AssertionError("the endpoint outlived the sidecar")


async def test_stdio_is_preferred_when_the_agent_takes_both(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    both = ("--mcp", "http", "--mcp", "stdio")
    v2 = ("--protocol-version", "2")
    params = await session_new_params(editor_factory, tmp_path, *both, server_args=v2)
    assert [(s["type"], s["name"]) for s in params["mcpServers"]] == [("stdio", "editor")]


@pytest.mark.parametrize(
    ("version", "shape"), [("1", "request"), ("2", "request"), ("1", "connection")]
)
async def test_the_demo_agent_looks_at_the_unsaved_buffer_over_acp_itself(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path, version: str, shape: str
) -> None:
    """MCP-over-ACP: the demo agent advertises it, gets ``{"type": "acp", "serverId"}`` and
    reaches the tools with ``mcp/message`` on its ACP connection: request-scoped (ACP schema
    1.24 on: ``serverId`` and ``requestId``, each answered ``{"result"}``, no handshake), or as
    agents did before (``--mcp-connect``: mcp/connect, mcp/message by connectionId,
    mcp/disconnect). Each call shows in the session (v2's too) as acp-editor's own tool call."""
    record = tmp_path / "agent.jsonl"
    old = ("--mcp-connect",) if shape == "connection" else ()
    editor = await editor_factory(
        features=["stream"],
        agent_flags=("--record", str(record), *old),
        server_args=("--protocol-version", version),
    )
    editor.open("hello.py", HELLO + "# not saved yet\n")
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "look"})
    assert result["stopReason"] == "end_turn"
    ((params,),) = [setup_params(record)]
    (entry,) = params["mcpServers"]
    assert entry["type"] == "acp" and entry["name"] == "editor" and entry["serverId"]
    session = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    said = "".join(
        block["text"]
        for e in session["entries"]
        if e.get("kind") == "message" and e.get("role") == "agent"
        for block in e["content"]
    )
    assert "1 with unsaved changes" in said and "# not saved yet" in said, said
    shown = [(c["title"], c["status"]) for c in session["toolCalls"].values()]
    assert shown == [
        ("Editor: open buffers", "completed"),
        ("Editor: read hello.py (5 lines)", "completed"),
    ]
    answers = [json.loads(line) for line in record.read_text().splitlines()]
    results = [a["result"] for a in answers if isinstance(a.get("result"), dict)]
    connected = [r["connectionId"] for r in results if "connectionId" in r]
    if shape == "connection":
        assert len(connected) == 1  # and it was closed again:
        assert {} in results
        return
    assert connected == []
    tool_results = [r["result"] for r in results if "structuredContent" in str(r.get("result"))]
    assert len(tool_results) == 2  # each inner result carried as {"result": ...}
