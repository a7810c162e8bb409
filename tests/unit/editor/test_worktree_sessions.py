"""Worktree sessions on the editor side, on a real repository: the worktree is made with
progress and kept out of review until brought back; a later run finds it by the session's id;
a worktree no session started in, or one discarded, leaves nothing; outside git, a clear refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.worktree_sessions import WorktreeSessions
from acp_editor.errors import InvalidParams
from acp_editor.review.owner import Review
from acp_editor.services.documents import DiskDocuments
from tests.support.fake_editor import FakeChannel
from tests.support.repository import git, observed


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.py").write_text("a = 1\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    return root


def sessions(review: Review | None = None) -> tuple[WorktreeSessions, FakeChannel]:
    channel = FakeChannel(ClientFeatures(work_done_progress=True))
    kept = review or Review(DiskDocuments())
    return WorktreeSessions(lambda: kept, channel), channel


async def test_made_with_progress_kept_out_of_review_and_found_by_a_later_run(repo: Path) -> None:
    first, channel = sessions()
    made = await first.make(str(repo))
    assert [e[0] for e in channel.progress.events] == ["create", "begin", "end"]
    assert first.review.isolated.holds(made.tree / "a.py")
    assert not first.review.isolated.holds(repo / "a.py")
    await first.opened("s1", made)
    assert first.folder("s1") == str(made.cwd) and first.folder("s2") is None

    later, _ = sessions()  # the next run: nothing in memory
    found = await later.find("s1", str(repo))
    assert found is not None and found.tree == made.tree
    assert later.review.isolated.holds(found.tree / "a.py")
    (found.tree / "a.py").write_text("a = 2\n")
    assert await later.changed("s1", str(repo)) == [str(repo / "a.py")]
    await later.discard("s1", str(repo))
    assert not made.tree.exists() and not later.review.isolated.holds(made.tree / "a.py")
    with pytest.raises(InvalidParams, match="has no worktree of its own"):
        await later.bring_back("s1", str(repo))


async def test_a_worktree_no_session_started_in_leaves_nothing(repo: Path) -> None:
    before = observed(repo)
    worktrees, _ = sessions()
    made = await worktrees.make(str(repo))
    await worktrees.failed(made)
    assert not Path(made.home).exists() and worktrees.review.isolated.folders == set()
    assert observed(repo) == before


async def test_outside_git_the_refusal_says_why(tmp_path: Path) -> None:
    worktrees, _ = sessions()
    with pytest.raises(InvalidParams, match="is not a git repository"):
        await worktrees.make(str(tmp_path))
    assert worktrees.review.isolated.folders == set()
