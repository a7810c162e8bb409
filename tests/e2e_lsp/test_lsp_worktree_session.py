"""A session in a worktree of its own, through the real sidecar on a real repository: the agent
changes its worktree, not the user's files; bringing it back makes the change the session's
review (merged with the user's uncommitted edit); rejecting puts the user's text back; the
worktree discarded after the user confirms; and the user's branch, index, stash and refs are
byte for byte as they were. Both kinds of agents: writing through the client (``fs/*``) and
writing the disk itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.support.lsp import Editor, allow_once
from tests.support.repository import git, observed

FEATURES = ["stream", "review", "permissions"]
MINE = "# the user's own edit, not committed\n"


def answer(params: dict[str, Any]) -> Any:
    """Allow the agent's edit; say "Discard" when asked about the worktree."""
    titles = [a.get("title") for a in params.get("actions") or []]
    return {"title": "Discard"} if "Discard" in titles else allow_once(params)


def hunks(editor: Editor) -> list[dict[str, Any]]:
    return [h for note in editor.of(proto.ACP_REVIEW_CHANGED) for h in note.get("hunks", [])]


@pytest.mark.parametrize("agent_flags", [(), ("--writes-itself",)], ids=["fs", "itself"])
async def test_a_worktree_session_round_trip_leaves_the_users_repository_as_it_was(
    editor_factory: StartEditor, workspace: Path, agent_flags: tuple[str, ...]
) -> None:
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "add", ".")
    git(workspace, "commit", "-qm", "first")
    git(workspace, "branch", "feature")
    (workspace / "hello.py").write_text(HELLO + "# put aside\n")
    git(workspace, "stash", "-q")  # a stash of the user's, which must stay as it is
    (workspace / "hello.py").write_text(HELLO + MINE)  # uncommitted: the worktree has it too
    before = observed(workspace)
    editor = await editor_factory(
        features=FEATURES, agent_flags=agent_flags, answer_permission=answer
    )

    opened = await editor.request(proto.ACP_NEW_SESSION, {"worktree": True})
    sid, own = opened["sessionId"], Path(opened["snapshot"]["worktree"])
    assert not own.is_relative_to(workspace) and (own / "hello.py").read_text() == HELLO + MINE
    result = await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "edit"})
    assert result["stopReason"] == "end_turn"
    assert (own / "hello.py").read_text() == HELLO + MINE + EDIT_LINE
    assert observed(workspace) == before  # the agent's change is its worktree's only
    assert hunks(editor) == []

    back = await editor.request(proto.ACP_BRING_BACK, {"sessionId": sid})
    assert back == {"sessionId": sid, "brought": [str(workspace / "hello.py")], "left": []}
    assert (workspace / "hello.py").read_text() == HELLO + MINE + EDIT_LINE
    (hunk,) = hunks(editor)
    assert hunk["sessionId"] == sid and hunk["newLines"] == [EDIT_LINE.rstrip("\n")]
    again = await editor.request(proto.ACP_BRING_BACK, {"sessionId": sid})
    assert again["brought"] == []  # brought back once

    decided = await editor.request(
        proto.ACP_REVIEW_DECIDE, {"hunkIds": [hunk["hunkId"]], "decision": "reject"}
    )
    assert [r["state"] for r in decided["results"]] == ["rejected"]
    assert (workspace / "hello.py").read_text() == HELLO + MINE

    (own / "later.py").write_text("not brought back\n")  # the session went on after
    would = await editor.request(proto.ACP_DISCARD_WORKTREE, {"sessionId": sid, "dryRun": True})
    assert would == {"sessionId": sid, "discarded": False, "lost": [str(workspace / "later.py")]}
    assert own.exists()
    gone = await editor.command("acp.discardWorktree", sid)
    assert gone == {"sessionId": sid, "discarded": True, "lost": [str(workspace / "later.py")]}
    assert not own.exists()
    assert observed(workspace) == before
    with pytest.raises(JsonRpcException, match="was discarded"):
        await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "edit"})
    # Every notification of the session said where it worked, as its snapshot did.
    notes = [n for n in editor.of(proto.ACP_SESSION_CHANGED) if n["sessionId"] == sid]
    assert notes and {n.get("worktree") for n in notes} == {str(own)}


async def test_a_worktree_needs_git_and_says_so(editor_factory: StartEditor) -> None:
    editor = await editor_factory(features=FEATURES)
    with pytest.raises(JsonRpcException) as err:
        await editor.request(proto.ACP_NEW_SESSION, {"worktree": True})
    assert err.value.code == -32602
    assert "is not a git repository: a session of its own worktree needs git" in str(err.value)
    assert (await editor.command("acp.status"))["sessions"] == []
