"""The agent side alone, with a real scripted agent that starts its MCP servers before it answers
``session/new`` (``--mcp-at-new``, as fast-agent, gemini-cli and opencode do): the editor
server's token opens the session's folders from the moment it is minted, over stdio and HTTP,
and a session the agent would give up for the editor server starts without it, the user told."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.protocol.editor_context import TOOLS
from tests.support.fake_editor import FakeChannel
from tests.support.recorder import Recorder
from tests.support.starter import StartClient

LISTED = f"editor ({', '.join(sorted(TOOLS))})"


@pytest.fixture
async def context() -> AsyncIterator[ContextServer]:
    server = ContextServer(ContextTools(EditorDocuments(FakeChannel()), lambda: None))
    yield server
    await server.close()


def agent_said(recorder: Recorder, session_id: str) -> str:
    return str(recorder.mirrors[session_id]["entries"])


@pytest.mark.parametrize(
    ("transport", "version"), [("stdio", 1), ("stdio", 2), ("http", 2)], ids=str
)
async def test_the_servers_start_while_session_new_is_answered(
    start_client: StartClient,
    context: ContextServer,
    tmp_path: Path,
    transport: str,
    version: int,
) -> None:
    recorder = Recorder()
    client = await start_client(
        "--mcp",
        transport,
        "--mcp-at-new",
        frontend=recorder,
        editor_context=context,
        protocol_version=version,
    )
    session = await client.new_session(str(tmp_path))
    await client.prompt(session.id, [{"type": "text", "text": "hello"}])
    assert LISTED in agent_said(recorder, session.id)
    assert recorder.notices == []


async def test_a_session_the_editor_server_would_sink_starts_without_it(
    start_client: StartClient, context: ContextServer, tmp_path: Path
) -> None:
    recorder = Recorder()
    client = await start_client(
        "--mcp",
        "stdio",
        "--mcp-at-new",
        "--mcp-drop-secrets",
        frontend=recorder,
        editor_context=context,
    )
    session = await client.new_session(str(tmp_path))
    await client.prompt(session.id, [{"type": "text", "text": "hello"}])
    assert "started before answering session/new: none" in agent_said(recorder, session.id)
    (told,) = recorder.notices
    assert "'editor' MCP server" in told and "Failed to initialize" in told
    assert context._grants == {}  # the refused token was forgotten with its failed call
