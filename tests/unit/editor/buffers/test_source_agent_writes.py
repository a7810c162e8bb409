"""An agent's whole-file write to an open buffer is its change from the text it made it from
(``base``), merged into the buffer: over random (disk, unsaved, agent) triples, no line the user
typed is ever lost, each agent line lands unless a conflict is reported, the disk gets exactly
the agent's text, and the editor is sent at most one edit."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygls.workspace import TextDocument

from acp_editor.editor.buffers.conflicts import Conflicts
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.text.edits import apply_edits
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel


class ApplyingChannel(FakeChannel):
    """A fake editor that applies the edits it is sent (and bumps the version)."""

    async def apply_edit(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]], label: str
    ) -> tuple[bool, str | None]:
        self.edits.append((uri, version, list(edits), label))
        doc = self.documents[uri]
        new = apply_edits(doc.source, edits)
        self.documents[uri] = TextDocument(uri, new, version=(doc.version or 0) + 1)
        return True, None


def edited(base: list[str], side: str, moves: list[tuple[int, int]]) -> list[str]:
    """``base`` with each move applied: (place, 0) keeps, 1 deletes the line, 2 inserts a line
    of this side's before it, 3 replaces it with one."""
    out: list[str] = []
    kinds = dict(moves)
    for i, line in enumerate([*base, ""]):
        kind = kinds.get(i, 0)
        if kind in (2, 3):
            out.append(f"{side}{i}\n")
        if i < len(base) and kind in (0, 2):
            out.append(line)
    return out


moves = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3)), max_size=4)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(size=st.integers(0, 8), mine=moves, theirs=moves)
def test_nothing_the_user_typed_is_lost_outside_a_reported_conflict(
    tmp_path: Path, size: int, mine: list[tuple[int, int]], theirs: list[tuple[int, int]]
) -> None:
    base = [f"base{i}\n" for i in range(size)]
    unsaved, agent = "".join(edited(base, "user", mine)), "".join(edited(base, "agent", theirs))
    disk = "".join(base)
    path = tmp_path / "a.txt"
    path.write_text(disk)
    channel = ApplyingChannel()
    uri = path_to_uri(str(path))
    channel.documents[uri] = TextDocument(uri, unsaved, version=1)
    conflicts = Conflicts(channel)
    docs = EditorDocuments(channel, conflicts=conflicts)
    write = docs.write_text(path, agent, session_id="s", tool_call_id=None, base=disk)
    asyncio.run(write)
    result = channel.documents[uri].source
    lines = result.splitlines(keepends=True)
    typed = [line for line in unsaved.splitlines(keepends=True) if line.startswith("user")]
    assert [line for line in lines if line.startswith("user")] == typed  # all kept, in order
    if str(path) not in conflicts.by_path:
        added = [line for line in agent.splitlines(keepends=True) if line.startswith("agent")]
        assert [line for line in lines if line.startswith("agent")] == added
    assert path.read_text() == agent  # the disk was the agent's base: it gets the agent's text
    assert len(channel.edits) <= 1
