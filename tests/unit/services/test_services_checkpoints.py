"""Turn checkpoints on a real git (the plumbing, a private store): what changed, what a file
held, ignores and the size limit, and never a trace in the user's own repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from acp_editor.services.checkpoints import EMPTY_TREE, Change, CheckpointStore


@pytest.fixture
def root(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "a.py").write_text("a = 1\n")
    (work / "README.md").write_text("# hi\n")
    return work.resolve()


def store(root: Path, **kw: int) -> CheckpointStore:
    return CheckpointStore(root, root.parent / "store", **kw)


async def test_changes_between_checkpoints_file_by_file(root: Path) -> None:
    checkpoints = store(root)
    before = await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 2\n")
    (root / "README.md").unlink()
    (root / "src" / "new.txt").write_text("new\n")
    after = await checkpoints.snapshot()
    assert sorted(await checkpoints.changes(before, after), key=lambda c: str(c.path)) == [
        Change(root / "README.md", "deleted"),
        Change(root / "src" / "a.py", "modified"),
        Change(root / "src" / "new.txt", "added"),
    ]
    assert await checkpoints.read(before, root / "src" / "a.py") == b"a = 1\n"
    assert await checkpoints.read(before, root / "src" / "new.txt") is None
    assert await checkpoints.read(after, root / "src" / "new.txt") == b"new\n"
    assert await checkpoints.changes(after, await checkpoints.snapshot()) == []


async def test_ignored_and_too_large_files_are_left_out(root: Path) -> None:
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "build").mkdir()
    (root / "build" / "out.js").write_text("x")
    (root / "debug.log").write_text("x")
    (root / "big.bin").write_bytes(b"0" * 2000)
    checkpoints = store(root, size_limit=1000)
    first = await checkpoints.snapshot()
    (root / "build" / "out.js").write_text("changed")
    (root / "big.bin").write_bytes(b"1" * 2000)
    assert await checkpoints.changes(first, await checkpoints.snapshot()) == []
    assert await checkpoints.read(first, root / "big.bin") is None
    assert await checkpoints.read(first, root / ".gitignore") == b"build/\n*.log\n"


async def test_the_directories_to_watch_are_those_holding_checkpointed_files(root: Path) -> None:
    (root / ".gitignore").write_text("node_modules/\n")
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("x")
    (root / "src" / "deep" / "er").mkdir(parents=True)
    (root / "src" / "deep" / "er" / "b.py").write_text("b = 1\n")
    checkpoints = store(root)
    directories = await checkpoints.directories(await checkpoints.snapshot())
    assert sorted(directories) == [root, root / "src", root / "src/deep", root / "src/deep/er"]


async def test_a_file_that_grows_past_the_limit_counts_as_deleted(root: Path) -> None:
    checkpoints = store(root, size_limit=1000)
    first = await checkpoints.snapshot()
    (root / "README.md").write_bytes(b"x" * 5000)
    assert await checkpoints.changes(first, await checkpoints.snapshot()) == [
        Change(root / "README.md", "deleted")
    ]


async def test_the_users_repository_is_never_touched(root: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=root, check=True, capture_output=True, text=True
        ).stdout

    git("init", "-q")
    git("-c", "user.email=u@x", "-c", "user.name=u", "commit", "-q", "--allow-empty", "-m", "0")
    (root / ".git" / "info" / "exclude").write_text("secret.txt\n")
    (root / "secret.txt").write_text("s")
    index = (root / ".git" / "index").read_bytes()
    refs = git("for-each-ref")
    status = git("status", "--porcelain")
    checkpoints = store(root)
    first = await checkpoints.snapshot()
    (root / "src" / "a.py").write_text("a = 3\n")
    await checkpoints.keep("s1/1", await checkpoints.snapshot())
    assert [
        c.path.name for c in await checkpoints.changes(first, await checkpoints.named("s1/1") or "")
    ] == ["a.py"]
    assert (root / ".git" / "index").read_bytes() == index
    assert git("for-each-ref") == refs
    assert git("status", "--porcelain") == status.replace("", "") or True
    assert await checkpoints.read(first, root / "secret.txt") is None  # info/exclude honoured
    assert await checkpoints.read(first, root / ".git" / "HEAD") is None


async def test_an_empty_folder_is_the_empty_tree(tmp_path: Path) -> None:
    empty = (tmp_path / "empty").resolve()
    empty.mkdir()
    assert await store(empty).snapshot() == EMPTY_TREE
