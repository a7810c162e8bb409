"""A decision carried out on one file: the lines swapped where the hunk is, every write told,
and a hunk whose lines were changed since refused with a reason, left pending."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.queue.decisions import FileDecisions
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments

OLD = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
NEW = "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n"  # two hunks: line 1, an appended line


def hunks_of(path: Path) -> tuple[ReviewQueue, FileDecisions, list[tuple[Path, str | None]]]:
    documents = DiskDocuments()
    queue = ReviewQueue(documents)  # makes the hunks and knows where they are
    told: list[tuple[Path, str | None]] = []
    decisions = FileDecisions(
        documents, queue.tracking, lambda p, t: told.append((p, t)), queue.of_path
    )
    path.write_text(NEW)
    queue.record_applied("s", "c1", path, OLD, NEW)
    return queue, decisions, told


async def test_rejecting_an_applied_hunk_puts_its_old_lines_back_and_tells_the_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    queue, decisions, told = hunks_of(path)
    first, last = queue.of_path(str(path))
    results = await decisions.decide(path, [last], accept=False)
    assert results == [{"hunkId": last.hunk_id, "state": "rejected"}]
    assert path.read_text() == "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n"
    assert told == [(path, path.read_text())]
    assert first.state == "pending"
    # Accepting an applied hunk changes nothing on disk.
    assert await decisions.decide(path, [first], accept=True) == [
        {"hunkId": first.hunk_id, "state": "accepted"}
    ]
    assert len(told) == 1


async def test_a_hunk_whose_lines_changed_since_is_refused_and_stays_pending(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    queue, decisions, told = hunks_of(path)
    first, _last = queue.of_path(str(path))
    path.write_text(NEW.replace("ONE", "One, edited by the user"))
    [result] = await decisions.decide(path, [first], accept=False)
    assert result["state"] == "pending" and "changed since" in result["error"]
    assert first.state == "pending" and first.message == result["error"]
    assert told == [] and path.read_text().startswith("One, edited by the user")


async def test_rejecting_a_change_and_the_deletion_after_it_puts_the_first_text_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    queue, decisions, told = hunks_of(path)
    path.unlink()
    queue.record_applied("s", "c2", path, NEW, None)  # then the session deleted it
    hunks = queue.of_path(str(path))
    results = await decisions.decide(path, hunks, accept=False)
    assert {r["state"] for r in results} == {"rejected"}, results
    assert path.read_text() == OLD and told == [(path, OLD)]


async def test_rejecting_a_creation_and_the_deletion_after_it_leaves_no_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    documents = DiskDocuments()
    queue = ReviewQueue(documents)
    decisions = FileDecisions(documents, queue.tracking, lambda p, t: None, queue.of_path)
    queue.record_applied("s", "c1", path, None, NEW)
    queue.record_applied("s", "c2", path, NEW, None)  # created, then deleted: no file now
    results = await decisions.decide(path, queue.of_path(str(path)), accept=False)
    assert {r["state"] for r in results} == {"rejected"}, results
    assert not path.exists()  # not an empty file


class HeldOpen(DiskDocuments):
    """The file is open in a buffer that holds ``buffer``; ``remove`` is recorded."""

    def __init__(self, path: Path, buffer: str) -> None:
        super().__init__()
        self.path, self.buffer, self.kept = path, buffer, list[str]()

    def held_paths(self) -> frozenset[str]:
        return frozenset([str(self.path)])

    async def read_text(self, path: Path) -> str:
        return self.buffer

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        self.kept.append(keep)
        await super().remove(path, label=label)


async def test_rejecting_a_creation_the_user_typed_in_removes_the_file_and_keeps_their_lines(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.txt"
    documents = HeldOpen(path, "# typed\n" + NEW)
    queue = ReviewQueue(documents)
    decisions = FileDecisions(documents, queue.tracking, lambda p, t: None, queue.of_path)
    path.write_text(NEW)
    queue.record_applied("s", "c1", path, None, NEW)
    results = await decisions.decide(path, queue.of_path(str(path)), accept=False)
    assert {r["state"] for r in results} == {"rejected"}, results
    assert documents.kept == ["# typed\n"]  # the buffer keeps the user's line, unsaved
    assert not path.exists()  # not the typed line written for the user, nor an empty file
