"""An agent that writes a file atomically, as claude-agent-acp does: the text goes to a temporary
file beside it (``<name>.tmp.<pid>.<n>``), which is then renamed over the file. A look between
the two (a tool call's end, or the file watch's) finds the temporary file created; the next look
finds it gone. Created and deleted again is nothing to review: only the file's change stays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import allow_once, wait_until

NEW = HELLO + 'print(greet("atomic"))\n'
TEMP = "hello.py.tmp.4242.0"


async def test_a_temporary_file_renamed_over_its_target_leaves_only_the_target_in_review(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(agent_flags=("--scripts",), features=["review"])
    seen_between: list[list[str]] = []

    async def between(params: dict[str, Any]) -> Any:
        # The rename asks first: the temporary file's tool call has ended, and the look its
        # end started finds the file (the rename waits for this answer). What review holds then:
        await wait_until(lambda: TEMP in reviewed(editor.of(proto.ACP_REVIEW_CHANGED)))
        snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
        seen_between.append([Path(h["path"]).name for h in pending(snapshot)])
        return allow_once(params)

    editor.answer_permission = between
    ops = [
        {"op": "write", "path": TEMP, "text": NEW, "via": "disk"},
        {"op": "rename", "path": TEMP, "to": "hello.py", "ask": True},
    ]
    result = await editor.command("acp.prompt", "script " + json.dumps(ops))
    assert result["stopReason"] == "end_turn"
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})  # once the turn's looks are done

    assert seen_between == [[TEMP]]  # the look in between did find the temporary file
    assert not (workspace / TEMP).exists()
    assert (workspace / "hello.py").read_text() == NEW
    assert [h["path"] for h in snapshot["review"] if TEMP in h["path"]] == []
    (hunk,) = pending(snapshot)
    assert Path(hunk["path"]).name == "hello.py"
    assert (hunk["oldLines"], hunk["newLines"]) == ([], ['print(greet("atomic"))'])


def pending(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for h in snapshot["review"] if h["state"] == "pending"]


def reviewed(notes: list[dict[str, Any]]) -> set[str]:
    """The names of the files ``acp/reviewChanged`` told of."""
    return {Path(h["path"]).name for note in notes for h in note["hunks"]}
