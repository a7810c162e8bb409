"""Turns' names in a checkpoint store, and the last session of a root, as undo reads them after
a restart."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.turn_names import (
    last_number,
    last_session,
    remember_last,
    turn_name,
)
from acp_editor.services.retention.plumbing import session_ref
from acp_editor.storage import per_root
from tests.support.kept import take_turns, watch


async def test_a_sessions_turns_are_found_by_their_names(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    turns = watch()
    await take_turns(turns, tmp_path, "s:1", 2)
    store = turns.store(tmp_path.resolve())
    assert turn_name("s:1", 2) == f"{session_ref('s:1')}/turn-2"
    assert await store.named(turn_name("s:1", 2)) is not None
    assert await last_number(store, "s:1") == 2
    assert await last_number(store, "s:2") == 0  # none yet


async def test_the_last_session_of_a_root_is_remembered_across_runs(tmp_path: Path) -> None:
    one, two, broken = tmp_path / "one", tmp_path / "two", tmp_path / "broken"
    for root in (one, two, broken):
        root.mkdir()
    remember_last(one.resolve(), "s1")
    assert await last_session([str(two), str(one)]) == "s1"  # the first root that had one
    assert await last_session([str(two)]) is None
    per_root("turns", broken.resolve(), ".json").write_text("[1]", encoding="utf-8")
    assert await last_session([str(broken)]) is None  # not one we wrote
