"""Pruning real checkpoint stores (made by the real ``TurnWatch``, in a throw-away state
directory): what undo needs stays restorable, the rest goes with its objects, held review trees
and the user's repository are never touched, a gone root's things go whole after a while, and
a deleted session's checkpoints go at once."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from acp_editor.review.finding.turn_names import last_session
from acp_editor.review.queue.persist import store_path
from acp_editor.review.undo import TurnUndo
from acp_editor.services.git.checkpoints import CheckpointError, CheckpointStore, store_for
from acp_editor.services.retention import inventory, plumbing
from acp_editor.services.retention.policy import DAY, Limits
from acp_editor.services.retention.pruning import forget_session, keep_pruned, prune_all
from acp_editor.storage import state_dir
from tests.support.kept import (
    age,
    backdate_objects,
    fingerprint,
    has_blob,
    refs,
    repository,
    take_turns,
    watch,
)
from tests.support.lsp import wait_until

FEW = Limits(turns=3)


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def workspace(tmp_path: Path, name: str = "w") -> Path:
    root = (tmp_path / name).resolve()
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("start\n")
    (root / "src" / "b.py").write_text("b = 1\n")
    return root


async def test_pruned_turns_cannot_be_undone_kept_ones_can_held_trees_stay(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns = watch()
    await take_turns(turns, root, "old", 6)
    await take_turns(turns, root, "new", 2)
    (root / "held.txt").write_text("only a held group has this\n")
    store = CheckpointStore(root)
    held = await store.snapshot()
    await store.keep(f"held/{held}", held)
    (root / "held.txt").unlink()
    age(root, "old", days=30)
    backdate_objects(root)
    assert has_blob(root, "old turn 2\n")

    [removal] = prune_all([root], limits=FEW)
    assert removal.what.startswith("3 turns of 1 session") and removal.freed

    again = watch()  # a fresh run: only what is on disk
    with pytest.raises(CheckpointError, match="no checkpoint before turn 3"):
        await TurnUndo(again).plan("old", 3, [str(root)])
    assert not has_blob(root, "old turn 2\n")  # turn 3's checkpoint was all that held it
    _, plan = await TurnUndo(again).plan("old", 5, [str(root)])
    assert [(p.path.name, p.before) for p in plan] == [("a.txt", "old turn 4\n")]
    _, plan = await TurnUndo(again).plan("new", 1, [str(root)])  # recent: every turn
    assert [(p.path.name, p.before) for p in plan] == [("a.txt", "old turn 6\n")]
    assert f"refs/acp/held/{held}" in refs(root)
    assert await store.read(held, root / "held.txt") == b"only a held group has this\n"
    await take_turns(again, root, "new", 1)  # the store's index kept its blobs
    _, plan = await TurnUndo(again).plan("new", 3, [str(root)])
    assert [(p.path.name, p.before) for p in plan] == [("a.txt", "new turn 2\n")]


async def test_a_checkpoint_nobody_names_is_safe_for_a_day(tmp_path: Path) -> None:
    """A running turn compares with the checkpoint of its last look, which no ref names."""
    root = workspace(tmp_path)
    store = CheckpointStore(root)
    (root / "a.txt").write_text("seen by a look\n")
    seen = await store.snapshot()
    (root / "a.txt").write_text("now\n")
    await store.snapshot()  # the index moves on: nothing reachable holds ``seen`` any more
    prune_all([root], force=True)
    assert await store.read(seen, root / "a.txt") == b"seen by a look\n"
    backdate_objects(root)
    prune_all([root], force=True)
    assert not has_blob(root, "seen by a look\n")


async def test_the_users_repository_is_unchanged_byte_for_byte(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    repository(root)
    turns = watch()
    await take_turns(turns, root, "s1", 4)
    (root / "a.txt").write_text("start\n")  # back to what the repository has
    await take_turns(turns, root, "s2", 1)
    assert (store_for(root) / "objects" / "info" / "alternates").exists()  # borrowed

    def look() -> tuple[dict[str, str], str, str]:
        def git(*args: str) -> str:
            return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True).stdout

        return fingerprint(root / ".git"), git("for-each-ref"), git("count-objects", "-v")

    before = look()
    age(root, "s1", days=120)
    age(root, "s2", days=100)
    backdate_objects(root)
    assert prune_all([root], limits=FEW)
    assert look() == before
    again = watch()
    _, plan = await TurnUndo(again).plan("s2", 1, [str(root)])  # the root's last session
    assert [(p.path.name, p.before) for p in plan] == [("a.txt", "start\n")]  # a borrowed blob
    with pytest.raises(CheckpointError):  # 120 days unused
        await TurnUndo(again).plan("s1", 4, [str(root)])


async def test_a_gone_roots_things_go_whole_after_seven_days(tmp_path: Path) -> None:
    gone, stays = workspace(tmp_path, "gone"), workspace(tmp_path, "stays")
    turns = watch()
    await take_turns(turns, gone, "s1", 2)
    await take_turns(turns, stays, "s1", 2)
    review = store_path(gone)
    review.parent.mkdir(parents=True, exist_ok=True)
    review.write_text(json.dumps({"version": 1, "root": str(gone), "hunks": [{}]}))
    groups = review.with_name(review.stem + "-groups.json")
    groups.write_text(json.dumps({"version": 1, "root": str(gone), "groups": [{}]}))
    prune_all([gone, stays])  # both stores learn their root
    gone_key = inventory.key_of(gone)
    shutil.rmtree(gone)

    assert prune_all(force=True) == []  # first seen missing: nothing goes yet
    assert inventory.read(gone_key).exists is False
    removed = prune_all(now=time.time() + 8 * DAY)
    assert [(r.root, r.what.split(":")[0]) for r in removed] == [
        (gone, "everything (its folder is gone)")
    ]
    assert "1 pending review hunk" in removed[0].what
    assert gone_key not in inventory.all_keys()
    assert not store_for(gone).exists() and not review.exists() and not groups.exists()
    assert not (state_dir() / "turns" / f"{gone_key}.json").exists()
    assert len(refs(stays)) == 2


async def test_a_root_that_comes_back_starts_its_seven_days_again(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    await take_turns(watch(), root, "s1", 1)
    prune_all([root])
    away = root.rename(tmp_path / "away")
    prune_all(force=True)  # marked missing
    away.rename(root)
    prune_all(force=True, now=time.time() + 2 * DAY)  # there again: the mark goes
    root.rename(away)
    assert prune_all(force=True, now=time.time() + 8 * DAY) == []  # missing since just now
    assert inventory.read(inventory.key_of(root)).turns


async def test_a_store_is_pruned_once_a_day_and_by_one_sidecar_at_a_time(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    await take_turns(watch(), root, "s1", 5)
    age(root, "s1", days=30)
    lock = state_dir() / "retention" / f"{inventory.key_of(root)}.lock"
    with plumbing.locked(lock) as ours:
        assert ours
        assert prune_all([root], limits=FEW) == []  # another one is at it
    assert len(refs(root)) == 5
    assert [r.what.split(",")[0] for r in prune_all([root], limits=FEW)] == ["2 turns of 1 session"]
    assert prune_all([root], limits=Limits(turns=1)) == []  # pruned less than a day ago
    assert len(refs(root)) == 3
    assert not list((store_for(root) / "refs" / "acp").rglob("turn-*"))  # packed: one file
    turns = inventory.read(inventory.key_of(root)).turns
    assert all(time.time() - t.when > 29 * DAY for t in turns)  # their times kept beside
    assert prune_all([root], limits=Limits(turns=1), force=True)
    assert len(refs(root)) == 1


async def test_a_dry_run_removes_nothing(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    await take_turns(watch(), root, "s1", 5)
    age(root, "s1", days=30)
    [removal] = prune_all([root], limits=FEW, dry_run=True)
    assert removal.what == "2 turns of 1 session" and removal.freed is None
    assert len(refs(root)) == 5


async def test_deleting_a_session_drops_its_checkpoints_in_every_root(tmp_path: Path) -> None:
    one, two = workspace(tmp_path, "one"), workspace(tmp_path, "two")
    turns = watch()
    await take_turns(turns, one, "s2", 1)
    await take_turns(turns, one, "gone:1", 2)
    await take_turns(turns, two, "gone:1", 1)
    await take_turns(turns, two, "s2", 1)
    store = CheckpointStore(one)
    tree = await store.snapshot()
    await store.keep(f"held/{tree}", tree)
    packed = prune_all([one, two])  # nothing old: only packed
    assert [r.what for r in packed] == ["objects no checkpoint needs, the rest packed"] * 2
    await take_turns(turns, one, "gone:1", 1)  # a loose one beside them

    removed = forget_session("gone:1")
    assert sorted((r.root, r.what) for r in removed) == [
        (one, "3 turns of 1 session, the note it was the last session"),
        (two, "1 turn of 1 session"),
    ]
    assert refs(one) == [f"refs/acp/held/{tree}", "refs/acp/s2/turn-1"]
    assert refs(two) == ["refs/acp/s2/turn-2"]  # numbered per session
    assert await last_session([str(one)]) is None
    assert await last_session([str(two)]) == "s2"
    assert forget_session("held") == []  # named like held trees: never touched
    assert f"refs/acp/held/{tree}" in refs(one)


async def test_what_is_kept_is_listed_by_root(tmp_path: Path, state: Path) -> None:
    plain = workspace(tmp_path)
    await take_turns(watch(), plain, "s1", 2)
    (state / "review").mkdir(parents=True, exist_ok=True)
    (state / "review" / "notes.txt").write_text("not ours")
    (state / "checkpoints" / "stray").mkdir()
    # The store names its root from its first checkpoint on (acp-root).
    assert inventory.read(inventory.key_of(plain)).root == plain
    inventory.remember(plain)
    [kept] = inventory.everything()
    assert (kept.root, kept.exists, kept.sessions, kept.last_session) == (
        plain,
        True,
        ["s1"],
        "s1",
    )
    assert [t.number for t in kept.turns] == [1, 2] and kept.size > 0


async def test_the_background_pass_runs_later_in_a_thread_and_stops_when_cancelled(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    await take_turns(watch(), root, "s1", 1)
    pruned = state_dir() / "retention" / f"{inventory.key_of(root)}.pruned"
    task = asyncio.ensure_future(keep_pruned(lambda: [str(root)], delay=0.05, every=3600))
    await wait_until(pruned.exists)
    assert inventory.read(inventory.key_of(root)).root == root
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
