"""A file created and deleted again while the turns run (an atomic write's temporary file, found
between its write and its rename) leaves nothing in review; one created in an earlier turn and
still pending is deleted as any file is (a real checkpoint store on disk)."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.review.finding.recording import ChangeRecorder
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import Change, CheckpointStore


@pytest.mark.parametrize("new_turn_between", [False, True], ids=["one turn", "two turns"])
async def test_a_file_created_then_deleted_in_one_turn_leaves_nothing(
    tmp_path: Path, new_turn_between: bool
) -> None:
    root = tmp_path / "w"
    root.mkdir()
    temp = root / "a.txt.tmp.4242.0"
    store = CheckpointStore(root, tmp_path / "store")
    queue = ReviewQueue(DiskDocuments())
    recorder = ChangeRecorder(queue, queue.documents)
    recorder.new_turn("s1")
    seen = await store.snapshot()

    async def look(call: str) -> list[Change]:
        nonlocal seen
        now = await store.snapshot()
        found = await recorder.record(store, seen, await store.changes(seen, now), "s1", call)
        seen = now
        return found

    temp.write_text("one\n")
    assert [c.status for c in await look("c1")] == ["added"]
    (created,) = queue.hunks.values()
    if new_turn_between:
        recorder.new_turn("s1")
    temp.unlink()
    found = await look("c2")

    if new_turn_between:  # its creation waits for the user: the deletion is a change too
        assert [c.status for c in found] == ["deleted"]
        assert created.state == "pending" and len(queue.hunks) == 2
    else:
        assert found == [] and queue.hunks == {} and created.state == "superseded"
