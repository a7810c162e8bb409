"""The real fast-agent (PyPI ``fast-agent-mcp``, its passthrough model: no model server) through
LSP: a session starts, a prompt completes, and the agent reaches the editor MCP server, listing
its tools and reading an open buffer's unsaved text through it.

fast-agent starts the ``mcpServers`` of ``session/new`` while it answers that request, and a
server that fails to start makes the answer ``Internal error``: the editor server's bridge must
be let in before acp-editor has the session's id.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.protocol import editor as proto
from tests.agents.fast_agent import FAST_AGENT, call_tool, fast_agent
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import NEOVIM
from tests.support.pypi import ensure_installed, requires

pytestmark = requires(FAST_AGENT)

NOTE = "# not saved yet\n"
TOOLS = ("open_buffers", "read_buffer", "diagnostics", "selection", "review_state")


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_installed(FAST_AGENT)


async def test_fast_agent_reads_the_unsaved_buffer_through_the_editor_mcp_server(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "hello.py"
    argv, env = fast_agent(tmp_path / "home")
    editor = await editor_factory(
        capabilities=NEOVIM,
        agent=argv,
        env={**os.environ, **env},
        features=["context", "permissions"],
    )
    editor.open("hello.py", HELLO + NOTE)

    # A session starts (fast-agent answers session/new only once its MCP servers run) and a
    # prompt completes: the passthrough model echoes it.
    try:
        echoed = await editor.command("acp.prompt", "Hello, fast-agent.")
    except JsonRpcException as exc:  # its data names the MCP server that failed to start
        pytest.fail(f"no session with fast-agent: {exc.message}: {exc.data}")
    assert (echoed["stopReason"], echoed["reply"]) == ("end_turn", "Hello, fast-agent.")

    # The agent's own list of its tools (markdown) holds the editor server's, as it names them;
    # without them the session was made without the server (acp-editor's fallback).
    listed = await editor.command("acp.prompt", "/tools")
    missing = [t for t in TOOLS if f"editor__{t}".replace("_", "\\_") not in listed["reply"]]
    assert not missing, listed["reply"]

    # A call through the server: the reply is the editor's answer, unsaved line included.
    buffers = await editor.command("acp.prompt", call_tool("editor__open_buffers"))
    assert json.loads(buffers["reply"]) == {"result": [{"path": str(target), "modified": True}]}
    path = json.dumps({"path": str(target)})
    read = await editor.command("acp.prompt", call_tool("editor__read_buffer", path))
    assert read["stopReason"] == "end_turn"
    assert json.loads(read["reply"])["text"] == HELLO + NOTE  # the disk has no NOTE
    assert NOTE not in target.read_text("utf-8")

    # fast-agent asked the editor before each call, with the literal tool call id "pending".
    titles = [(a["toolCall"]["toolCallId"], a["toolCall"].get("title")) for a in editor.asked]
    assert titles == [("pending", "editor/open_buffers"), ("pending", "editor/read_buffer")]
    # It reports each call as a tool call of its own, titled "editor/<tool>": acp-editor knows
    # that one for the call (the read gets its location) and adds none of its own beside it.
    session = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    calls = {i: c for i, c in session["toolCalls"].items() if i != "pending"}
    assert not [i for i in calls if i.startswith("editor-context-")], calls
    by_title = {c["title"]: c for c in calls.values()}
    assert set(by_title) == {"editor/open_buffers", "editor/read_buffer"}, calls
    assert {c["status"] for c in calls.values()} == {"completed"}
    # The read's location goes to the agent's unfinished report of the call as the call comes
    # in: its own tool call when that arrived first, else the "pending" one it asked permission
    # with (its report comes after the answer then; which one is a matter of timing).
    placeholder = session["toolCalls"].get("pending", {})
    located = [c.get("locations") for c in (by_title["editor/read_buffer"], placeholder)]
    assert [{"path": str(target)}] in located, located
    assert await editor.close() == 0
