"""Pending review kept across a restart: written after every change, taken back by the next run
in the same root, and still decided exactly (a real file, a real queue)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from acp_editor.review.owner import Review, ReviewEvent
from acp_editor.review.queue.persist import PendingReview, store_path
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments


async def test_pending_hunks_come_back_and_can_still_be_rejected(tmp_path: Path) -> None:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    path = root / "a.txt"
    path.write_text("one\nTWO\nthree\nFOUR\n")
    store = tmp_path / "review.json"
    kept = PendingReview(root, store)
    first = ReviewQueue(DiskDocuments(), on_change=lambda _hunks: kept.changed(first))
    made = first.record_applied("s1", "t1", path, "one\ntwo\nthree\nfour\n", path.read_text())
    assert len(made) == 2
    await first.decide([made[1]], accept=True)  # decided: not kept
    await kept.flush()
    assert len(json.loads(store.read_text())["hunks"]) == 1

    second = ReviewQueue(DiskDocuments())  # the next run
    (back,) = await PendingReview(root, store).load_into(second)
    assert (back.state, back.tool_call_id, back.anchor.new_lines) == ("pending", "t1", ("TWO",))
    assert back.made == made[0].made  # not its reload: an undo of a later turn keeps it
    results = await second.decide([back], accept=False)
    assert [r["state"] for r in results] == ["rejected"]
    assert path.read_text() == "one\ntwo\nthree\nFOUR\n"


async def test_entries_outside_the_root_or_unreadable_are_skipped(tmp_path: Path) -> None:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    store = tmp_path / "review.json"
    good = {
        "sessionId": "s",
        "toolCallId": None,
        "path": str(root / "a.txt"),
        "hint": 0,
        "anchor": {"old": [], "new": ["x"], "before": [], "after": [], "hint": 0},
    }
    elsewhere = {**good, "path": str(tmp_path / "other" / "a.txt")}
    store.write_text(json.dumps({"hunks": [good, elsewhere, {"path": 3}, "junk"]}))
    adopted = await PendingReview(root, store).load_into(ReviewQueue(DiskDocuments()))
    assert [h.path for h in adopted] == [str(root / "a.txt")]
    store.write_text("{not json")
    assert await PendingReview(root, store).load_into(ReviewQueue(DiskDocuments())) == []


async def test_a_kept_review_opens_once_and_tells_of_restored_hunks_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor side and the agent may both open it; what an earlier run left is told as
    restored (shown, not followed to), what happens afterwards as usual, and kept."""
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    root = (tmp_path / "w").resolve()
    root.mkdir()
    path = root / "a.txt"
    path.write_text("one\nTWO\n")
    earlier = Review(DiskDocuments())
    await earlier.open(root, "after-write")
    earlier.queue.record_applied("s1", None, path, "one\ntwo\n", path.read_text())
    await earlier.flush()

    shown: list[str] = []
    restored: list[str] = []

    def told(event: ReviewEvent) -> None:
        if event.kind == "hunks":
            (restored if event.restored else shown).extend(h.hunk_id for h in event.hunks)

    kept = Review(DiskDocuments(), listener=told)
    opened = await asyncio.gather(kept.open(root, "after-write"), kept.open(root, "after-write"))
    assert sorted(len(hunks) for hunks in opened) == [0, 1]  # taken back once
    assert len(restored) == 1 and shown == []
    other = root / "b.txt"
    other.write_text("new\n")
    kept.queue.record_applied("s2", None, other, None, "new\n")
    assert len(shown) == 1 and len(restored) == 1
    await kept.flush()
    assert len(json.loads(store_path(root).read_text())["hunks"]) == 2
