"""Follow-along clamps a jump to the file's lines: a file not open in the editor is counted
once per version on disk (no read in a worker thread for every jump, which waits its turn on a
busy machine), an open buffer every time (its text is the editor's)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.show.follow import Follower, Jump
from acp_editor.protocol import editor as proto
from tests.support.fake_editor import FakeChannel


def follower(
    reads: list[Path], is_open: Callable[[Path], bool] = lambda path: False
) -> tuple[Follower, FakeChannel]:
    channel = FakeChannel(ClientFeatures(rich={proto.FEATURE_FOLLOW}))

    async def read_text(path: Path) -> str:
        reads.append(path)
        return path.read_text()

    return Follower(channel, read_text, lambda session_id: None, is_open=is_open), channel


async def test_a_file_on_disk_is_counted_once_per_version(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("one\ntwo\n")
    reads: list[Path] = []
    follow, channel = follower(reads)
    for line in (9, 1):
        await follow._deliver(Jump("s", str(path), line, "location", "c1"))
    assert reads == [path]  # the second jump took the count kept for this version
    ends = [n["range"]["start"]["line"] for n in channel.notes_of(proto.ACP_FOLLOW)]
    assert ends == [1, 0]  # clamped to the last of 2 lines, then line 1 as asked
    path.write_text("one\ntwo\nthree\nfour\n")
    os.utime(path, ns=(1, 1))  # another version even within the clock's resolution
    await follow._deliver(Jump("s", str(path), 9, "location", "c1"))
    assert reads == [path, path]
    assert channel.notes_of(proto.ACP_FOLLOW)[-1]["range"]["start"]["line"] == 3


async def test_an_open_buffer_is_counted_every_time(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("one\n")
    reads: list[Path] = []
    follow, _ = follower(reads, lambda p: p == path)
    for _ in range(2):
        await follow._deliver(Jump("s", str(path), 5, "location", "c1"))
    assert reads == [path, path]
