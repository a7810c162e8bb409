"""Reading checkpoints on a real git: the blobs a comparison names streamed back, the folders
one holds files in, what a file held whatever its name."""

from __future__ import annotations

from pathlib import Path

from acp_editor.services.git.checkpoints import (
    CheckpointStore,
)


def store(root: Path, **kw: int) -> CheckpointStore:
    return CheckpointStore(root, root.parent / "store", **kw)


async def test_changes_carry_blob_ids_and_blobs_stream_them_back(root: Path) -> None:
    checkpoints = store(root)
    (root / "run.sh").write_text("echo hi\n")
    (root / "run.sh").chmod(0o755)
    before = await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 2\n")
    (root / "run.sh").unlink()
    (root / "src" / "new.txt").write_text("new\n")
    after = await checkpoints.snapshot()
    found = {c.path.name: c for c in await checkpoints.changes(before, after)}
    assert found["run.sh"].old_mode == "100755" and found["run.sh"].new is None
    assert found["new.txt"].old is None and found["new.txt"].old_mode is None
    changed = found["a.py"]
    assert changed.old_mode == "100644" and changed.old != changed.new
    ids = [changed.old or "", changed.new or "", found["run.sh"].old or "", "0" * 40]
    got = [(blob, data) async for blob, data in checkpoints.blobs(ids)]
    assert got == [
        (ids[0], b"a = 1\n"),
        (ids[1], b"a = 2\n"),
        (ids[2], b"echo hi\n"),
        (ids[3], None),
    ]


async def test_the_directories_to_watch_are_those_holding_checkpointed_files(root: Path) -> None:
    (root / ".gitignore").write_text("node_modules/\n")
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("x")
    (root / "src" / "deep" / "er").mkdir(parents=True)
    (root / "src" / "deep" / "er" / "b.py").write_text("b = 1\n")
    checkpoints = store(root)
    directories = await checkpoints.directories(await checkpoints.snapshot())
    assert sorted(directories) == [root, root / "src", root / "src/deep", root / "src/deep/er"]


async def test_what_a_file_held_is_read_whatever_its_name(root: Path) -> None:
    odd = ["with space.txt", "new\nline.txt", "ü.txt"]
    for name in odd:
        (root / name).write_bytes(name.encode() + b"\n")
    checkpoints = store(root)
    tree = await checkpoints.snapshot()
    for name in odd:
        assert await checkpoints.read(tree, root / name) == name.encode() + b"\n"
    assert await checkpoints.read(tree, root / "src") is None  # a directory, not a file
    assert await checkpoints.read(tree, root / "missing.txt") is None
