"""acp-editor's own files are never the agent's: with the state directory inside the workspace
(a user who opens the home folder, or ``XDG_STATE_HOME`` under the project), what acp-editor
keeps there while a turn runs (its pending review, its checkpoints) is not reviewed, watched or
followed (issue 35, item 9)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor


async def test_the_state_directory_inside_the_workspace_is_not_the_agents_change(
    editor_factory: StartEditor, workspace: Path
) -> None:
    state = workspace / "state" / "acp-editor"
    env = {**os.environ, "ACP_EDITOR_STATE_DIR": str(state)}
    editor = await editor_factory(agent_flags=("--writes-itself",), env=env)
    for words in ("edit", "hunks"):  # the review file is written while each turn runs
        assert (await editor.command("acp.prompt", words))["stopReason"] == "end_turn"
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    assert list((state / "review").iterdir())  # acp-editor did keep its review there

    def ours(uri_or_path: str) -> bool:
        return "/state/" in uri_or_path

    assert {Path(h["path"]).name for h in snapshot["review"]} == {"hello.py"}
    assert not [g for g in snapshot.get("groups", []) if ours(g.get("folder", ""))]
    shown: list[dict[str, Any]] = editor.client.shown_documents  # type: ignore[assignment]
    assert [d["uri"] for d in shown if ours(d["uri"])] == []
    assert [d["uri"] for d in shown if d["uri"].endswith("hello.py")]
