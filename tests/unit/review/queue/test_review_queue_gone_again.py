"""A file created under review and deleted again before the user decided its creation (an atomic
write's temporary file, renamed over its target a moment later): nothing is left to review, so
the creation is withdrawn, whoever each part was given to; a decided creation is not."""

from __future__ import annotations

from pathlib import Path

from tests.unit.review.queue.test_review_queue import Files, queue_with

TEMP = Path("/w/a.py.tmp.4242.0")
TEXT = "one\ntwo\n"


async def test_a_created_file_gone_again_leaves_nothing_to_review() -> None:
    queue, seen = queue_with(Files())
    (created,) = queue.record_applied("s", "c1", TEMP, None, TEXT, found_on_disk=True)
    assert created.file_change == "created"

    assert queue.withdraw_creation(TEMP)
    assert created.state == "superseded" and queue.hunks == {}
    assert queue.of_path(str(TEMP)) == [] and str(TEMP) not in queue.known
    assert seen[-1] == [created]  # editors hear that it is gone


async def test_another_session_s_deletion_of_it_withdraws_it_too() -> None:
    """Whose a change is may differ between the two looks (a turn of another session ended
    between them): there was no file before and is none now, all the same."""
    queue, _ = queue_with(Files())
    (created,) = queue.record_applied("a", None, TEMP, None, TEXT, shared=("a", "b"))
    (edited,) = queue.record_applied("b", "tb", TEMP, TEXT, TEXT + "three\n")
    assert queue.withdraw_creation(TEMP)
    assert (created.state, edited.state) == ("superseded", "superseded")
    assert queue.hunks == {}


async def test_a_creation_the_user_accepted_makes_its_deletion_a_change_to_review() -> None:
    queue, _ = queue_with(Files(a_py_tmp_4242_0=TEXT))
    (created,) = queue.record_applied("s", "c1", TEMP, None, TEXT)
    await queue.decide([created], accept=True)

    assert not queue.withdraw_creation(TEMP)
    (deleted,) = queue.record_applied("s", "c2", TEMP, TEXT, None)
    assert created.state == "accepted" and deleted.file_change == "deleted"
    assert deleted.state == "pending" and deleted.anchor.old_lines == ("one", "two")
