"""Turn checkpoints feeding review: whatever changed a file during a turn is found, attributed,
and counted once (a real git store and a real review queue on disk)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from acp_editor.review.finding import turns as turns_module
from acp_editor.review.finding.intake import ReviewingDocuments
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointError, CheckpointStore
from acp_editor.services.watcher import DirectoryWatch
from acp_editor.session.state import SessionState
from tests.support.lsp import wait_until


def watch(root: Path) -> tuple[TurnWatch, ReviewQueue]:
    queue = ReviewQueue(DiskDocuments())
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, root.parent / "store"))
    queue.on_written = turns.written
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


class LiveTurn:
    """A turn with live looks, driven by tool-call updates as an agent would send them."""

    def __init__(self, root: Path) -> None:
        self.turns, self.queue = watch(root)
        self.reviewing = ReviewingDocuments(DiskDocuments(), self.queue, self.turns)
        self.state = SessionState("s1")
        self.root = root

    async def begin(self) -> None:
        await self.turns.begin("s1", [str(self.root)])
        await self.reviewing.watch("s1")

    def update(self, **update: Any) -> None:
        self.reviewing.observe(self.state, self.state.apply_update(update))

    def attributed(self) -> dict[str, str | None]:
        return {Path(h.path).name: h.tool_call_id for h in self.queue.hunks.values()}


async def test_a_live_look_finds_a_change_while_its_tool_call_runs(tmp_path: Path) -> None:
    live = LiveTurn(workspace(tmp_path))
    await live.begin()
    live.update(sessionUpdate="tool_call", toolCallId="t1", title="build", status="in_progress")
    (live.root / "a.txt").write_text("one\n")
    await wait_until(lambda: live.attributed() == {"a.txt": "t1"})
    live.update(sessionUpdate="tool_call_update", toolCallId="t1", status="completed")
    await live.reviewing.unwatch("s1")
    await live.reviewing.settle()
    assert await live.turns.end("s1") == []  # found once, while it ran


async def test_a_live_look_looks_only_where_the_watch_saw_changes(tmp_path: Path) -> None:
    """A live look reads only the paths the file watch reported (a big workspace is not walked
    each time a command writes); what no watch could see (a file in a folder that was empty,
    so unwatched) is found by the look everywhere at the turn's end."""
    root = workspace(tmp_path)
    (root / "empty").mkdir()
    live = LiveTurn(root)
    await live.begin()
    live.update(sessionUpdate="tool_call", toolCallId="t1", title="build", status="in_progress")
    await wait_until(lambda: live.reviewing._watches["s1"].ready.is_set())
    await live.reviewing.settle()  # the look everywhere once the watches are in place is over
    (root / "empty" / "unseen.txt").write_text("in no watched folder\n")
    (root / "a.txt").write_text("seen\n")
    await wait_until(lambda: live.attributed() == {"a.txt": "t1"})
    await live.reviewing.unwatch("s1")
    await live.reviewing.settle()
    assert live.attributed() == {"a.txt": "t1"}
    await live.turns.end("s1")
    assert live.attributed() == {"a.txt": "t1", "unseen.txt": None}


class BigTurns:
    """Turns in a workspace taken for a big one (``BIG_S`` 0), as ``agent.client`` runs them."""

    def __init__(self, root: Path) -> None:
        self.live = LiveTurn(root)
        self.roots = [str(root)]
        self.where: list[set[Path] | None] = []
        """Where each turn's end looked (None: everywhere)."""

    async def begin(self) -> DirectoryWatch:
        live = self.live
        await live.turns.begin("s1", self.roots, live.reviewing.begin_paths("s1", self.roots))
        await live.reviewing.watch("s1")
        # A big workspace's watch is set up in the background (``settle`` does not wait).
        await wait_until(lambda: "s1" in live.reviewing._watches)
        watch = live.reviewing._watches["s1"]
        await wait_until(watch.ready.is_set)
        await live.reviewing.settle()  # its first look (everywhere) is over
        return watch

    async def end(self) -> None:
        live = self.live
        where = await live.reviewing.end_turn("s1", self.roots)
        self.where.append(where)
        await live.reviewing.settle()
        await live.turns.end("s1", live.reviewing.late("s1", self.roots), where)


