"""What a look found, recorded: a change is told (for the diff preview) before its hunks exist,
goes to the tool call it is attributed to, and our own write, still as we left it, is skipped
(a real checkpoint store on disk)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.recording import ChangeRecorder
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import Change, CheckpointStore


async def look(
    tmp_path: Path, change: str, ours: str | None = None
) -> tuple[ReviewQueue, list[Change], list[tuple[object, ...]]]:
    root = tmp_path / "w"
    root.mkdir()
    (root / "a.txt").write_text("one\n")
    store = CheckpointStore(root, tmp_path / "store")
    seen = await store.snapshot()
    queue = ReviewQueue(DiskDocuments())
    told: list[tuple[object, ...]] = []
    recorder = ChangeRecorder(
        queue, queue.documents, lambda *found: told.append((*found, len(queue.hunks)))
    )
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


async def burst(tmp_path: Path, looks: list[dict[str, int]]) -> ReviewQueue:
    """Looks at a command writing files in ``gen/d*/``: each look's files (folder -> how many
    more in it), recorded for one session's turn as they are found."""
    root = tmp_path / "w"
    root.mkdir()
    store = CheckpointStore(root, tmp_path / "store")
    seen = await store.snapshot()
    queue = ReviewQueue(DiskDocuments(), store_for=lambda _root: store)  # groups' checkpoints
    recorder = ChangeRecorder(queue, queue.documents)
    recorder.new_turn("s1")
    written: dict[str, int] = {}
    for look in looks:
        for folder, more in look.items():
            (root / "gen" / folder).mkdir(parents=True, exist_ok=True)
            for n in range(written.get(folder, 0), written.get(folder, 0) + more):
                (root / "gen" / folder / f"f{n}.js").write_text(f"{n}\n")
            written[folder] = written.get(folder, 0) + more
        now = await store.snapshot()
        await recorder.record(store, seen, await store.changes(seen, now), "s1", "c1")
        seen = now
    return queue


def grouped(queue: ReviewQueue) -> dict[str, int]:
    """The pending groups: folder (below the workspace) -> files."""
    return {
        Path(g.folder).relative_to(Path(g.root)).as_posix(): len(g.files)
        for g in queue.bulk.pending()
    }


async def test_a_burst_seen_part_way_is_grouped_as_seen_whole(tmp_path: Path) -> None:
    """A generator writes round the folders: the first look sees 2 files in each of 20, too
    few for a folder's group, so they are one group of ``gen/``; seen whole, each folder is a
    group (it stayed one group of ``gen/`` that every later file joined)."""
    folders = [f"d{n}" for n in range(20)]
    queue = await burst(tmp_path, [dict.fromkeys(folders, 2), dict.fromkeys(folders, 28)])
    assert grouped(queue) == {f"gen/{name}": 30 for name in folders}
    assert not queue.hunks
    emptied = [g for g in queue.bulk.groups.values() if g.state != "pending"]
    assert [(g.state, len(g.files)) for g in emptied] == []  # the first moved down, same id


async def test_a_folder_seen_part_way_beside_a_whole_one_gets_its_own_group(
    tmp_path: Path,
) -> None:
    """``rm -rf`` goes folder by folder: a look sees one folder whole and the next one begun
    (10 files: with a group beside them, the folder above becomes the group); the next look
    sees the rest of it. One group a folder, as one look of it all would give."""
    queue = await burst(tmp_path, [{"d0": 30, "d1": 10}, {"d1": 20, "d2": 30}])
    assert grouped(queue) == {"gen/d0": 30, "gen/d1": 30, "gen/d2": 30}


class Unlisted(dict[str, object]):
    """A group's files that may be asked about but not gone through."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a look went through the files grouped before")

    def items(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a look went through the files grouped before")

    def values(self):  # type: ignore[no-untyped-def]
        raise AssertionError("a look went through the files grouped before")


async def test_a_later_look_of_a_burst_costs_what_it_found(tmp_path: Path) -> None:
    """Each look of a burst regroups it seen whole, but counts the files its groups hold by
    folder instead of going through them: a look costs what it found, not the burst so far
    (20,000 files in 400 looks were quadratic)."""
    root = tmp_path / "w"
    (root / "gen" / "d0").mkdir(parents=True)
    (root / "gen" / "d1").mkdir()
    store = CheckpointStore(root, tmp_path / "store")
    seen = await store.snapshot()
    queue = ReviewQueue(DiskDocuments(), store_for=lambda _root: store)
    recorder = ChangeRecorder(queue, queue.documents)
    recorder.new_turn("s1")
    for n in range(60):
        (root / "gen" / f"d{n % 2}" / f"f{n}.js").write_text(f"{n}\n")
    now = await store.snapshot()
    await recorder.record(store, seen, await store.changes(seen, now), "s1", "c1")
    assert grouped(queue) == {"gen/d0": 30, "gen/d1": 30}
    for group in queue.bulk.pending():
        group.files = Unlisted(group.files)  # type: ignore[assignment]
    for n in range(60, 63):  # a few more of the burst: they join their folder's group
        (root / "gen" / "d0" / f"f{n}.js").write_text(f"{n}\n")
    later = await store.snapshot()
    found = await recorder.record(store, now, await store.changes(now, later), "s1", "c2")
    assert len(found) == 3 and not queue.hunks
    assert grouped(queue) == {"gen/d0": 33, "gen/d1": 30}
