"""Edits of one buffer go one at a time: an agent's write (``fs/write_text_file``) and a look's
merge of another change found on disk, both started while the buffer is at one version, reach
the editor one after the other, the second computed from the text the first left. Against an
editor slow to answer the first ``workspace/applyEdit`` that takes requests in order, as editors
do (one that checks versions refused the second; one that does not put it in the wrong place)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from pygls.workspace import TextDocument

from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.text.edits import apply_edits
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel

OLD = "one\ntwo\n"
BY_WRITE = "zero\none\ntwo\n"  # the agent's write: a line at the top
ON_DISK = "one\ntwo\nthree\n"  # another change, found on disk: a line at the end
BOTH = "zero\none\ntwo\nthree\n"


class SlowEditor(FakeChannel):
    """Answers the first ``workspace/applyEdit`` only when told; applies edits in the order they
    came, each checked against the buffer's version when ``checks`` (VS Code, eglot), and reports
    each change (``didChange``) before it answers."""

    def __init__(self, checks: bool) -> None:
        super().__init__()
        self.checks = checks
        self.answer_first = asyncio.Event()
        self.in_order = asyncio.Lock()
        self.unanswered = 0
        self.overlapping = 0
        """Edits sent while an earlier one was still unanswered."""
        self.refused: list[str] = []
        self.report = lambda _uri: None

    async def apply_edit(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]], label: str
    ) -> tuple[bool, str | None]:
        self.edits.append((uri, version, list(edits), label))
        self.overlapping += self.unanswered > 0
        self.unanswered += 1
        try:
            async with self.in_order:
                if len(self.edits) == 1:
                    await self.answer_first.wait()
                return self._apply(uri, version, edits)
        finally:
            self.unanswered -= 1

    def _apply(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]]
    ) -> tuple[bool, str | None]:
        doc = self.documents[uri]
        if self.checks and version is not None and version != doc.version:
            self.refused.append(f"require version {version}, you have {doc.version}")
            return False, self.refused[-1]
        new = apply_edits(doc.source, edits)
        self.documents[uri] = TextDocument(uri, new, version=(doc.version or 0) + 1)
        self.report(uri)
        return True, None


async def ready_tasks_run() -> None:
    """Let every task that can go on without I/O do so (a look's way to the editor has none)."""
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.mark.parametrize("checks", [True, False], ids=["checks versions", "does not"])
async def test_a_write_and_a_look_s_edit_of_one_buffer_go_one_after_the_other(
    tmp_path: Path, checks: bool
) -> None:
    path = tmp_path / "a.txt"
    path.write_text(OLD)
    editor = SlowEditor(checks)
    uri = path_to_uri(str(path))
    editor.documents[uri] = TextDocument(uri, OLD, version=1)
    docs = EditorDocuments(editor)
    editor.report = docs.changed

    write = asyncio.ensure_future(
        docs.write_text(path, BY_WRITE, session_id="s1", tool_call_id="t1", base=OLD)
    )
    await ready_tasks_run()
    assert len(editor.edits) == 1  # the write's edit waits for the editor's answer
    look = asyncio.ensure_future(docs.disk_changed(path, OLD, ON_DISK))
    await ready_tasks_run()
    editor.answer_first.set()
    await asyncio.gather(write, look)

    assert editor.documents[uri].source == BOTH
    assert editor.overlapping == 0 and editor.refused == []
    assert [version for _, version, _, _ in editor.edits] == [1, 2]
    assert len(docs.locks) == 0  # no lock kept for a buffer nobody edits


async def test_a_buffer_s_lock_goes_when_its_waiter_is_cancelled(tmp_path: Path) -> None:
    docs = EditorDocuments(FakeChannel())
    path = tmp_path / "a.txt"
    async with docs.locks.hold(str(path)):  # an edit of it runs
        waiter = asyncio.ensure_future(
            docs.write_text(path, "x\n", session_id="s", tool_call_id=None)
        )
        await ready_tasks_run()
        assert len(docs.locks) == 1 and not waiter.done()  # the write waits its turn
        waiter.cancel()
        await ready_tasks_run()
    assert waiter.cancelled() and len(docs.locks) == 0
    assert not path.exists()
