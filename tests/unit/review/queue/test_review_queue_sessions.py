"""The review queue with several sessions' changes in one file: another session's change over a
pending hunk's lines does not supersede it, says it conflicts with it, and neither is lost, in
whatever order they are decided."""

from __future__ import annotations

from acp_editor.review.queue.review_queue import ReviewQueue
from tests.unit.review.queue.test_review_queue import A, Files, queue_with

OLD = "one\ntwo\nthree\nfour\nfive\n"
BY_A = "one\nTWO\nthree\nfour\nfive\n"
BY_B = "one\n2\nthree\nfour\nfive\n"  # B changed A's line again


def two_sessions(files: Files) -> tuple[ReviewQueue, str, str]:
    queue, _seen = queue_with(files)
    (first,) = queue.record_applied("a", "ta", A, OLD, BY_A)
    (second,) = queue.record_applied("b", "tb", A, BY_A, BY_B)
    return queue, first.hunk_id, second.hunk_id


async def test_another_session_s_change_over_a_pending_hunk_conflicts_instead_of_folding() -> None:
    queue, first, second = two_sessions(Files(a_py=BY_B))
    earlier, later = queue.hunks[first], queue.hunks[second]
    assert earlier.state == "pending" and later.state == "pending"
    assert later.conflicts_with == (first,) and earlier.conflicts_with == ()
    assert (later.anchor.old_lines, later.anchor.new_lines) == (("TWO",), ("2",))
    assert later.view(BY_B)["conflictsWith"] == [first]
    assert "conflictsWith" not in earlier.view(BY_B)
    # The same session changing its own lines again still supersedes.
    (again,) = queue.record_applied("b", "tb2", A, BY_B, "one\ndeux\nthree\nfour\nfive\n")
    assert later.state == "superseded" and again.anchor.old_lines == ("TWO",)
    assert again.conflicts_with == (first,)  # what it holds conflicted with A's hunk, it does


async def test_rejecting_the_earlier_hunk_first_is_refused_and_nothing_changes() -> None:
    files = Files(a_py=BY_B)
    queue, first, second = two_sessions(files)
    (result,) = await queue.decide([queue.hunks[first]], accept=False)
    assert result["state"] == "pending" and "reject that one first" in result["error"]
    assert second in result["error"] and files.texts[A] == BY_B and files.writes == []
    # The later one first: the earlier one's lines come back, and then it can go too.
    assert await queue.decide([queue.hunks[second]], accept=False) == [
        {"hunkId": second, "state": "rejected"}
    ]
    assert files.texts[A] == BY_A
    assert await queue.decide([queue.hunks[first]], accept=False) == [
        {"hunkId": first, "state": "rejected"}
    ]
    assert files.texts[A] == OLD


async def test_rejecting_both_at_once_rejects_the_later_first() -> None:
    files = Files(a_py=BY_B)
    queue, first, second = two_sessions(files)
    results = await queue.decide([queue.hunks[first], queue.hunks[second]], accept=False)
    assert sorted((r["hunkId"], r["state"]) for r in results) == [
        (first, "rejected"),
        (second, "rejected"),
    ]
    assert files.texts[A] == OLD


async def test_an_accepted_later_change_keeps_the_earlier_one_s_lines_from_going() -> None:
    files = Files(a_py=BY_B)
    queue, first, second = two_sessions(files)
    await queue.decide([queue.hunks[second]], accept=True)
    (result,) = await queue.decide([queue.hunks[first]], accept=False)
    assert result["state"] == "pending" and "was accepted" in result["error"]
    assert files.texts[A] == BY_B
    assert (await queue.decide([queue.hunks[first]], accept=True))[0]["state"] == "accepted"


async def test_a_change_elsewhere_in_the_file_conflicts_with_nothing() -> None:
    queue, _seen = queue_with(Files(a_py=OLD))
    queue.record_applied("a", "ta", A, OLD, BY_A)
    (elsewhere,) = queue.record_applied("b", "tb", A, BY_A, BY_A.replace("five", "FIVE"))
    assert elsewhere.conflicts_with == () and len(queue.hunks) == 2


async def test_a_change_of_unsure_origin_says_every_session_it_may_be_of() -> None:
    queue, _seen = queue_with(Files(a_py=BY_A))
    (hunk,) = queue.record_applied("a", None, A, OLD, BY_A, shared=("a", "b"))
    assert hunk.sessions == ("a", "b") and hunk.view(BY_A)["sessions"] == ["a", "b"]
    (alone,) = queue.record_applied("a", None, A, BY_A, BY_A + "six\n")
    assert "sessions" not in alone.view(BY_A + "six\n")
