"""A plain editor's one message of a turn's bulk-change groups (``EditorGroups``): told once
the turn is over for review too, with every file it found (a real checkpoint store on disk)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest

from acp_editor.editor.buffers import review_groups
from acp_editor.editor.buffers.review_groups import EditorGroups
from acp_editor.review.owner import Review
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import Change, CheckpointStore
from tests.support.fake_editor import FakeChannel

if TYPE_CHECKING:
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.session.state import SessionView


class Slot:
    """What ``EditorGroups`` reads of the agents: no session running (the agent has said its
    turn ended)."""

    def session_state(self, session_id: str) -> SessionView | None:
        return None


async def test_a_turns_groups_are_told_once_its_last_look_is_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent's turn is over, review's last look still finds files: a message then (the
    settle timer's) counted 19,112 of 20,000; it waits for the look, and says them all."""
    monkeypatch.setattr(review_groups, "ANNOUNCE_AFTER_S", 0)
    root = tmp_path / "w"
    root.mkdir()
    review = Review(DiskDocuments(), store_for=lambda r: CheckpointStore(r, tmp_path / "store"))
    turns = review.for_agent().turns
    turn = await turns.begin("s1", [str(root)])
    assert turn is not None
    editor = FakeChannel()
    groups = EditorGroups(cast("EditorChannel", editor), cast("AgentSlot", Slot()), lambda: review)
    review.queue.bulk.on_change = groups.changed
    settled = asyncio.Event()
    tell = groups._settled  # the timer's end: seen, so that no sleep guesses it
    monkeypatch.setattr(groups, "_settled", lambda: (tell(), settled.set()))

    def found(first: int, last: int) -> list[Change]:
        return [
            Change(root / "gen" / f"f{n}.js", "added", None, "e" * 40) for n in range(first, last)
        ]

    bulk, tree = review.queue.bulk, turn.base[root.resolve()]
    group = await bulk.record("s1", None, root, root / "gen", found(0, 30), tree)
    await settled.wait()
    assert editor.messages == []  # the turn's last look runs: more may come
    await bulk.record("s1", None, root, root / "gen", found(30, 40), tree, group)
    await turns.end("s1")
    groups.turn_ended("s1")
    ((message, _kind),) = editor.messages
    assert "40 new files in gen/ wait for review" in message


async def test_of_many_groups_a_file_is_offered_its_own_group_s_actions_and_all_of_them(
    tmp_path: Path,
) -> None:
    """40 folders written at once were 80 code actions beside the two for them all in every
    file; of more than a few groups, a file is offered only its own group's besides those."""
    root = tmp_path / "w"
    root.mkdir()
    review = Review(DiskDocuments(), store_for=lambda r: CheckpointStore(r, tmp_path / "store"))
    turn = await review.for_agent().turns.begin("s1", [str(root)])
    assert turn is not None
    tree = turn.base[root.resolve()]
    channel = cast("EditorChannel", FakeChannel())
    groups = EditorGroups(channel, cast("AgentSlot", Slot()), lambda: review)

    async def made(first: int, last: int) -> None:
        for d in range(first, last):
            added = [Change(root / f"d{d}" / f"f{n}.js", "added", None, "e" * 40) for n in range(3)]
            await review.queue.bulk.record("s1", None, root, root / f"d{d}", added, tree)

    await made(0, 2)
    few = [a.title for a in groups.code_actions(str(root / "hello.py"))]
    assert few[:2] == ["Accept all 2 groups (6 files)", "Reject all 2 groups (put them back)"]
    assert few[2:] == [
        "Accept 3 new files in d0/",
        "Reject 3 new files in d0/ (put them back)",
        "Accept 3 new files in d1/",
        "Reject 3 new files in d1/ (put them back)",
    ]
    await made(2, 7)  # five more folders: seven groups
    many = [a.title for a in groups.code_actions(str(root / "d3" / "f1.js"))]
    assert many == [
        "Accept all 7 groups (21 files)",
        "Reject all 7 groups (put them back)",
        "Accept 3 new files in d3/",
        "Reject 3 new files in d3/ (put them back)",
    ]
    elsewhere = groups.code_actions(str(root / "hello.py"))
    assert [a.title for a in elsewhere][2:] == []
    assert elsewhere[0].command is not None and len(elsewhere[0].command.arguments or []) == 7
