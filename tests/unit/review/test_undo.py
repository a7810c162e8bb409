"""Undoing a turn: the files of a session's roots put back as before it, from the checkpoint
the turn watch kept (a real git store on disk, and a run that did not take the turns)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.undo import TurnUndo
from tests.unit.review.test_turns import watch  # the same turn watch on a real store


def workspace(tmp_path: Path) -> Path:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\nthree\n")
    return root


async def test_the_next_run_finds_and_undoes_the_turns_of_a_session_it_never_opened(
    tmp_path: Path,
) -> None:
    """Checkpoints outlive the sidecar: the next run knows the session of the workspace's last
    turn, undoes its turns, and numbers that session's next turn on from them."""
    root = workspace(tmp_path)
    first, _ = watch(root)
    for text in ("turn one\n", "turn two\n"):
        await first.begin("s1", [str(root)])
        (root / "a.txt").write_text(text)
        await first.end("s1")

    second, _ = watch(root)  # nothing in memory
    undo = TurnUndo(second)
    roots = [str(root)]
    assert await undo.undoable(None, roots) == "s1"
    assert await undo.undoable("s2", roots) == "s1"  # the new session has no turn yet
    number, plan = await undo.plan("s1", None, roots)
    assert number == 2 and [(p.path.name, p.before) for p in plan] == [("a.txt", "turn one\n")]
    await undo.restore(plan, "s1", 2)
    assert (root / "a.txt").read_text() == "turn one\n"
    number, plan = await undo.plan("s1", 1, roots)
    assert [(p.path.name, p.before) for p in plan] == [("a.txt", "one\ntwo\nthree\n")]
    turn = await second.begin("s2", roots)
    assert turn is not None and turn.number == 1
    assert await undo.undoable("s2", roots) == "s2"
    await second.end("s2")
    turn = await second.begin("s1", roots)
    assert turn is not None and turn.number == 3
