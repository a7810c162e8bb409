"""A workspace made ready for its first turn before any prompt (a real git store, a real file
watch): the first turn starts as later turns do, from a watch, and finds the same changes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from acp_editor.review.finding import turns as turns_module
from acp_editor.review.finding.ahead import Ahead
from acp_editor.review.finding.looks import Looks
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointStore
from tests.support.lsp import wait_until


class Ready:
    """A turn watch, what a session's agent reviews through, and ``Ahead`` for them."""

    def __init__(self, root: Path, mode: str = "after-write") -> None:
        self.root = root
        self.queue = ReviewQueue(DiskDocuments(), mode)  # type: ignore[arg-type]
        self.turns = TurnWatch(self.queue, lambda r: CheckpointStore(r, root.parent / "store"))
        self.ahead = Ahead(self.turns)
        self.looks = Looks(self.turns, self.queue, self.ahead)
        self.session = self.looks.session("s1")
        self.roots = [str(root)]

    async def begin(self) -> set[Path] | None:
        """A turn's start as ``review.agent_review.AgentReview.begin_turn`` makes it: where its
        checkpoint looked (None: everywhere)."""
        await self.session.adopt(self.roots)
        since = self.session.begin_paths(self.roots)
        await self.turns.begin("s1", self.roots, since)
        await self.session.watch()
        return since

    async def end(self) -> set[Path] | None:
        where = await self.session.end_turn(self.roots)
        await self.looks.settle()
        await self.turns.end("s1", self.session.late(self.roots), where)
        return where

    def found(self) -> list[str]:
        return sorted(Path(h.path).name for h in self.queue.hunks.values())


def committed(root: Path, *paths: str) -> None:
    """``root`` a repository with ``paths`` committed."""
    git = ["git", "-c", "user.email=t@x", "-c", "user.name=t", "-C", str(root)]
    for args in (["init", "-q"], ["add", *paths], ["commit", "-q", "-m", "one"]):
        subprocess.run([*git, *args], check=True)


def workspace(tmp_path: Path, repository: bool = True) -> Path:
    """Two files in a folder and one at the top, committed in a repository."""
    root = (tmp_path / "w").resolve()
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("one\n")
    (root / "src" / "b.txt").write_text("two\n")
    if repository:
        committed(root, "a.txt", "src")
    return root


async def test_the_first_turn_starts_from_the_watch_made_ready_and_finds_what_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where looks everywhere are slow (BIG_S; any workspace here): the first checkpoint and a
    watch of every folder before the first prompt; the user's edit after that is in the first
    turn's checkpoint (not review), which looks only where the watch saw it; the turn's change
    in a folder is found, and its end looks only where the watch saw changes."""
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    ready = Ready(root)
    await ready.ahead.prepare(root)
    assert ready.turns.store(root).started()
    watch = ready.ahead._ready[root]
    (root / "a.txt").write_text("the user's, before the first prompt\n")
    await wait_until(lambda: bool(watch._paths))
    assert await ready.begin() == {root / "a.txt"}
    assert ready.session.watch_of_turn is watch  # taken over, not made again
    (root / "src" / "b.txt").write_text("the agent's\n")
    await wait_until(lambda: bool(watch._paths))
    assert await ready.end() == {root / "src" / "b.txt"}
    assert ready.found() == ["b.txt"]
    await ready.looks.close()


async def test_a_small_workspace_gets_its_first_checkpoint_and_no_watch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns_module, "BIG_S", 3600.0)  # looks everywhere are never slow
    root = workspace(tmp_path)
    ready = Ready(root)
    await ready.ahead.prepare(root)
    assert ready.turns.store(root).started()
    assert await ready.ahead.take(ready.roots, lambda: None) is None
    (root / "a.txt").write_text("the agent's\n")
    assert await ready.begin() is None  # everywhere: there is no watch
    (root / "src" / "b.txt").write_text("the agent's too\n")
    assert await ready.end() is None
    assert ready.found() == ["b.txt"]  # a.txt changed before the turn: in its checkpoint


async def test_nothing_is_prepared_once_a_turn_has_begun_or_with_review_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    ready = Ready(root)
    await ready.begin()
    await ready.ahead.prepare(root)
    assert ready.ahead._ready == {}
    await ready.end()
    await ready.looks.close()

    off = Ready(workspace(tmp_path / "off"), mode="off")
    await off.ahead.prepare(off.root)
    assert not off.turns.store(off.root).started()


async def test_a_folder_that_is_no_repository_is_left_to_its_first_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its first checkpoint reads every file: not done for a workspace merely opened."""
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path, repository=False)
    ready = Ready(root)
    await ready.ahead.prepare(root)
    assert not (tmp_path / "store").exists() and ready.ahead._ready == {}


async def test_a_watch_nobody_took_is_stopped_on_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    ready = Ready(root)
    ready.ahead.start(root)
    assert (
        await ready.ahead.take(["/elsewhere", str(root)], lambda: None) is None
    )  # two roots: none taken
    watch = ready.ahead._ready[root]
    await ready.ahead.close()
    assert not watch.take_ok() and ready.ahead._ready == {}


async def test_a_repositorys_folders_are_watched_before_its_first_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository's folders come from its index (borrowed) and the folders it has no file of,
    before the first checkpoint: one look everywhere, and a change made right after it is
    seen by the watch."""
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    (root / "empty").mkdir()
    (root / "untracked" / "below").mkdir(parents=True)
    (root / "untracked" / "below" / "u.txt").write_text("not committed\n")
    ready = Ready(root)
    looks: list[Path] = []
    ahead = ready.turns.ahead

    async def counted(where: Path) -> str | None:
        looks.append(where)
        return await ahead(where)

    monkeypatch.setattr(ready.turns, "ahead", counted)
    await ready.ahead.prepare(root)
    assert looks == [root]
    watch = ready.ahead._ready[root]
    assert set(watch.directories) >= {
        root,
        root / "src",
        root / "empty",
        root / "untracked",
        root / "untracked" / "below",
    }
    (root / "untracked" / "below" / "u.txt").write_text("the agent's\n")
    assert await ready.begin() is not None
    assert await ready.end() == {root / "untracked" / "below" / "u.txt"}
    assert ready.found() == ["u.txt"]
    await ready.looks.close()
