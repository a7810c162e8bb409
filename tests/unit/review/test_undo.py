"""Undoing a turn: the files of a session's roots put back as before it, from the checkpoint
the turn watch kept (a real git store on disk, and a run that did not take the turns)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.review.undo import TurnUndo
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointStore
from tests.unit.review.finding.test_turns import watch  # the same turn watch on a real store


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


class Buffers(DiskDocuments):
    """The disk, with buffers open over it (their text by path) that ``remove`` lets go, or
    leaves holding the user's lines (``keep``)."""

    def __init__(self) -> None:
        self.open: dict[Path, str] = {}
        self.removed: list[tuple[Path, str, str]] = []

    async def read_text(self, path: Path) -> str:
        return self.open[path] if path in self.open else await super().read_text(path)

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        self.removed.append((path, label, keep))
        if keep:
            self.open[path] = keep
        else:
            self.open.pop(path, None)
        await super().remove(path, label=label)


async def test_undoing_a_created_file_lets_its_buffer_go_but_the_user_s_lines(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    buffers = Buffers()
    turns: TurnWatch
    queue = ReviewQueue(DiskDocuments(), on_written=lambda path, text: turns.written(path, text))
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, root.parent / "store"), buffers)
    undo = TurnUndo(turns)
    for name in ("new.md", "typed.md", "within.md"):
        await turns.begin("s1", [str(root)])
        (root / name).write_text("the agent's\n")
        await turns.end("s1")
    buffers.open[root / "new.md"] = "the agent's\n"  # open, as the agent left it
    buffers.open[root / "typed.md"] = "the agent's\nthe user's, unsaved\n"
    buffers.open[root / "within.md"] = "the agent's, changed by the user\n"

    _, plan = await undo.plan("s1", 1, [str(root)])
    await undo.restore(plan, "s1", 1)
    # new.md's buffer goes with the file; typed.md's keeps the user's line alone, as a
    # rejection leaves it; within.md's, typed within the agent's line, keeps all it holds.
    assert buffers.removed == [
        (root / "new.md", "Undo turn 1: remove new.md", ""),
        (root / "typed.md", "Undo turn 1: remove typed.md", "the user's, unsaved\n"),
    ]
    assert not any((root / n).exists() for n in ("new.md", "typed.md", "within.md"))
    assert buffers.open == {
        root / "typed.md": "the user's, unsaved\n",
        root / "within.md": "the agent's, changed by the user\n",
    }


async def test_undoing_a_turn_keeps_an_earlier_turn_s_hunk_pending_where_it_is_now(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await turns.begin("s1", [str(root)])
    (root / "a.txt").write_text("one\nTWO\nthree\n")
    await turns.end("s1")
    (earlier,) = queue.select(session_id="s1")
    await turns.begin("s1", [str(root)])
    (root / "a.txt").unlink()  # a deletion holds no earlier hunk: both pending
    await turns.end("s1")
    later = [h for h in queue.select(session_id="s1") if h is not earlier]
    assert later and earlier.state == "pending"

    _, plan = await TurnUndo(turns).plan("s1", 2, [str(root)])
    await TurnUndo(turns).restore(plan, "s1", 2)
    assert (root / "a.txt").read_text() == "one\nTWO\nthree\n"
    assert {h.state for h in later} == {"rejected"}  # turn 2's change is gone
    assert earlier.state == "pending" and (earlier.hint, earlier.exact) == (1, True)
    assert earlier.view("one\nTWO\nthree\n", queue.known[str(root / "a.txt")])["range"] == {
        "start": {"line": 1, "character": 0},
        "end": {"line": 1, "character": 3},
    }
    await queue.decide([earlier], accept=False)  # and it can still be rejected
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
