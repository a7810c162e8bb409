"""Which turns undo still needs, and when everything kept for a root goes: pure decisions on
turn times (the defaults nobody has to set); and the names retention shares with review."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding import turn_names, turn_record
from acp_editor.review.queue import bulk, persist
from acp_editor.services.retention import plumbing
from acp_editor.services.retention.inventory import Kept, KeptWorktree, key_of
from acp_editor.services.retention.plumbing import TurnRef, session_ref
from acp_editor.services.retention.policy import DAY, Limits, doomed, fate
from acp_editor.storage import per_root

NOW = 1_800_000_000.0
LIMITS = Limits()


def session(name: str, turns: int, last_used_days_ago: float) -> list[TurnRef]:
    """``turns`` turns an hour apart, the last ``last_used_days_ago`` days before NOW."""
    last = NOW - last_used_days_ago * DAY
    return [
        TurnRef(f"refs/acp/{name}/turn-{n}", name, n, f"{n:040x}", last - (turns - n) * 3600)
        for n in range(1, turns + 1)
    ]


def numbers(turns: list[TurnRef], name: str) -> list[int]:
    return sorted(t.number for t in turns if t.session == name)


def test_a_session_used_in_the_last_two_weeks_keeps_every_turn() -> None:
    turns = session("busy", 300, last_used_days_ago=13)
    assert doomed(turns, None, NOW, LIMITS) == []


def test_an_older_session_keeps_its_last_twenty_turns() -> None:
    turns = session("old", 50, last_used_days_ago=20) + session("new", 5, last_used_days_ago=0)
    gone = doomed(turns, None, NOW, LIMITS)
    assert numbers(gone, "old") == list(range(1, 31))
    assert numbers(gone, "new") == []


def test_a_session_unused_for_ninety_days_goes_unless_it_was_the_roots_last() -> None:
    turns = session("stale", 30, last_used_days_ago=91) + session("last", 30, 120)
    gone = doomed(turns, "last", NOW, LIMITS)
    assert numbers(gone, "stale") == list(range(1, 31))
    assert numbers(gone, "last") == list(range(1, 11))  # its last 20 stay


def test_the_last_session_is_matched_as_its_refs_name_it() -> None:
    name = session_ref("sess:1/a")
    turns = session(name, 25, last_used_days_ago=200)
    assert numbers(doomed(turns, "sess:1/a", NOW, LIMITS), name) == list(range(1, 6))


def test_turns_are_ranked_by_number_not_by_time() -> None:
    """A session loaded again after a restart numbers on: its highest numbers are its last."""
    turns = session("s", 25, last_used_days_ago=30)
    shuffled = [TurnRef(t.ref, t.session, t.number, t.tree, NOW - 40 * DAY) for t in turns[:3]]
    gone = doomed(shuffled + turns[3:], None, NOW, LIMITS)
    assert numbers(gone, "s") == [1, 2, 3, 4, 5]


def test_names_are_those_review_gives_its_files_and_refs(tmp_path: Path) -> None:
    for sid in ("s1", "abc-DEF_9", "a/b:c", "", "ü日本", "held"):
        assert session_ref(sid) == turn_names._ref(sid)
    assert plumbing.HELD == bulk.HELD
    found = Kept(key_of(tmp_path), tmp_path)
    assert found.last_file == turn_names._last_path(tmp_path)
    assert found.review_file == persist.store_path(tmp_path)
    assert found.groups_file == persist.groups_path(persist.store_path(tmp_path))
    assert found.paths_file == turn_record._path(tmp_path)
    assert found.worktrees_dir == per_root("worktrees", tmp_path)  # services.worktrees' home


def kept(root: Path | None, **fields: object) -> Kept:
    found = Kept("w-0123456789abcdef", root)
    for name, value in fields.items():
        setattr(found, name, value)
    return found


def test_a_root_that_is_gone_goes_whole_after_seven_days_missing(tmp_path: Path) -> None:
    gone = kept(tmp_path / "gone")
    assert fate(gone, None, NOW, LIMITS) == "prune"  # not yet seen missing
    assert fate(gone, NOW - 6 * DAY, NOW, LIMITS) == "prune"
    assert fate(gone, NOW - 7 * DAY, NOW, LIMITS) == "remove"
    there = kept(tmp_path)
    assert fate(there, NOW - 30 * DAY, NOW, LIMITS) == "prune"  # it came back


def test_a_store_whose_root_nothing_names_goes_after_ninety_idle_days() -> None:
    idle = kept(None, turns=session("s", 3, last_used_days_ago=91))
    assert fate(idle, None, NOW, LIMITS) == "remove"
    assert fate(kept(None, turns=session("s", 3, 89)), None, NOW, LIMITS) == "prune"
    waiting = kept(None, turns=session("s", 3, 91), pending=1)
    assert fate(waiting, None, NOW, LIMITS) == "prune"  # review nobody decided stays


def test_a_worktree_stays_while_its_repository_is_there_or_not_known(tmp_path: Path) -> None:
    """It holds work not brought back: only a repository gone for 7 days takes it along."""
    worktree = KeptWorktree("s1", tmp_path / "s1", None)
    assert fate(kept(None, worktrees=[worktree]), None, NOW, LIMITS) == "prune"
    there = kept(tmp_path, worktrees=[worktree])
    assert fate(there, None, NOW, LIMITS) == "prune"
    gone = kept(tmp_path / "gone", worktrees=[worktree])
    assert fate(gone, NOW - 7 * DAY, NOW, LIMITS) == "remove"
