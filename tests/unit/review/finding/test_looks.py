"""When review looks at the disk while a turn runs (``review.finding.looks``): a tool call's
end, the file watch's live looks, a big workspace's watch kept between turns (a real git store,
a real file watch and a real review queue on disk)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.review.finding import turns as turns_module
from acp_editor.review.finding.looks import Looks
from acp_editor.services.watcher import DirectoryWatch
from acp_editor.session.state import SessionState
from tests.support.lsp import wait_until
from tests.unit.review.finding.test_turns import watch, workspace


class LiveTurn:
    """A turn with live looks, driven by tool-call updates as an agent would send them."""

    def __init__(self, root: Path) -> None:
        self.turns, self.queue = watch(root)
        self.looks = Looks(self.turns, self.queue)
        self.session = self.looks.session("s1")
        self.state = SessionState("s1")
        self.root = root

    async def begin(self) -> None:
        await self.turns.begin("s1", [str(self.root)])
        await self.session.watch()

    def update(self, **update: Any) -> None:
        self.looks.observe(self.state, self.state.apply_update(update))

    def attributed(self) -> dict[str, str | None]:
        return {Path(h.path).name: h.tool_call_id for h in self.queue.hunks.values()}


async def test_a_live_look_finds_a_change_while_its_tool_call_runs(tmp_path: Path) -> None:
    live = LiveTurn(workspace(tmp_path))
    await live.begin()
    live.update(sessionUpdate="tool_call", toolCallId="t1", title="build", status="in_progress")
    (live.root / "a.txt").write_text("one\n")
    await wait_until(lambda: live.attributed() == {"a.txt": "t1"})
    live.update(sessionUpdate="tool_call_update", toolCallId="t1", status="completed")
    live.session.unwatch()
    await live.looks.settle()
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
    await wait_until(lambda: live.session.watch_of_turn.ready.is_set())
    await live.looks.settle()  # the look everywhere once the watches are in place is over
    (root / "empty" / "unseen.txt").write_text("in no watched folder\n")
    (root / "a.txt").write_text("seen\n")
    await wait_until(lambda: live.attributed() == {"a.txt": "t1"})
    live.session.unwatch()
    await live.looks.settle()
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
        await live.turns.begin("s1", self.roots, live.session.begin_paths(self.roots))
        await live.session.watch()
        # A big workspace's watch is set up in the background (``settle`` does not wait).
        await wait_until(lambda: live.session.watch_of_turn is not None)
        watch = live.session.watch_of_turn
        await wait_until(watch.ready.is_set)
        await live.looks.settle()  # its first look (everywhere) is over
        return watch

    async def end(self) -> None:
        live = self.live
        where = await live.session.end_turn(self.roots)
        self.where.append(where)
        await live.looks.settle()
        await live.turns.end("s1", live.session.late(self.roots), where)


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
    await live.looks.settle()
    await end()
    assert live.session.watch_of_turn is watch  # kept for the next turn
    (root / "a.txt").write_text("the user's, between turns\n")
    await wait_until(lambda: bool(watch._paths))
    assert live.session.begin_paths(roots) == {root / "a.txt"}
    (root / "a.txt").write_text("the user's, between turns, again\n")
    await wait_until(lambda: bool(watch._paths))
    assert await begin() is watch  # its checkpoint holds the user's text: not the agent's
    live.update(sessionUpdate="tool_call", toolCallId="e1", kind="edit", status="in_progress")
    (root / "gone.txt").write_text("the agent's\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="e1", status="completed")
    await wait_until(lambda: live.attributed() == {"gone.txt": "e1"})
    await end()
    assert live.attributed() == {"gone.txt": "e1"}
    await live.looks.close()


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
    await big.live.looks.close()


async def test_a_change_between_tool_calls_waits_for_the_next_one(tmp_path: Path) -> None:
    """Agents announce a tool call a moment after starting it at times: a change seen while
    none runs goes to the next one that starts."""
    live = LiveTurn(workspace(tmp_path))
    await live.begin()
    (live.root / "new.txt").write_text("early\n")
    live.update(sessionUpdate="tool_call", toolCallId="t2", title="write", status="pending")
    await wait_until(lambda: live.attributed() == {"new.txt": "t2"})
    await live.looks.close()


async def test_no_look_after_a_read_only_tool_call_but_after_an_edit(tmp_path: Path) -> None:
    """Without live looks, only tool calls that may change files are looked after when they
    end: what a read changed anyway is found by the next look (or the turn's end)."""
    live = LiveTurn(workspace(tmp_path))
    await live.turns.begin("s1", [str(live.root)])
    live.update(sessionUpdate="tool_call", toolCallId="r1", kind="read", status="in_progress")
    (live.root / "a.txt").write_text("a read that wrote\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="r1", status="completed")
    await live.looks.settle()
    assert live.attributed() == {}
    live.update(sessionUpdate="tool_call", toolCallId="e1", kind="edit", status="in_progress")
    (live.root / "new.txt").write_text("an edit\n")
    live.update(sessionUpdate="tool_call_update", toolCallId="e1", status="completed")
    await live.looks.settle()
    assert live.attributed() == {"a.txt": "e1", "new.txt": "e1"}
