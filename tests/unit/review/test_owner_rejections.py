"""A rejection is a change outside turns: undoing another session's turn that began before it
leaves the file as the rejection left it, even when the turn was of an earlier run and no turn
of this one began yet, and when a bulk group was rejected (a real git store and state folder)."""

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


async def two_sessions_turns(root: Path) -> Review:
    """Session a changes a.txt; then b's turn (its checkpoint holds a's change) makes b.txt."""
    review = Review(DiskDocuments())
    await review.open(root, "after-write")
    turns = review.for_agent().turns
    await turns.begin("a", [str(root)])
    (root / "a.txt").write_text("one\nTWO by a\n")
    await turns.end("a", "call-a")
    await turns.begin("b", [str(root)])
    (root / "b.txt").write_text("made by b\n")
    await turns.end("b", "call-b")
    assert review.pending is not None
    await review.pending.flush()
    return review


async def test_a_rejection_before_any_turn_of_this_run_is_kept_by_an_undo(root: Path) -> None:
    await two_sessions_turns(root)
    later = Review(DiskDocuments())  # the next run: a's hunk is still pending
    (hunk,) = [h for h in await later.open(root, "after-write") if h.session_id == "a"]
    results = await later.decide([hunk], accept=False)
    assert [r["state"] for r in results] == ["rejected"]
    assert (root / "a.txt").read_text() == "one\ntwo\n"

    undo = later.for_agent().undo
    _, plan = await undo.plan("b", 1, [str(root)])
    assert [p.path.name for p in plan] == ["b.txt"]  # not a.txt: a's rejected change
    await undo.restore(plan, "b", 1)
    assert (root / "a.txt").read_text() == "one\ntwo\n"
    assert not (root / "b.txt").exists()


async def test_a_rejected_group_is_kept_by_another_session_s_undo(root: Path) -> None:
    review = Review(DiskDocuments())
    await review.open(root, "after-write")
    turns = review.for_agent().turns
    await turns.begin("a", [str(root)])
    gen = root / "gen"
    gen.mkdir()
    for n in range(40):  # many new files in one folder: one group
        (gen / f"f{n}.js").write_text(f"{n}\n")
    await turns.end("a", "call-a")
    (group,) = review.groups()
    await turns.begin("b", [str(root)])
    (root / "b.txt").write_text("made by b\n")
    await turns.end("b", "call-b")

    results = await review.decide_groups([group], accept=False)
    assert [r["state"] for r in results] == ["rejected"] and not gen.exists()
    _, plan = await review.for_agent().undo.plan("b", 1, [str(root)])
    assert [p.path.name for p in plan] == ["b.txt"]  # the 40 files stay rejected
