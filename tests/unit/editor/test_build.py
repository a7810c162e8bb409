"""``create_server`` registers every editor → server message of docs/protocol.md and every
command, each once, on a server that knows none of them itself."""

from __future__ import annotations

from lsprotocol import types as lsp

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.build import create_server
from acp_editor.editor.lsp.server import AcpLanguageServer
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.protocol import editor as proto
from tests.support.fake_agent import FakeAgents


def test_every_request_and_command_of_the_protocol_is_served() -> None:
    server = create_server(ServerOptions(agent=AgentConfig(command=["x"])), FakeAgents())
    served = set(server.protocol.fm.features)
    wanted = {m.method for m in proto.MESSAGES.values() if m.direction == "editor → server"}
    assert wanted <= served
    assert {lsp.INITIALIZE, lsp.SHUTDOWN, lsp.TEXT_DOCUMENT_CODE_ACTION} <= served
    assert set(server.protocol.fm.commands) == set(proto.COMMANDS)


def test_a_bare_server_serves_no_feature_of_ours() -> None:
    server = AcpLanguageServer()
    assert not {m for m in server.protocol.fm.features if m.startswith("acp/")}
    assert server.protocol.fm.commands == {}


async def test_initialized_runs_what_was_kept_from_before_the_first_answer() -> None:
    """``cli.serve`` defers its collector tuning to here (it would delay ``initialize``)."""
    server = create_server(ServerOptions(agent=AgentConfig(command=["x"])), FakeAgents())
    ran: list[bool] = []
    server.on_initialized.append(lambda: ran.append(server.initialized))
    server.protocol.fm.features[lsp.INITIALIZED](lsp.InitializedParams())
    assert ran == [True]
    server.cancel_background()
