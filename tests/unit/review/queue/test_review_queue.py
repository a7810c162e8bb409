"""The review queue: decisions per hunk, file, tool call and all; held writes; refusals.

The documents are an in-memory ``DocumentSource`` (the queue's only I/O), so each rule is checked
exactly; the end-to-end tests run the same queue against real files and a real editor.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from acp_editor.errors import ResourceNotFound
from acp_editor.review.queue.hunk import ChangeRejected, ReviewHunk
from acp_editor.review.queue.review_queue import ReviewQueue

OLD = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
NEW = "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n"  # two hunks: line 1, an appended line
A = Path("/w/a.py")
B = Path("/w/b.py")


class Files:
    def __init__(self, **texts: str) -> None:
        self.texts = {Path(f"/w/{name.replace('_', '.')}"): t for name, t in texts.items()}
        self.writes: list[Path] = []

    async def read_text(self, path: Path) -> str:
        if path not in self.texts:
            raise ResourceNotFound(f"no such file: {path}")
        return self.texts[path]

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
        base: str | None = None,
    ) -> None:
        self.texts[path] = text
        self.writes.append(path)


def queue_with(files: Files) -> tuple[ReviewQueue, list[list[ReviewHunk]]]:
    seen: list[list[ReviewHunk]] = []
    return ReviewQueue(files, "after-write", seen.append), seen


async def test_reject_one_hunk_reverts_exactly_it() -> None:
    files = Files(a_py=NEW)
    queue, seen = queue_with(files)
    first, last = queue.record_applied("s", "c1", A, OLD, NEW)
    assert seen == [[first, last]]
    results = await queue.decide([last], accept=False)
    assert results == [{"hunkId": last.hunk_id, "state": "rejected"}]
    assert files.texts[A] == "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n"
    assert (first.state, last.state) == ("pending", "rejected")


async def test_accept_changes_nothing_on_disk() -> None:
    files = Files(a_py=NEW)
    queue, _ = queue_with(files)
    hunks = queue.record_applied("s", "c1", A, OLD, NEW)
    await queue.decide(hunks, accept=True)
    assert files.writes == [] and all(h.state == "accepted" for h in hunks)


async def test_decided_hunks_stay_decided() -> None:
    files = Files(a_py=NEW)
    queue, _ = queue_with(files)
    first, last = queue.record_applied("s", "c1", A, OLD, NEW)
    await queue.decide([first], accept=True)
    results = await queue.decide([first, last], accept=False)
    assert {r["hunkId"]: r["state"] for r in results} == {
        first.hunk_id: "accepted",
        last.hunk_id: "rejected",
    }
    assert files.texts[A].startswith("ONE\n")


async def test_select_by_file_tool_call_and_session() -> None:
    files = Files(a_py=NEW, b_py="x\n")
    queue, _ = queue_with(files)
    in_a = queue.record_applied("s1", "c1", A, OLD, NEW)
    in_b = queue.record_applied("s2", "c2", B, "", "x\n")
    assert queue.select(path=str(A)) == in_a
    assert queue.select(tool_call_id="c2") == in_b
    assert queue.select(session_id="s2") == in_b
    assert queue.select(hunk_ids=[in_a[1].hunk_id]) == [in_a[1]]
    assert queue.select() == in_a + in_b
    await queue.decide(queue.select(tool_call_id="c2"), accept=False)
    assert files.texts[B] == "" and files.texts[A] == NEW


async def test_reject_all_of_a_file_restores_it_even_after_the_user_edited_elsewhere() -> None:
    files = Files(a_py=NEW)
    queue, _ = queue_with(files)
    hunks = queue.record_applied("s", "c1", A, OLD, NEW)
    files.texts[A] = NEW.replace("four\n", "four (edited by the user)\n")
    await queue.decide(hunks, accept=False)
    assert files.texts[A] == OLD.replace("four\n", "four (edited by the user)\n")


async def test_a_hunk_whose_lines_the_user_changed_is_refused_not_guessed() -> None:
    files = Files(a_py=NEW)
    queue, _ = queue_with(files)
    first, _last = queue.record_applied("s", "c1", A, OLD, NEW)
    files.texts[A] = NEW.replace("ONE\n", "One, as the user wants it\n")
    (result,) = await queue.decide([first], accept=False)
    assert result["state"] == "pending" and "changed since" in result["error"]
    assert first.message and files.writes == []


async def test_missing_file_is_reported_per_hunk() -> None:
    queue, _ = queue_with(Files())
    hunks = queue.record_applied("s", "c1", A, OLD, NEW)
    results = await queue.decide(hunks, accept=False)
    assert all("cannot read" in r["error"] for r in results)


async def test_no_change_and_off_mode_make_no_hunks() -> None:
    queue, seen = queue_with(Files())
    assert queue.record_applied("s", None, A, OLD, OLD) == []
    queue.mode = "off"
    assert queue.record_applied("s", None, A, OLD, NEW) == []
    assert seen == []


async def test_held_write_writes_only_the_accepted_hunk_and_tells_the_agent() -> None:
    files = Files(a_py=OLD)
    queue, seen = queue_with(files)
    queue.mode = "before-write"
    waiting = asyncio.ensure_future(queue.hold_write("s", "c1", A, OLD, NEW))
    await asyncio.sleep(0)
    first, last = seen[0]
    assert not first.applied and files.texts[A] == OLD
    await queue.decide([last], accept=True)
    assert not waiting.done() and files.texts[A] == OLD + "eight\n"
    await queue.decide([first], accept=False)
    with pytest.raises(ChangeRejected, match=r"rejected 1 of 2.*the other 1 were written"):
        await waiting
    assert files.texts[A] == OLD + "eight\n"


async def test_held_write_accepted_whole_answers_the_agent_normally() -> None:
    files = Files(a_py=OLD)
    queue, seen = queue_with(files)
    waiting = asyncio.ensure_future(queue.hold_write("s", "c1", A, OLD, NEW))
    await asyncio.sleep(0)
    await queue.decide(seen[0], accept=True)
    await waiting
    assert files.texts[A] == NEW


async def test_held_new_file_is_created_empty_then_filled() -> None:
    files = Files()
    queue, seen = queue_with(files)
    waiting = asyncio.ensure_future(queue.hold_write("s", "c1", A, None, "hello\n"))
    await asyncio.sleep(0)
    assert files.texts[A] == ""
    await queue.decide(seen[0], accept=True)
    await waiting
    assert files.texts[A] == "hello\n"


async def test_cancelled_held_write_leaves_nothing_pending() -> None:
    files = Files(a_py=OLD)
    queue, seen = queue_with(files)
    waiting = asyncio.ensure_future(queue.hold_write("s", "c1", A, OLD, NEW))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert all(h.state == "rejected" for h in seen[0]) and files.texts[A] == OLD


async def test_separate_decisions_keep_positions_right() -> None:
    old = "".join(f"line {i}\n" for i in range(30))
    lines = old.splitlines(keepends=True)
    lines[2] = "inserted a\ninserted b\n" + lines[2]
    lines[20] = "changed 20\n"
    new = "".join(lines) + "tail\n"
    files = Files(a_py=new)
    queue, _ = queue_with(files)
    hunks = queue.record_applied("s", "c1", A, old, new)
    assert len(hunks) == 3
    for hunk in hunks:  # top to bottom, one decision at a time
        await queue.decide([hunk], accept=False)
    assert files.texts[A] == old


async def test_the_agent_hears_about_rejections_once() -> None:
    files = Files(a_py=NEW)
    queue, _ = queue_with(files)
    _first, last = queue.record_applied("s", "c1", A, OLD, NEW)
    assert queue.unreported_rejections("s") is None
    await queue.decide([last], accept=False)
    note = queue.unreported_rejections("s")
    assert note is not None and "/w/a.py near line 8 (-0 +1 lines)" in note
    assert queue.unreported_rejections("s") is None


async def test_editing_the_same_lines_twice_is_one_hunk_against_the_original() -> None:
    """Three edits, two of them on the same line: the second would make the first unfindable
    (the editors showed two of three, or pointed at a wrong line). It supersedes the first, and
    rejecting the result puts back the original line."""
    second = NEW.replace("ONE", "One!")  # the first line again, the appended line kept
    files = Files(a_py=second)
    queue, seen = queue_with(files)
    first, appended = queue.record_applied("s", "c1", A, OLD, NEW)
    (again,) = queue.record_applied("s", "c2", A, NEW, second)
    assert first.state == "superseded" and first.hunk_id not in queue.hunks
    assert seen[-1] == [first, again]  # editors hear that the first one is gone
    assert (again.anchor.old_lines, again.anchor.new_lines) == (("one",), ("One!",))
    pending = sorted(h.hunk_id for h in queue.hunks.values() if h.state == "pending")
    assert pending == sorted([appended.hunk_id, again.hunk_id])
    for hunk in (appended, again):
        assert hunk.view(files.texts[A])["range"] is not None  # both can be found
    await queue.decide([again], accept=False)
    assert files.texts[A] == OLD + "eight\n"


async def test_an_edit_elsewhere_leaves_pending_hunks_as_they_are() -> None:
    lines = [f"line {n}" for n in range(1, 13)]
    old = "\n".join(lines) + "\n"
    new = old.replace("line 1\n", "LINE 1\n")
    far = new.replace("line 9\n", "LINE 9\n")  # outside the first hunk's lines and context
    queue, _ = queue_with(Files(a_py=far))
    (first,) = queue.record_applied("s", "c1", A, old, new)
    (nine,) = queue.record_applied("s", "c2", A, new, far)
    assert first.state == "pending" and first.hunk_id in queue.hunks
    assert (nine.anchor.old_lines, nine.anchor.new_lines) == (("line 9",), ("LINE 9",))
