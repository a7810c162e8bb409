"""What a look found, recorded: a change is told (for the diff preview) before its hunks exist,
goes to the tool call it is attributed to, and our own write, still as we left it, is skipped
(a real checkpoint store on disk)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.queue import ReviewQueue
from acp_editor.review.recording import ChangeRecorder
from acp_editor.services.checkpoints import Change, CheckpointStore
from acp_editor.services.documents import DiskDocuments


async def look(
    tmp_path: Path, change: str, ours: str | None = None
) -> tuple[ReviewQueue, list[Change], list[tuple[object, ...]]]:
    root = tmp_path / "w"
    root.mkdir()
    (root / "a.txt").write_text("one\n")
    store = CheckpointStore(root, tmp_path / "store")
    seen = await store.snapshot()
    queue = ReviewQueue(DiskDocuments())
    recorder = ChangeRecorder(queue, queue.documents)
    told: list[tuple[object, ...]] = []
    recorder.on_found = lambda *found: told.append((*found, len(queue.hunks)))
    recorder.new_turn("s1")
    (root / "a.txt").write_text(change)
    if ours is not None:
        recorder.written(root / "a.txt", ours)
    now = await store.snapshot()
    found = await recorder.record(store, seen, await store.changes(seen, now), "s1", "c1")
    return queue, found, told


async def test_a_change_is_told_then_recorded_for_its_tool_call(tmp_path: Path) -> None:
    queue, found, told = await look(tmp_path, "two\n")
    path = str(tmp_path / "w" / "a.txt")
    assert [c.status for c in found] == ["modified"]
    assert told == [("s1", "c1", path, "one\n", "two\n", 0)]  # no hunk yet when told
    [hunk] = queue.hunks.values()
    assert (hunk.tool_call_id, hunk.path, hunk.applied) == ("c1", path, True)


async def test_our_own_write_as_we_left_it_is_not_the_agents(tmp_path: Path) -> None:
    queue, found, told = await look(tmp_path, "two\n", ours="two\n")
    assert found == [] and told == [] and not queue.hunks
