"""Sessions' own worktrees and the record of which files turns changed, as retention sees them
(real worktrees made by ``services.worktrees``, real turns by ``TurnWatch``, in a throw-away
state directory): listed per root, gone with a root gone for 7 days, never while the repository
is there, and a deleted session's record entries dropped while its worktree stays."""

from __future__ import annotations

import io
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from acp_editor.services import worktrees
from acp_editor.services.retention import command, inventory
from acp_editor.services.retention.policy import DAY
from acp_editor.services.retention.pruning import forget_session, prune_all
from acp_editor.storage import state_dir
from tests.support.kept import repository, take_turns, watch


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def project(tmp_path: Path, name: str = "repo") -> Path:
    root = (tmp_path / name).resolve()
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("start\n")
    (root / "src" / "b.py").write_text("b = 1\n")
    repository(root)
    return root


def paths_record(root: Path) -> list[tuple[str, int]]:
    path = state_dir() / "turn-paths" / f"{inventory.key_of(root)}.json"
    return [(t["session"], t["turn"]) for t in json.loads(path.read_text())["turns"]]


def backdate(folder: Path, days: float) -> None:
    when = time.time() - days * DAY
    for top, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            os.utime(os.path.join(top, name), (when, when), follow_symlinks=False)


async def test_worktrees_and_the_turn_record_are_listed_by_root(tmp_path: Path) -> None:
    root = project(tmp_path)
    await take_turns(watch(), root, "s1", 2)
    made = await worktrees.create(root, "new-1")
    made = await worktrees.rekey(made, "s1")
    (made.tree / "a.txt").write_text("the session's work\n")

    [kept] = inventory.everything()
    assert (kept.root, kept.sessions) == (root, ["s1"])
    [listed] = kept.worktrees
    assert (listed.session, listed.home, listed.repository) == ("s1", Path(made.home), str(root))
    assert listed.size > 0 and listed.changed is not None
    assert time.time() - listed.changed < 60
    assert kept.size > listed.size + kept.paths_file.stat().st_size

    text = io.StringIO()
    command.show(out=text)
    assert "; which files turns changed (" in text.getvalue()
    assert "  worktree of session s1: " in text.getvalue()
    assert f"({made.tree})\n" in text.getvalue()
    as_json = io.StringIO()
    command.show(as_json=True, out=as_json)
    [entry] = json.loads(as_json.getvalue())
    [worktree] = entry["worktrees"]
    assert (worktree["session"], worktree["path"]) == ("s1", str(made.tree))
    assert worktree["bytes"] == listed.size and worktree["lastChanged"]
    assert entry["turnPathsBytes"] == kept.paths_file.stat().st_size


async def test_a_worktree_of_a_folder_in_a_repository_is_kept_under_the_repository(
    tmp_path: Path,
) -> None:
    """A session of ``src/`` has its worktree under the repository's top: listed there, the
    root ``worktree.json`` names (no checkpoint store names it)."""
    root = project(tmp_path)
    await worktrees.create(root / "src", "s1")
    [kept] = inventory.everything()
    assert (kept.key, kept.root, kept.exists) == (inventory.key_of(root), root, True)
    assert [w.session for w in kept.worktrees] == ["s1"] and not kept.turns


async def test_a_gone_roots_worktrees_and_record_go_after_seven_days_not_before(
    tmp_path: Path,
) -> None:
    gone, stays = project(tmp_path, "gone"), project(tmp_path, "stays")
    turns = watch()
    await take_turns(turns, gone, "s1", 1)
    await take_turns(turns, stays, "s1", 1)
    lost = await worktrees.create(gone, "s1")
    kept = await worktrees.create(stays, "s1")
    prune_all([gone, stays])
    key = inventory.key_of(gone)
    shutil.rmtree(gone)

    assert prune_all(force=True) == []  # first seen missing
    assert prune_all(force=True, now=time.time() + 6 * DAY) == []
    assert Path(lost.home).is_dir()
    [would] = prune_all(force=True, now=time.time() + 8 * DAY, dry_run=True)
    assert would.what.startswith("everything (its folder is gone): 1 turn of 1 session")
    assert "which files its turns changed, 1 session worktree (s1)" in would.what
    assert Path(lost.home).is_dir()

    measured = inventory.worktrees(state_dir() / "worktrees" / key, measure=True)
    [removed] = prune_all(force=True, now=time.time() + 8 * DAY)
    assert (removed.root, removed.what) == (gone, would.what)
    assert removed.freed and removed.freed > measured[0].size > 0
    assert not (state_dir() / "worktrees" / key).exists()
    assert not (state_dir() / "turn-paths" / f"{key}.json").exists()
    assert key not in inventory.all_keys()
    assert (kept.tree / "a.txt").read_text() == "s1 turn 2\n"  # numbered per session
    assert paths_record(stays) == [("s1", 2)]


async def test_a_worktree_whose_repository_is_there_is_never_pruned(tmp_path: Path) -> None:
    root = project(tmp_path)
    made = await worktrees.create(root, "s1")
    orphan = await worktrees.create(root, "s2")
    (Path(orphan.home) / "worktree.json").unlink()  # names nothing: its root unknown
    backdate(state_dir(), days=400)
    for days in (0, 8, 400):
        assert prune_all([root], force=True, now=time.time() + days * DAY) == []
    assert prune_all(force=True, now=time.time() + 400 * DAY, dry_run=True) == []
    assert Path(made.home, "tree", "a.txt").is_file()
    assert Path(orphan.home, "tree", "a.txt").is_file()

    shutil.rmtree(state_dir() / "worktrees" / inventory.key_of(root) / Path(made.home).name)
    [kept] = inventory.everything()  # only the one whose repository nothing names
    assert (kept.root, [w.session for w in kept.worktrees]) == (None, [Path(orphan.home).name])
    assert prune_all(force=True, now=time.time() + 400 * DAY) == []


async def test_deleting_a_session_drops_its_turn_record_and_leaves_its_worktree(
    tmp_path: Path,
) -> None:
    one, two = project(tmp_path, "one"), project(tmp_path, "two")
    turns = watch()
    await take_turns(turns, one, "gone:1", 2)
    await take_turns(turns, one, "s2", 1)
    await take_turns(turns, two, "gone:1", 1)
    made = await worktrees.create(one, "gone:1")
    forget_session("gone:1", dry_run=True)
    assert paths_record(one) == [("gone:1", 1), ("gone:1", 2), ("s2", 1)]
    # Two's checkpoints already gone (pruned): only its record is left to drop.
    shutil.rmtree(state_dir() / "checkpoints" / inventory.key_of(two) / "refs" / "acp")

    out = io.StringIO()
    assert command.clean(command.Clean(sessions=["gone:1"]), out=out) == 0
    said = out.getvalue().splitlines()
    assert f"removed {one}: 2 turns of 1 session" in said
    assert (
        f"removed {two}: which files 1 turn of it changed, the note it was the last session" in said
    )
    assert said[-1].startswith(f"kept the worktree of session gone:1: {made.tree} (")
    assert paths_record(one) == [("s2", 1)]
    assert not (state_dir() / "turn-paths" / f"{inventory.key_of(two)}.json").exists()
    assert (made.tree / "a.txt").is_file()
    assert forget_session("gone:1") == []
