"""Review's owner (``review.owner``): its parts built in one place, everything it has to say in
one event, in order, and what the editor side reads of it."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from acp_editor.review.events import ReviewEvent, ReviewNotice
from acp_editor.review.owner import Review
from acp_editor.services import worktrees
from acp_editor.services.documents import DiskDocuments
from tests.support.repository import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="checkpoints need git")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    work = (tmp_path / "w").resolve()
    work.mkdir()
    (work / "a.txt").write_text("one\ntwo\n")
    return work


async def test_a_change_found_on_disk_is_told_before_its_hunks_in_one_stream(root: Path) -> None:
    events: list[ReviewEvent] = []
    review = Review(DiskDocuments(), listener=events.append)
    turns = review.for_agent().turns
    assert await turns.begin("s1", [str(root)]) is not None
    (root / "a.txt").write_text("one\nTWO\n")
    await turns.end("s1", "call-1")

    found, recorded = events
    assert found.kind == "found" and recorded.kind == "hunks"
    assert (found.tool_call_id, found.path) == ("call-1", str(root / "a.txt"))
    assert (found.before, found.after) == ("one\ntwo\n", "one\nTWO\n")
    (hunk,) = recorded.hunks
    assert not recorded.restored
    # The editor side's view reads what the queue holds.
    assert review.hunks() == [hunk] == review.of_path(str(root / "a.txt"))
    assert review.known(str(root / "a.txt")) == "one\nTWO\n"
    assert review.select(session_id="s1", tool_call_id="call-1") == [hunk]


async def test_a_burst_is_one_groups_event_not_an_event_per_file(root: Path) -> None:
    events: list[ReviewEvent] = []
    review = Review(DiskDocuments(), listener=events.append)
    turns = review.for_agent().turns
    assert await turns.begin("s1", [str(root)]) is not None
    (root / "gen").mkdir()
    for n in range(30):
        (root / "gen" / f"f{n}.txt").write_text(f"{n}\n")
    await turns.end("s1", "call-1")

    assert [e.kind for e in events] == ["groups"] * len(events)  # no preview or hunk per file
    (group,) = {g.group_id: g for e in events if e.kind == "groups" for g in e.groups}.values()
    assert review.groups() == [group] and len(group.files) == 30
    results = await review.decide_groups([group], accept=False)
    assert results and not (root / "gen" / "f0.txt").exists()  # the creations went back
    assert (root / "a.txt").read_text() == "one\ntwo\n"  # and nothing else


async def test_what_review_cannot_see_is_a_notice_in_the_same_stream(root: Path) -> None:
    events: list[ReviewEvent] = []
    review = Review(DiskDocuments(), listener=events.append)
    turns = review.for_agent().turns
    assert turns.on_notice is not None
    turns.on_notice("3 files changed before the first checkpoint")
    assert events == [ReviewNotice("3 files changed before the first checkpoint")]


async def test_every_agent_shares_one_turn_watch_so_a_change_is_found_once(root: Path) -> None:
    """Two agents, a session each, turns at once: one look finds the change for both (one
    store and one "last seen" per root), and it is recorded once."""
    events: list[ReviewEvent] = []
    review = Review(DiskDocuments(), listener=events.append)
    first, second = review.for_agent(), review.for_agent()
    assert first.turns is second.turns and first.documents is not second.documents
    assert await first.begin_turn("s1", [str(root)]) is not None
    assert await second.begin_turn("s2", [str(root)]) is not None
    (root / "a.txt").write_text("one\nTWO\n")
    await second.end_turn("s2", [str(root)])
    await first.end_turn("s1", [str(root)])
    (hunk,) = review.hunks()
    assert hunk.sessions == ("s1", "s2")  # nobody's tool call named it: either's
    assert [e.path for e in events if e.kind == "found"] == [str(root / "a.txt")]
    await first.close()
    await second.close()


async def test_groups_keep_their_checkpoints_in_the_turn_watch_s_own_store(root: Path) -> None:
    """One store, so one lock, per root: a bulk group's snapshot waits for a look's (the
    owner gives the queue the turn watch's stores when it makes it)."""
    review = Review(DiskDocuments())
    share = review.for_agent()
    assert review.queue.bulk.store(str(root)) is share.turns.store(root)


async def test_bringing_a_worktree_back_waits_for_a_decision_under_way(tmp_path: Path) -> None:
    """A decision rewriting a file and a bring-back writing it must not interleave: both hold
    the queue's ``writing`` lock."""
    repo = (tmp_path / "repo").resolve()
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "first")
    review = Review(DiskDocuments())
    worktree = await worktrees.create(repo, "s1")
    (worktree.tree / "a.py").write_text("a = 2\n")
    async with review.queue.writing:  # as a decision holds it
        bringing = asyncio.ensure_future(review.bring_back("s1", worktree))
        # Not a wait for a condition: the time a bring-back that did not wait would need to
        # write (a passing run never depends on it).
        done, _ = await asyncio.wait({bringing}, timeout=0.5)
        assert not done and (repo / "a.py").read_text() == "a = 1\n"
    _, result = await bringing
    assert result.brought == [repo / "a.py"] and (repo / "a.py").read_text() == "a = 2\n"
    await worktrees.discard(worktree)


async def test_a_rejection_is_a_change_another_session_s_undo_leaves(root: Path) -> None:
    review = Review(DiskDocuments())
    turns = review.for_agent().turns
    assert await turns.begin("a", [str(root)]) is not None
    (root / "a.txt").write_text("one\nTWO\n")
    await turns.end("a", "call-1")
    b = await turns.begin("b", [str(root)])
    assert b is not None
    await turns.end("b", None)
    await review.decide(review.hunks(), accept=False)  # a's change, rejected since b's began

    scope = await turns.record.scope(root, "b", b.number)
    assert scope is not None and scope.keeps(str(root / "a.txt"))  # b's undo leaves it


async def test_what_a_worktree_brought_back_is_a_change_another_session_s_undo_leaves(
    root: Path,
) -> None:
    """A bring-back is not a turn: without the record knowing it, undoing a turn of another
    session begun before it put back what the worktree's session had brought (found by the
    review model's long run)."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    review = Review(DiskDocuments())
    turns = review.for_agent().turns
    b = await turns.begin("b", [str(root)])
    assert b is not None
    await turns.end("b", None)
    worktree = await worktrees.create(root, "s1")
    (worktree.tree / "a.txt").write_text("one\nTWO\n")
    _, result = await review.bring_back("s1", worktree)
    assert result.brought == [root / "a.txt"]

    scope = await turns.record.scope(root, "b", b.number)
    assert scope is not None and scope.keeps(str(root / "a.txt"))  # b's undo leaves it
    await worktrees.discard(worktree)
