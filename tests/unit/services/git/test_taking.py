"""Taking checkpoints on a real git: what a later one reads (only what changed, only where it was
told), a file written while it looks, many new files packed at once."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from acp_editor.services.git import blob_pack
from acp_editor.services.git.blob_pack import PACKED_FROM
from acp_editor.services.git.checkpoints import (
    Change,
    CheckpointError,
    CheckpointStore,
)


def store(root: Path, **kw: int) -> CheckpointStore:
    return CheckpointStore(root, root.parent / "store", **kw)


async def test_a_file_that_grows_past_the_limit_counts_as_deleted(root: Path) -> None:
    checkpoints = store(root, size_limit=1000)
    first = await checkpoints.snapshot()
    (root / "README.md").write_bytes(b"x" * 5000)
    assert await checkpoints.changes(first, await checkpoints.snapshot()) == [
        Change(root / "README.md", "deleted")
    ]


async def test_a_checkpoint_after_a_change_writes_the_changed_entries_not_the_whole_index(
    root: Path,
) -> None:
    """The store's index is split: the entries all files share are written once (a shared
    index); each later checkpoint writes only what changed."""
    for n in range(200):
        (root / "src" / f"m{n}.py").write_text(f"m = {n}\n")
    for path in root.rglob("*.py"):  # written an hour ago: not "racily clean" (git rereads those)
        os.utime(path, (path.stat().st_atime - 3600, path.stat().st_mtime - 3600))
    checkpoints = store(root)
    await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 2\n")
    await checkpoints.snapshot()
    (shared,) = checkpoints.store.glob("sharedindex.*")
    kept = shared.stat().st_ino
    (root / "src" / "a.py").write_text("a = 3\n")
    await checkpoints.snapshot()
    assert shared.stat().st_ino == kept  # not written again
    assert (checkpoints.store / "acp-index").stat().st_size < shared.stat().st_size / 4


async def test_a_snapshot_told_where_files_changed_looks_only_there(root: Path) -> None:
    checkpoints = store(root)
    first = await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 2\n")
    (root / "README.md").unlink()
    (root / "*.py").write_text("a name, not a pattern\n")
    (root / "made" / "deep").mkdir(parents=True)
    (root / "made" / "deep" / "x.txt").write_text("x\n")
    told = {root / "README.md", root / "*.py", root / "made"}
    second = await checkpoints.snapshot(told)
    names = {
        c.path.relative_to(root).as_posix(): c.status
        for c in await checkpoints.changes(first, second)
    }
    assert names == {"README.md": "deleted", "*.py": "added", "made/deep/x.txt": "added"}
    assert await checkpoints.snapshot(set()) == second  # told nothing changed: no walk at all
    third = await checkpoints.snapshot()  # everywhere: what nobody told of is found
    assert [c.path for c in await checkpoints.changes(second, third)] == [root / "src" / "a.py"]


async def test_a_listing_that_gives_up_on_a_file_being_written_falls_back(root: Path) -> None:
    """diff-files stops at a file that shrinks while it reads it (an agent writing it right
    then); the look goes on with ls-files instead of turning checkpoints off."""
    checkpoints = store(root)
    first = await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 3\n")
    real = checkpoints._git

    async def flaky(*args: str, **kw: Any) -> bytes:
        if args[0] == "diff-files":
            raise CheckpointError("git diff-files failed: fatal: failed to read 6 bytes")
        return await real(*args, **kw)

    checkpoints._git = flaky  # type: ignore[method-assign]
    second = await checkpoints.snapshot()
    assert [c.path for c in await checkpoints.changes(first, second)] == [root / "src" / "a.py"]


@pytest.mark.parametrize("count", [1, PACKED_FROM + 36])
async def test_a_file_rewritten_with_its_size_in_the_same_second_is_found(
    root: Path, count: int
) -> None:
    """Files rewritten at once with the same size are found, alone (a loose object) and among
    enough files for the checkpoint to write a pack. Twice: with the times the clock gives (most
    likely all in one second), and with every write's time pinned to one second ahead of ours
    (a coarse or skewed clock): then the stat data tell nothing, and only git's "racily clean"
    check (an entry no older than the index is read again) can."""
    folder = root / "gen"
    folder.mkdir()
    files = [folder / f"f{n}.js" for n in range(count)]
    ahead = (time.time_ns() // 10**9 + 3600) * 10**9

    def write(text: str, pinned: bool) -> None:
        for path in files:
            path.write_text(text)
            if pinned:
                os.utime(path, ns=(ahead, ahead))

    checkpoints = store(root)
    for pinned in (False, True):
        write("one\n", pinned)
        before = await checkpoints.snapshot()
        for text in ("two\n", "six\n"):
            write(text, pinned)
            after = await checkpoints.snapshot()
            found = await checkpoints.changes(before, after)
            assert sorted(c.path for c in found) == sorted(files)
            assert {c.status for c in found} == {"modified"}
            assert await checkpoints.read(after, files[-1]) == text.encode()
            before = after


def many_files(root: Path, count: int = PACKED_FROM + 36) -> list[Path]:
    folder = root / "gen"
    folder.mkdir(exist_ok=True)
    files = [folder / f"f{n}.js" for n in range(count)]
    for n, path in enumerate(files):
        path.write_text(f"export const n = {n};\n")
    return files


def loose_objects(checkpoints: CheckpointStore) -> int:
    return sum(1 for d in (checkpoints.store / "objects").glob("??") for _ in d.iterdir())


async def test_a_checkpoint_of_many_files_writes_their_blobs_into_one_pack(root: Path) -> None:
    checkpoints = store(root)
    first = await checkpoints.snapshot()
    loose = loose_objects(checkpoints)
    files = many_files(root)
    (root / "link.js").symlink_to("gen/f0.js")  # stored by update-index itself
    second = await checkpoints.snapshot()
    assert len(list((checkpoints.store / "objects" / "pack").glob("*.pack"))) == 1
    assert loose_objects(checkpoints) - loose <= 3  # the new trees and the link, not a blob each
    assert len(await checkpoints.changes(first, second)) == len(files) + 1
    for n in (0, len(files) - 1):
        assert await checkpoints.read(second, files[n]) == f"export const n = {n};\n".encode()
    assert await checkpoints.read(second, root / "link.js") == b"gen/f0.js"


async def test_a_file_that_changes_after_it_was_packed_is_taken_as_it_is(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pack written ahead is only a head start: update-index reads every file again, and
    what it finds is what the checkpoint holds."""
    checkpoints = store(root)
    await checkpoints.snapshot()
    files = many_files(root)
    read = blob_pack.read_plain

    def earlier(path: bytes, limit: int) -> bytes | None:
        return b"what it held a moment ago\n" if path.endswith(b"/f7.js") else read(path, limit)

    monkeypatch.setattr(blob_pack, "read_plain", earlier)
    tree = await checkpoints.snapshot()
    assert await checkpoints.read(tree, files[7]) == b"export const n = 7;\n"


async def test_many_files_are_still_packed_when_fast_import_fails(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoints = store(root)
    first = await checkpoints.snapshot()
    loose = loose_objects(checkpoints)

    real = subprocess.Popen

    def no_fast_import(argv: list[str], *args: Any, **kw: Any) -> Any:
        if "fast-import" in argv:
            raise OSError("no fast-import here")
        return real(argv, *args, **kw)

    monkeypatch.setattr(subprocess, "Popen", no_fast_import)
    files = many_files(root)
    second = await checkpoints.snapshot()
    assert len(await checkpoints.changes(first, second)) == len(files)
    assert await checkpoints.read(second, files[3]) == b"export const n = 3;\n"
    assert len(list((checkpoints.store / "objects" / "pack").glob("*.pack"))) == 1
    assert loose_objects(checkpoints) - loose <= 2
