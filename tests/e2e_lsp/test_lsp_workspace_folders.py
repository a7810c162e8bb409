"""The editor's workspace folders reach the agent: the first is the session's cwd, the others its
``additionalDirectories`` (the scripted agent advertises them); after
``workspace/didChangeWorkspaceFolders`` the next session gets the folders as they are now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from acp_editor.text.positions import path_to_uri
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import wait_until


def session_news(record: Path) -> list[dict[str, Any]]:
    if not record.exists():
        return []
    messages = [json.loads(line) for line in record.read_text().splitlines()]
    return [m["params"] for m in messages if m.get("method") == "session/new"]


async def test_the_other_folders_are_additional_directories_and_stay_current(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    docs, extra = tmp_path / "docs", tmp_path / "extra"
    docs.mkdir()
    extra.mkdir()
    record = tmp_path / "agent-received.jsonl"
    editor = await editor_factory(agent_flags=("--record", str(record)), extra_folders=(docs,))
    await editor.command("acp.newSession")
    (first,) = session_news(record)
    assert first["cwd"] == str(workspace) and first["additionalDirectories"] == [str(docs)]

    editor.client.workspace_did_change_workspace_folders(
        lsp.DidChangeWorkspaceFoldersParams(
            lsp.WorkspaceFoldersChangeEvent(
                added=[lsp.WorkspaceFolder(uri=path_to_uri(str(extra)), name="extra")],
                removed=[lsp.WorkspaceFolder(uri=path_to_uri(str(docs)), name="docs")],
            )
        )
    )
    await editor.command("acp.newSession")
    await wait_until(lambda: len(session_news(record)) == 2)
    assert session_news(record)[1]["additionalDirectories"] == [str(extra)]
