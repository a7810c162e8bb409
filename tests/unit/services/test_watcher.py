"""The live watcher on real files (watchfiles): a look once the watches are in place, then one
per batch of changes; stopping ends it promptly."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from acp_editor.services import watcher
from acp_editor.services.watcher import DirectoryWatch
from tests.support.lsp import wait_until


async def test_changes_in_watched_directories_call_back_in_batches(tmp_path: Path) -> None:
    watched = tmp_path / "src"
    watched.mkdir()
    calls: list[int] = []
    watch = DirectoryWatch([watched], lambda: calls.append(1))
    watch.start()
    await wait_until(lambda: calls == [1])  # the catch-up look: watches are in place now
    for n in range(5):  # one burst: one batch
        (watched / f"f{n}.txt").write_text("x")
    await wait_until(lambda: len(calls) == 2)
    (watched / "f0.txt").write_text("y")
    await wait_until(lambda: len(calls) == 3)
    await asyncio.wait_for(watch.stop(), 5)
    assert watch.failed is None


async def test_too_many_directories_turn_live_looks_off_and_say_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watcher, "MOST_DIRECTORIES", 1)
    calls: list[int] = []
    watch = DirectoryWatch([tmp_path, tmp_path], lambda: calls.append(1))
    watch.start()
    await watch.stop()
    assert watch.failed is not None and "too many" in watch.failed and calls == []


def test_preload_imports_what_the_first_watch_would_import_in_the_event_loop() -> None:
    """In a fresh interpreter (this one imported them long ago): every name still exists, so
    the first turn's updates are not held up by imports."""
    code = (
        "import asyncio, sys\n"
        "from acp_editor.services import watcher\n"
        "asyncio.run(watcher.preload())\n"
        "print([m for m in watcher.PRELOAD if m not in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def started(directories: list[Path]) -> DirectoryWatch:
    watch = DirectoryWatch(directories, lambda: None)
    watch.start()
    await wait_until(watch.ready.is_set)
    assert watch.take() is None  # the first take: what came before the watches is not known
    return watch


async def test_caught_up_holds_every_event_made_before_it(tmp_path: Path) -> None:
    """Written, then asked at once (no wait for the batch): ``take`` has the path, because the
    watch's own mark comes back through the same kernel queue after it."""
    (tmp_path / "sub").mkdir()
    watch = await started([tmp_path, tmp_path / "sub"])
    for n in range(20):
        (tmp_path / "sub" / f"f{n}.txt").write_text("x")
        (tmp_path / "top.txt").write_text(str(n))
        assert await watch.caught_up(5.0)
        taken = watch.take()
        assert taken is not None and tmp_path / "top.txt" in taken, n
        assert tmp_path / "sub" / f"f{n}.txt" in taken
    assert watch.complete
    await watch.stop()
    assert not await watch.caught_up(5.0)  # a stopped watch cannot say


@pytest.mark.parametrize("how", ["a new folder", "a watched folder made again"])
async def test_a_folder_the_watch_does_not_cover_makes_it_incomplete(
    tmp_path: Path, how: str
) -> None:
    (tmp_path / "sub").mkdir()
    watch = await started([tmp_path, tmp_path / "sub"])
    if how == "a new folder":
        (tmp_path / "new").mkdir()
    else:
        (tmp_path / "sub").rmdir()
        (tmp_path / "sub").mkdir()
    assert await watch.caught_up(5.0)
    assert not watch.complete
    await watch.stop()


async def test_a_huge_batch_may_have_lost_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watcher, "LOSSY_AT", 10)
    watch = await started([tmp_path])
    for n in range(10):
        (tmp_path / f"f{n}.txt").write_text("x")
    assert await watch.caught_up(5.0)
    assert not watch.complete
    await watch.stop()
