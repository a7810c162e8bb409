"""The server starts pruning kept data in the background once the editor is ready, with the
workspace's roots, owned by the server (cancelled with it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.build import create_server
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.services.retention import pruning
from tests.support.fake_agent import FakeAgents
from tests.support.lsp import wait_until


async def test_initialized_starts_pruning_with_the_workspace_roots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[list[str]] = []

    async def keep_pruned(roots: Callable[[], Sequence[str]]) -> None:
        asked.append(list(roots()))

    monkeypatch.setattr(pruning, "keep_pruned", keep_pruned)  # imported at initialized
    server = create_server(ServerOptions(agent=AgentConfig(command=["x"])), FakeAgents())
    one, two = tmp_path / "one", tmp_path / "two"
    folders = [lsp.WorkspaceFolder(p.as_uri(), p.name) for p in (one, two)]
    params = lsp.InitializeParams(lsp.ClientCapabilities(), workspace_folders=folders)
    for _ in server.protocol.lsp_initialize(params):  # pygls's own part first: the workspace
        pass
    server.protocol.fm.features[lsp.INITIALIZED](lsp.InitializedParams())
    await wait_until(lambda: bool(asked))
    assert asked == [[str(one), str(two)]]
    server.cancel_background()
