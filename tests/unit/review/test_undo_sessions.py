"""Undoing a turn when other sessions ran turns too: only the files this session's turns changed
go back (those it may have changed with another are said to be shared); other sessions' files
stay as they are, in this run and the next (a real git store and state directory on disk)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.undo import TurnUndo
from tests.unit.review.finding.test_turns import watch, workspace
from tests.unit.review.finding.test_turns_sessions import Calls


async def test_undoing_a_turn_leaves_what_another_session_did_since(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, _queue = watch(root)
    roots = [str(root)]
    await turns.begin("a", roots, claims=Calls("ta"))
    (root / "a.txt").write_text("changed by a\n")
    await turns.end("a")
    await turns.begin("b", roots, claims=Calls("tb"))
    (root / "b.txt").write_text("made by b\n")
    await turns.end("b")
    (root / "gone.txt").write_text("the user's own edit\n")  # between turns: nobody's

    number, plan = await TurnUndo(turns).plan("a", None, roots)
    assert number == 1
    assert sorted((p.path.name, p.shared) for p in plan) == [
        ("a.txt", False),
        ("gone.txt", False),  # as undo always did: everything but other sessions' files
    ]
    # The next run reads the same from what this one kept.
    later, _ = watch(root)
    _, again = await TurnUndo(later).plan("a", 1, roots)
    assert sorted(p.path.name for p in again) == ["a.txt", "gone.txt"]
    await TurnUndo(later).restore(again, "a", 1)
    assert (root / "b.txt").read_text() == "made by b\n"
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"


async def test_a_file_both_sessions_changed_goes_back_and_is_said_to_be_shared(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, _queue = watch(root)
    roots = [str(root)]
    await turns.begin("a", roots, claims=Calls("ta", "a.txt"))
    await turns.begin("b", roots, claims=Calls("tb"))
    (root / "a.txt").write_text("a's\n")  # a's tool call names it: a's alone
    (root / "either.txt").write_text("nobody says\n")  # either's
    await turns.look("b", "tb")
    await turns.end("a")
    (root / "b.txt").write_text("b's\n")  # b runs alone now
    (root / "a.txt").write_text("b changed a's file too\n")
    await turns.end("b")

    _, plan = await TurnUndo(turns).plan("a", 1, roots)
    assert sorted((p.path.name, p.shared) for p in plan) == [
        ("a.txt", True),  # b changed it after: undoing a's turn takes that out too
        ("either.txt", True),
    ]
    _, plan = await TurnUndo(turns).plan("b", 1, roots)
    assert sorted((p.path.name, p.shared) for p in plan) == [
        ("a.txt", True),
        ("b.txt", False),
        ("either.txt", True),
    ]


async def test_one_session_alone_undoes_as_it_always_did(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, _queue = watch(root)
    roots = [str(root)]
    await turns.begin("a", roots)
    (root / "a.txt").write_text("turn one\n")
    await turns.end("a")
    (root / "user.txt").write_text("the user's\n")
    _, plan = await TurnUndo(turns).plan("a", 1, roots)
    assert sorted((p.path.name, p.shared) for p in plan) == [("a.txt", False), ("user.txt", False)]


async def test_undoing_a_turn_leaves_what_another_session_s_undo_put_back(
    tmp_path: Path,
) -> None:
    """An undo is not a turn, but for the turns of other sessions begun before it, what it put
    back is another session's change: undoing them must not bring the undone edit back."""
    root = workspace(tmp_path)
    turns, _queue = watch(root)
    roots = [str(root)]
    await turns.begin("a", roots, claims=Calls("ta"))
    (root / "a.txt").write_text("changed by a\n")
    await turns.end("a")
    await turns.begin("b", roots, claims=Calls("tb"))
    (root / "b.txt").write_text("made by b\n")
    await turns.end("b")
    _, plan = await TurnUndo(turns).plan("a", 1, roots)
    await TurnUndo(turns).restore(plan, "a", 1)
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"

    _, plan = await TurnUndo(turns).plan("b", 1, roots)
    assert [(p.path.name, p.shared) for p in plan] == [("b.txt", False)]
    later, _ = watch(root)  # the next run reads the undo from what this one kept
    _, again = await TurnUndo(later).plan("b", 1, roots)
    assert [p.path.name for p in again] == ["b.txt"]
    await TurnUndo(later).restore(again, "b", 1)
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert not (root / "b.txt").exists()


async def test_an_undo_withdraws_another_session_s_hunk_whose_change_it_took_away(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    roots = [str(root)]
    await turns.begin("a", roots, claims=Calls("ta"))
    (root / "c.md").write_text("made by a\n")
    await turns.end("a")
    await queue.decide(queue.select(session_id="a"), accept=True)
    await turns.begin("b", roots, claims=Calls("tb"))
    (root / "c.md").write_text("made by a\nand b\n")
    await turns.end("b")
    (pending,) = [h for h in queue.hunks.values() if h.state == "pending"]
    assert pending.session_id == "b"

    _, plan = await TurnUndo(turns).plan("a", 1, roots)
    assert [(p.path.name, p.shared) for p in plan] == [("c.md", True)]
    await TurnUndo(turns).restore(plan, "a", 1)
    assert not (root / "c.md").exists()
    assert pending.state == "rejected" and pending.message == "undone: restored to before turn 1"
