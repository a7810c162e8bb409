"""An agent that writes the disk itself and then asks us (``fs/write_text_file``) to write the
same text, as opencode does: the write waits for the look already bringing that change into the
open buffer, so the change reaches the buffer once, as one hunk (issue 35, item 3; a real git
store, and an editor slow to answer the look's edit)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from acp_editor.review.finding.intake import ReviewingDocuments
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointStore
from acp_editor.text.merge import merge3
from tests.support.lsp import wait_until

OLD = "one\ntwo\n"
NEW = "one\ntwo\nthree\n"


class SlowEditor(DiskDocuments):
    """One open buffer; a change found on disk reaches it once the editor answers the edit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.buffer = path.read_text()
        self.edits: list[str] = []
        """The buffer's text after each edit sent to the editor."""
        self.answer = asyncio.Event()

    async def read_text(self, path: Path) -> str:
        return self.buffer if path == self.path else await super().read_text(path)

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        if path == self.path and after is not None and after != self.buffer:
            self.edits.append(after)
            await self.answer.wait()
            self.buffer = after

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
        base: str | None = None,
    ) -> str | None:
        if path == self.path:  # merged into the buffer as it is now, as the editor's are
            merged = merge3(base, self.buffer, text).text if base is not None else text
            if merged != self.buffer:
                self.edits.append(merged)
                self.buffer = merged
        return await super().write_text(
            path, text, session_id=session_id, tool_call_id=tool_call_id
        )


async def test_a_write_of_what_the_agent_wrote_itself_waits_for_the_look_that_found_it(
    tmp_path: Path,
) -> None:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    path = root / "a.txt"
    path.write_text(OLD)
    editor = SlowEditor(path)
    queue = ReviewQueue(editor)
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, tmp_path / "store"), editor)
    reviewing = ReviewingDocuments(editor, queue, turns)
    await turns.begin("s1", [str(root)])

    path.write_text(NEW)  # the agent writes the disk itself; the file watch's look finds it
    look = asyncio.ensure_future(turns.look("s1", "t1"))
    await wait_until(lambda: editor.edits != [])  # its edit waits for the editor's answer
    # Then the agent asks us to write the same text, made from what it read through us.
    write = asyncio.ensure_future(
        reviewing.write_text(path, NEW, session_id="s1", tool_call_id="t1", base=OLD)
    )
    early, _ = await asyncio.wait({write}, timeout=0.3)  # it would have gone by now
    editor.answer.set()
    await asyncio.gather(look, write)

    assert editor.edits == [NEW] and editor.buffer == NEW  # the change once, not twice
    assert not early  # it waited for the editor's answer to the look's edit
    (hunk,) = queue.hunks.values()
    assert hunk.tool_call_id == "t1" and hunk.anchor.new_lines == ("three",)
    assert path.read_text() == NEW
