"""Review's share of one agent (``review.agent_review``): its sessions' turns checkpointed and
looked at, a session in its own worktree left alone, rejections told once, a turn undone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from acp_editor.review.owner import Review
from acp_editor.services.documents import DiskDocuments

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="checkpoints need git")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    work = (tmp_path / "w").resolve()
    work.mkdir()
    (work / "a.txt").write_text("one\ntwo\n")
    return work


async def test_a_turn_s_change_reaches_review_and_is_undone(root: Path) -> None:
    review = Review(DiskDocuments())
    share = review.for_agent()
    assert await share.begin_turn("s1", [str(root)]) == 1
    (root / "a.txt").write_text("one\nTWO\n")
    await share.end_turn("s1", [str(root)])
    (hunk,) = review.hunks()
    assert (hunk.session_id, hunk.path) == ("s1", str(root / "a.txt"))
    assert await share.undoable(None, [str(root)]) == "s1"
    number, plan = await share.restore_plan("s1", None, [str(root)])
    assert number == 1 and [r.path for r in plan] == [root / "a.txt"]
    await share.restore(plan, "s1", number)
    assert (root / "a.txt").read_text() == "one\ntwo\n"
    assert hunk.state == "rejected"  # what it took away is withdrawn
    await share.close()


async def test_a_session_in_its_own_worktree_is_not_checkpointed(root: Path) -> None:
    review = Review(DiskDocuments())
    share = review.for_agent()
    review.isolate(root)
    assert await share.begin_turn("s1", [str(root)]) is None
    (root / "a.txt").write_text("one\nTWO\n")
    await share.end_turn("s1", [str(root)])
    assert review.hunks() == []
    await share.close()


async def test_rejections_are_told_to_the_agent_once(root: Path) -> None:
    review = Review(DiskDocuments())
    share = review.for_agent()
    await share.begin_turn("s1", [str(root)])
    (root / "a.txt").write_text("one\nTWO\n")
    await share.end_turn("s1", [str(root)])
    await review.decide(review.hunks(), accept=False)
    note = share.unreported_rejections("s1")
    assert note is not None and "rejected" in note
    assert share.unreported_rejections("s1") is None
    await share.close()
