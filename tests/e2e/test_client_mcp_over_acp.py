"""MCP-over-ACP through the agent side, with the real scripted agent's ``look`` scenario: it
reaches the editor-context server request-scoped (ACP schema 1.24 on), or, with
``--mcp-connect``, the old way (mcp/connect, mcp/message by connectionId, mcp/disconnect). Every
message the client sends is checked against ACP schema 1.25, stable else unstable (the ``acp``
MCP server and ``mcp/message`` are unstable); the old shape's answers are the exception, since
1.25 no longer has them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.context.server import ContextServer
from tests.support.editor_context import unsaved_editor
from tests.support.recorder import Recorder
from tests.support.schema import AcpSchema, ClientTrafficChecker
from tests.support.starter import SCRIPTED_AGENT, StartClient

SAVED = "print('hello')\n"
UNSAVED = SAVED + "# not saved yet\n"
LOOK = [{"type": "text", "text": "look"}]
OLD_METHODS = ("mcp/connect", "mcp/disconnect")


@pytest.fixture
async def context(tmp_path: Path) -> AsyncIterator[ContextServer]:
    """The editor-context server of an editor holding ``hello.py`` with unsaved text."""
    server = ContextServer(unsaved_editor(tmp_path / "hello.py", SAVED, UNSAVED))
    yield server
    await server.close()


def said(recorder: Recorder, session_id: str) -> str:
    return str(recorder.mirrors[session_id]["entries"])


@pytest.mark.parametrize("version", [1, 2])
async def test_the_agent_looks_through_request_scoped_mcp_messages(
    start_client: StartClient, context: ContextServer, tmp_path: Path, version: int
) -> None:
    """The fixture's checker fails the test on any message that does not validate."""
    sent: list[dict[str, Any]] = []
    recorder = Recorder()
    client = await start_client(frontend=recorder, editor_context=context, protocol_version=version)
    client.connection.tracers.append(lambda way, m: sent.append(m) if way == "send" else None)
    session = await client.new_session(str(tmp_path))
    result = await client.prompt(session.id, LOOK)
    assert result["stopReason"] == "end_turn"
    assert "1 with unsaved changes" in said(recorder, session.id)
    assert "# not saved yet" in said(recorder, session.id)
    answers = [m["result"] for m in sent if isinstance(m.get("result"), dict)]
    inner = [a["result"] for a in answers if "structuredContent" in str(a.get("result"))]
    assert len(inner) == 2  # open_buffers, read_buffer: each carried as {"result": ...}


class OldShapeAside(ClientTrafficChecker):
    """The checker, with the answers to the old shape set aside (schema 1.25 removed it)."""

    def __init__(self, schema: AcpSchema, unstable: AcpSchema) -> None:
        super().__init__(schema, unstable)
        self._old: set[Any] = set()
        self.set_aside = 0

    def __call__(self, direction: str, message: dict[str, Any]) -> None:
        params = message.get("params")
        old = message.get("method") in OLD_METHODS or (
            isinstance(params, dict) and "connectionId" in params
        )
        if direction == "recv" and old and "id" in message:
            self._old.add(message["id"])
        elif direction == "send" and "method" not in message and message.get("id") in self._old:
            self._old.discard(message["id"])
            self.set_aside += 1
            return
        super().__call__(direction, message)


async def test_an_agent_of_the_old_shape_still_looks_through_mcp_connect(
    acp_schema: AcpSchema, acp_unstable_schema: AcpSchema, context: ContextServer, tmp_path: Path
) -> None:
    recorder = Recorder()
    config = AgentConfig(command=[*SCRIPTED_AGENT, "--mcp-connect"], editor_context=context)
    client = AcpClient(config, recorder)
    checker = OldShapeAside(acp_schema, acp_unstable_schema)
    client.connection.tracers.append(checker)
    try:
        await client.start(str(tmp_path))
        session = await client.new_session(str(tmp_path))
        result = await client.prompt(session.id, LOOK)
    finally:
        await client.shutdown()
    assert result["stopReason"] == "end_turn"
    assert "1 with unsaved changes" in said(recorder, session.id)
    assert checker.set_aside == 5  # connect, initialize, two tool calls, disconnect
    assert checker.problems == [], "messages the sidecar sent did not validate"
