"""Turn checkpoints feeding review: whatever changed a file during a turn is found, attributed,
and counted once (a real git store and a real review queue on disk)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from acp_editor.review.finding import turns as turns_module
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointError, CheckpointStore


def watch(root: Path, **given: Any) -> tuple[TurnWatch, ReviewQueue]:
    """A turn watch and its queue, wired as ``review.owner`` wires them: the queue's own
    writes told to the watch, its groups kept in the watch's stores."""
    turns: TurnWatch
    queue = ReviewQueue(
        DiskDocuments(),
        on_written=lambda path, text: turns.written(path, text),
        store_for=lambda r: turns.store(r),
    )
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, root.parent / "store"), **given)
    return turns, queue


def workspace(tmp_path: Path) -> Path:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\nthree\n")
    (root / "gone.txt").write_text("bye\n")
    return root


async def test_a_command_creating_changing_and_deleting_files_becomes_review(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    turn = await turns.begin("s1", [str(root)])
    assert turn is not None and turn.number == 1
    command = await asyncio.create_subprocess_shell(
        "sed -i 's/two/TWO/' a.txt && rm gone.txt && echo fresh > new.txt", cwd=root
    )
    assert await command.wait() == 0
    found = await turns.look("s1", "t1")
    assert sorted((c.path.name, c.status) for c in found) == [
        ("a.txt", "modified"),
        ("gone.txt", "deleted"),
        ("new.txt", "added"),
    ]
    by_file = {Path(h.path).name: h for h in queue.hunks.values()}
    assert {h.tool_call_id for h in by_file.values()} == {"t1"}
    assert (by_file["a.txt"].anchor.old_lines, by_file["a.txt"].anchor.new_lines) == (
        ("two",),
        ("TWO",),
    )
    assert by_file["gone.txt"].anchor.old_lines == ("bye",)
    assert by_file["new.txt"].anchor.new_lines == ("fresh",)
    assert await turns.end("s1") == []  # nothing new since the last look


async def test_changes_after_the_last_tool_call_belong_to_the_turn(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await turns.begin("s1", [str(root)])
    (root / "a.txt").write_text("one\ntwo\nthree\nfour\n")
    (found,) = await turns.end("s1")
    assert found.path == root / "a.txt"
    (hunk,) = queue.hunks.values()
    assert hunk.tool_call_id is None and hunk.anchor.new_lines == ("four",)
    assert await turns.look("s1", None) == []  # the turn is over


async def test_our_own_writes_are_not_counted_twice(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await turns.begin("s1", [str(root)])
    (root / "a.txt").write_text("ours\n")
    turns.written(root / "a.txt", "ours\n")
    assert await turns.look("s1", "t1") == []
    # The agent then changes what we wrote: only its part is new.
    (root / "a.txt").write_text("ours\ntheirs\n")
    await turns.look("s1", "t2")
    (hunk,) = queue.hunks.values()
    assert (hunk.anchor.old_lines, hunk.anchor.new_lines) == ((), ("theirs",))


async def test_binary_changes_are_not_reviewed(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await turns.begin("s1", [str(root)])
    (root / "image.png").write_bytes(b"\x89PNG\0\0data")
    assert await turns.look("s1", None) == []
    assert queue.hunks == {}


async def test_without_git_checkpoints_are_off_and_say_why(tmp_path: Path) -> None:
    root = workspace(tmp_path)

    class NoGit(CheckpointStore):
        async def snapshot(self) -> str:
            raise CheckpointError("git is not installed: turn checkpoints are off")

    queue = ReviewQueue(DiskDocuments())
    turns = TurnWatch(queue, lambda r: NoGit(r, tmp_path / "store"))
    assert await turns.begin("s1", [str(root)]) is None
    assert turns.disabled is not None and "git is not installed" in turns.disabled
    assert await turns.look("s1", None) == []


async def test_rejecting_a_deletion_restores_the_file_and_a_creation_removes_it(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await turns.begin("s1", [str(root)])
    (root / "gone.txt").unlink()
    (root / "new.txt").write_text("fresh\nlines\n")
    await turns.end("s1")
    results = await queue.decide(list(queue.hunks.values()), accept=False)
    assert {r["state"] for r in results} == {"rejected"}
    assert (root / "gone.txt").read_text() == "bye\n"
    assert not (root / "new.txt").exists()
    # The next turn does not take our restoring for the agent's work.
    await turns.begin("s1", [str(root)])
    assert await turns.end("s1") == []


async def test_a_slow_first_checkpoint_lets_the_prompt_go_and_says_what_it_could_not_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder's first checkpoint that takes longer than FIRST_WAIT_S (every file hashed)
    goes on while the turn runs; a file the agent changed before the checkpoint read it cannot
    be reviewed (what it held is not known), and the user is told."""
    monkeypatch.setattr(turns_module, "FIRST_WAIT_S", 0.0)
    root = workspace(tmp_path)
    told: list[str] = []
    turns, queue = watch(root, on_notice=told.append)
    turn = await turns.begin("s1", [str(root)])
    assert turn is not None and turns.pending("s1")  # the prompt would go now
    (root / "a.txt").write_text("changed before the checkpoint read it\n")
    await turns.end("s1")
    assert queue.hunks == {}
    (notice,) = told
    assert "1 file(s) changed meanwhile" in notice and "a.txt" in notice
    await turns.begin("s1", [str(root)])  # the next turn's checkpoint is quick and exact
    assert not turns.pending("s1")
    (root / "a.txt").write_text("changed in the second turn\n")
    (found,) = await turns.end("s1")
    assert found.path == root / "a.txt" and len(queue.hunks) == 1
