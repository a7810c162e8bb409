"""A sidecar killed after an agent's edit (as when the editor crashes) and started again in the
same workspace: a plain editor sees the pending review again as soon as it opens the file, with
no command sent, and can still undo the earlier session's turn."""

from __future__ import annotations

import json
from pathlib import Path

from acp_editor.review.queue.persist import store_path
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.e2e_lsp.test_lsp_checkpoints import undo_when_asked
from tests.e2e_lsp.test_lsp_review import review_diagnostics
from tests.support.lsp import Editor, wait_until


def kept_hunks(workspace: Path) -> int:
    """How many pending hunks the review file of the workspace holds."""
    try:
        data = json.loads(store_path(workspace.resolve()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    return len(data.get("hunks", []))


async def kill(editor: Editor) -> None:
    """SIGKILL: no shutdown, no flush, nothing the sidecar could do on its way out."""
    server = editor.client._server
    assert server is not None
    server.kill()
    await server.wait()
    await editor.client.stop()


async def test_a_killed_sidecars_review_shows_again_and_its_turn_can_be_undone(
    editor_factory: StartEditor, workspace: Path
) -> None:
    first = await editor_factory()
    result = await first.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    edited = HELLO + EDIT_LINE
    assert (workspace / "hello.py").read_text() == edited
    await wait_until(lambda: kept_hunks(workspace) == 1)
    await kill(first)

    second = await editor_factory(answer_permission=undo_when_asked)
    second.open("hello.py", edited)
    await wait_until(lambda: len(review_diagnostics(second, "hello.py")) == 1)
    (shown,) = review_diagnostics(second, "hello.py")
    assert shown.range.start.line == HELLO.count("\n")  # on the agent's line

    undone = await second.command("acp.restoreCheckpoint", 1)
    assert undone["turn"] == 1 and undone["done"] is True, undone
    (question,) = second.asked
    assert "Undo turn 1 of an earlier session (not open now)?" in question["message"]
    assert undone["sessionId"] == result["sessionId"]  # the earlier session's turn
    assert (workspace / "hello.py").read_text() == HELLO
    await wait_until(lambda: second.text("hello.py") == HELLO)
    await wait_until(lambda: review_diagnostics(second, "hello.py") == [])


async def test_a_rich_editor_is_told_the_kept_review_even_with_no_agent_to_start(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """Review is the sidecar's, not the agent's: it comes back when the editor says its
    workspace, and a decision on it needs no agent."""
    first = await editor_factory()
    await first.command("acp.prompt", "edit")
    await wait_until(lambda: kept_hunks(workspace) == 1)
    await kill(first)

    second = await editor_factory(features=["review"], agent=["/nonexistent/agent"])
    await wait_until(lambda: bool(second.of("acp/reviewChanged")))
    (hunk,) = second.of("acp/reviewChanged")[-1]["hunks"]
    assert (Path(hunk["path"]).name, hunk["state"]) == ("hello.py", "pending")
    assert hunk["range"]["start"]["line"] == HELLO.count("\n")
    result = await second.request(
        "acp/reviewDecide", {"decision": "reject", "hunkIds": [hunk["hunkId"]]}
    )
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert (workspace / "hello.py").read_text() == HELLO
