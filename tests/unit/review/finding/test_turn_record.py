"""Which files each turn changed, kept beside the checkpoints: what undoing a turn may put back,
read again by a later run (a real state directory on disk)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_editor.review.finding import turn_record
from acp_editor.review.finding.turn_record import TurnRecord

ROOT = Path("/w")


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


async def test_an_undo_leaves_files_only_other_sessions_changed_since() -> None:
    record = TurnRecord()
    await record.began(ROOT, "a", 1)
    await record.began(ROOT, "b", 1)
    record.changed(ROOT, "a", 1, ["/w/a.py", "/w/both.py"], shared=False)
    record.changed(ROOT, "b", 1, ["/w/b.py", "/w/both.py"], shared=False)
    record.changed(ROOT, "a", 1, ["/w/either.py"], shared=True)
    record.changed(ROOT, "b", 1, ["/w/either.py"], shared=True)
    await record.ended(ROOT, "b", 1)
    await record.ended(ROOT, "a", 1)

    scope = await record.scope(ROOT, "a", 1)
    assert scope is not None
    assert scope.keeps("/w/b.py")  # b's alone: left as it is
    assert not scope.keeps("/w/a.py") and not scope.keeps("/w/both.py")
    assert not scope.keeps("/w/user.py")  # nobody's (the user's): put back, as always
    assert scope.shared == {"/w/both.py", "/w/either.py"}
    assert await record.scope(ROOT, "a", 7) is None  # no record: everything, as always


async def test_later_turns_of_the_session_count_and_earlier_ones_of_others_do_not() -> None:
    record = TurnRecord()
    await record.began(ROOT, "b", 1)
    record.changed(ROOT, "b", 1, ["/w/old.py"], shared=False)
    await record.ended(ROOT, "b", 1)  # over before a's turn 1 began
    for number, name in ((1, "/w/one.py"), (2, "/w/two.py")):
        await record.began(ROOT, "a", number)
        record.changed(ROOT, "a", number, [name], shared=False)
        await record.ended(ROOT, "a", number)
    await record.began(ROOT, "b", 2)  # still running: counts
    record.changed(ROOT, "b", 2, ["/w/running.py"], shared=False)

    scope = await record.scope(ROOT, "a", 1)
    assert scope is not None
    assert scope.mine == {"/w/one.py", "/w/two.py"}
    assert scope.others == {"/w/running.py"}
    assert not scope.keeps("/w/old.py")


async def test_a_later_run_reads_the_record_merged_with_what_another_run_wrote(
    state: Path,
) -> None:
    first, second = TurnRecord(), TurnRecord()
    await first.began(ROOT, "a", 1)
    await second.began(ROOT, "b", 1)
    first.changed(ROOT, "a", 1, ["/w/a.py"], shared=False)
    second.changed(ROOT, "b", 1, ["/w/b.py"], shared=False)
    await first.ended(ROOT, "a", 1)
    await second.ended(ROOT, "b", 1)  # merged with what the first wrote, not over it

    later = TurnRecord()
    scope = await later.scope(ROOT, "a", 1)
    assert scope is not None and scope.mine == {"/w/a.py"} and scope.keeps("/w/b.py")
    (kept,) = (state / "turn-paths").iterdir()
    assert [t["session"] for t in json.loads(kept.read_text())["turns"]] == ["a", "b"]


async def test_only_the_newest_turns_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn_record, "KEPT", 3)
    record = TurnRecord()
    for number in range(1, 6):
        await record.began(ROOT, "a", number)
        await record.ended(ROOT, "a", number)
    assert await TurnRecord().scope(ROOT, "a", 2) is None
    assert await TurnRecord().scope(ROOT, "a", 3) is not None


async def test_an_unreadable_record_is_no_record(state: Path) -> None:
    record = TurnRecord()
    await record.began(ROOT, "a", 1)
    await record.ended(ROOT, "a", 1)
    (kept,) = (state / "turn-paths").iterdir()
    kept.write_text("{not json")
    assert await TurnRecord().scope(ROOT, "a", 1) is None


async def test_a_deleted_session_is_not_written_back_at_the_next_turns_end(state: Path) -> None:
    record = TurnRecord()
    for session in ("gone", "kept"):
        await record.began(ROOT, session, 1)
        record.changed(ROOT, session, 1, [f"/w/{session}.py"], shared=False)
        await record.ended(ROOT, session, 1)
    record.forget("gone")  # deleted: retention drops it on disk, this run must not restore it
    turn_record._path(ROOT).unlink()  # as retention's clean leaves the file
    await record.began(ROOT, "kept", 2)
    await record.ended(ROOT, "kept", 2)
    written = json.loads(turn_record._path(ROOT).read_text())["turns"]
    assert {t["session"] for t in written} == {"kept"}
    assert await record.scope(ROOT, "gone", 1) is None


async def test_what_another_session_s_undo_put_back_is_left_and_kept_on_disk() -> None:
    record = TurnRecord()
    await record.began(ROOT, "a", 1)
    record.changed(ROOT, "a", 1, ["/w/a.py"], shared=False)
    await record.ended(ROOT, "a", 1)
    await record.began(ROOT, "b", 1)
    record.changed(ROOT, "b", 1, ["/w/b.py"], shared=False)
    await record.ended(ROOT, "b", 1)
    await record.undone(ROOT, "a", 1, ["/w/a.py"])  # after b's turn began

    for reader in (record, TurnRecord()):  # this run, and the next from what it kept
        scope = await reader.scope(ROOT, "b", 1)
        assert scope is not None and scope.keeps("/w/a.py") and not scope.keeps("/w/b.py")
        own = await reader.scope(ROOT, "a", 1)  # its own undo is no other session's change
        assert own is not None and not own.keeps("/w/a.py") and own.shared == frozenset()
    await record.began(ROOT, "b", 2)  # began after the undo: it was there before this turn
    later = await record.scope(ROOT, "b", 2)
    assert later is not None and "/w/a.py" not in later.others


async def test_what_the_user_rejected_since_is_left_as_the_rejection_left_it() -> None:
    record = TurnRecord()
    await record.began(ROOT, "a", 1)
    record.changed(ROOT, "a", 1, ["/w/a.py"], shared=False)
    await record.ended(ROOT, "a", 1)
    await record.began(ROOT, "b", 1)
    record.changed(ROOT, "b", 1, ["/w/c.md"], shared=False)
    await record.ended(ROOT, "b", 1)
    await record.rejected("a", ["/w/a.py", "/elsewhere/x.py"])  # a's change, after b's began

    for reader in (record, TurnRecord()):  # this run, and the next from what it kept
        scope = await reader.scope(ROOT, "b", 1)
        assert scope is not None and scope.keeps("/w/a.py") and not scope.keeps("/w/c.md")
        assert "/elsewhere/x.py" not in scope.others  # not of this root
        own = await reader.scope(ROOT, "a", 1)  # rejecting its own change: still its to undo
        assert own is not None and not own.keeps("/w/a.py") and own.shared == frozenset()