async def test_in_a_big_workspace_the_watch_stays_between_turns_and_looks_start_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a look everywhere is slow (BIG_S; any workspace here), the file watch is kept
    between turns: the next turn's checkpoint looks only where it saw changes (the user's edit
    between turns is in it, not in review), and a tool call's end the watch saw nothing of yet
    waits for the watch (its report goes to the call)."""
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    big = BigTurns(root)
    live, roots = big.live, big.roots
    begin, end = big.begin, big.end

    watch = await begin()
    await wait_until(watch.ready.is_set)
    await live.reviewing.settle()
    await end()
    assert live.reviewing._watches["s1"] is watch  # kept for the next turn
    (root / "a.txt").write_text("the user's, between turns\n")
    await wait_until(lambda: bool(watch._paths))
    assert live.reviewing.begin_paths("s1", roots) == {root / "a.txt"}
    (root / "a.txt").write_text("the user's, between turns, again\n")
    await wait_until(lambda: bool(watch._paths))
    assert await begin() is watch  # its checkpoint holds the user's text: not the agent's
    live.update(sessionUpdate="tool_call", toolCallId="e1", kind="edit", status="in_progress")
    (root / "gone.txt").write_text("the agent's\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="e1", status="completed")
    await wait_until(lambda: live.attributed() == {"gone.txt": "e1"})
    await end()
    assert live.attributed() == {"gone.txt": "e1"}
    await live.reviewing.close()


async def test_a_big_workspaces_turn_end_looks_where_the_watch_saw_once_it_took_in_the_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's end waits until the watch has taken in every event of the turn, then looks
    only where it saw changes: a folder that was empty is watched too. A folder made during
    the turn is not watched: that turn's end looks everywhere, and the next turn has a new
    watch that covers it."""
    monkeypatch.setattr(turns_module, "BIG_S", 0.0)
    root = workspace(tmp_path)
    (root / "empty").mkdir()
    big = BigTurns(root)
    await big.begin()
    await big.end()
    assert big.where == [None]  # the watch's first take: what came before it is not known

    first = await big.begin()
    (root / "a.txt").write_text("the agent's, at the turn's very end\n")
    (root / "empty" / "new.txt").write_text("in a folder that was empty\n")
    await big.end()
    assert big.where[-1] == {root / "a.txt", root / "empty" / "new.txt"}
    assert big.live.attributed() == {"a.txt": None, "new.txt": None}

    assert await big.begin() is first
    (root / "made").mkdir()
    (root / "made" / "x.txt").write_text("in a folder of this turn\n")
    await big.end()
    assert big.where[-1] is None  # everywhere: the watch did not cover the new folder
    assert "x.txt" in big.live.attributed()

    second = await big.begin()
    assert second is not first  # a new watch, of the new folder too
    (root / "made" / "y.txt").write_text("watched now\n")
    await big.end()
    assert big.where[-1] is None  # what changed before it was in place is not known
    assert "y.txt" in big.live.attributed()
    assert await big.begin() is second
    (root / "made" / "z.txt").write_text("seen by the watch\n")
    await big.end()
    assert big.where[-1] == {root / "made" / "z.txt"}
    assert "z.txt" in big.live.attributed()
    await big.live.reviewing.close()


async def test_a_slow_first_checkpoint_lets_the_prompt_go_and_says_what_it_could_not_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder's first checkpoint that takes longer than FIRST_WAIT_S (every file hashed)
    goes on while the turn runs; a file the agent changed before the checkpoint read it cannot
    be reviewed (what it held is not known), and the user is told."""
    monkeypatch.setattr(turns_module, "FIRST_WAIT_S", 0.0)
    root = workspace(tmp_path)
    turns, queue = watch(root)
    told: list[str] = []
    turns.on_notice = told.append
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


async def test_a_change_between_tool_calls_waits_for_the_next_one(tmp_path: Path) -> None:
    """Agents announce a tool call a moment after starting it at times: a change seen while
    none runs goes to the next one that starts."""
    live = LiveTurn(workspace(tmp_path))
    await live.begin()
    (live.root / "new.txt").write_text("early\n")
    live.update(sessionUpdate="tool_call", toolCallId="t2", title="write", status="pending")
    await wait_until(lambda: live.attributed() == {"new.txt": "t2"})
    await live.reviewing.close()


async def test_no_look_after_a_read_only_tool_call_but_after_an_edit(tmp_path: Path) -> None:
    """Without live looks, only tool calls that may change files are looked after when they
    end: what a read changed anyway is found by the next look (or the turn's end)."""
    live = LiveTurn(workspace(tmp_path))
    await live.turns.begin("s1", [str(live.root)])
    live.update(sessionUpdate="tool_call", toolCallId="r1", kind="read", status="in_progress")
    (live.root / "a.txt").write_text("a read that wrote\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="r1", status="completed")
    await live.reviewing.settle()
    assert live.attributed() == {}
    live.update(sessionUpdate="tool_call", toolCallId="e1", kind="edit", status="in_progress")
    (live.root / "new.txt").write_text("an edit\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="e1", status="completed")
    await live.reviewing.settle()
    assert live.attributed() == {"a.txt": "e1", "new.txt": "e1"}


def test_groups_use_the_watch_s_own_store_of_a_root(tmp_path: Path) -> None:
    """One store, so one lock, per root: a bulk group's snapshot waits for a look's."""
    root = workspace(tmp_path)
    turns, queue = watch(root)
    assert queue.bulk.store(str(root)) is turns.store(root)
