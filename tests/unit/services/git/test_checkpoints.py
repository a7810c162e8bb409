"""Turn checkpoints on a real git (the plumbing, a private store): what changed, what a file
held (byte for byte), ignores and the size limit, a repository's first checkpoint started from its
own index, and never a trace in the user's own repository."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from acp_editor.services.git.checkpoints import (
    EMPTY_TREE,
    Change,
    CheckpointStore,
)


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
    assert git("status", "--porcelain") == status
    assert await checkpoints.read(first, root / "secret.txt") is None  # info/exclude honoured
    assert await checkpoints.read(first, root / ".git" / "HEAD") is None


async def test_an_empty_folder_is_the_empty_tree(tmp_path: Path) -> None:
    empty = (tmp_path / "empty").resolve()
    empty.mkdir()
    assert await store(empty).snapshot() == EMPTY_TREE


def git(root: Path, *args: str, check: bool = True) -> str:
    user = ("-c", "user.email=u@x", "-c", "user.name=u")
    done = subprocess.run(["git", *user, *args], cwd=root, check=check, capture_output=True)
    return done.stdout.decode()


def committed(root: Path) -> Path:
    """``root`` as a repository with everything committed."""
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "0")
    return root


def without_repository(root: Path) -> Path:
    """The same files in a folder that is no repository: every file hashed, the reference."""
    plain = root.parent / "plain"
    shutil.rmtree(plain, ignore_errors=True)
    shutil.copytree(root, plain, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    return plain


def borrowed(checkpoints: CheckpointStore) -> bool:
    return (checkpoints.store / "objects" / "info" / "alternates").exists()


def loose(checkpoints: CheckpointStore, blob: str) -> bool:
    return (checkpoints.store / "objects" / blob[:2] / blob[2:]).exists()


async def test_a_repositorys_first_checkpoint_starts_from_its_index(root: Path) -> None:
    """Only what differs from the repository's index is read: the tree is the one hashing every
    file gives, the unchanged files' blobs stay the repository's, its index is not touched."""
    committed(root)
    (root / "src" / "a.py").write_text("a = 2\n")  # changed since the commit
    (root / "new.txt").write_text("new\n")  # untracked
    git(root, "rm", "-q", "--cached", "README.md")  # staged as deleted, still on disk
    index = root / ".git" / "index"
    before = (index.read_bytes(), index.stat().st_mtime_ns)
    checkpoints = store(root)
    tree = await checkpoints.snapshot()
    reference = without_repository(root)
    assert tree == await CheckpointStore(reference, root.parent / "ref-store").snapshot()
    assert borrowed(checkpoints)
    readme = git(root, "rev-parse", "HEAD:README.md").strip()
    assert not loose(checkpoints, readme)  # read from the repository's objects, not copied
    assert await checkpoints.read(tree, root / "README.md") == b"# hi\n"
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before
    (root / "src" / "a.py").write_text("a = 3\n")
    assert await checkpoints.changes(tree, await checkpoints.snapshot()) == [
        Change(root / "src" / "a.py", "modified")
    ]


@pytest.mark.parametrize(
    "attributes", ["*.py text\n", "*.bin filter=lfs diff=lfs merge=lfs -text\n"]
)
async def test_a_repository_that_converts_files_is_hashed_file_by_file(
    root: Path, attributes: str
) -> None:
    """Its blobs may not be the files' bytes (end-of-line conversion, LFS pointers): nothing is
    borrowed, and the checkpoint holds the bytes."""
    (root / ".gitattributes").write_text(attributes)
    committed(root)
    checkpoints = store(root)
    tree = await checkpoints.snapshot()
    assert not borrowed(checkpoints)
    assert tree == await CheckpointStore(without_repository(root), root.parent / "r").snapshot()


async def test_a_checkpoint_keeps_a_files_bytes_whatever_the_attributes_say(root: Path) -> None:
    (root / ".gitattributes").write_text("* text=auto\n")
    (root / "dos.txt").write_bytes(b"one\r\ntwo\r\n")
    checkpoints = store(root)
    tree = await checkpoints.snapshot()
    assert await checkpoints.read(tree, root / "dos.txt") == b"one\r\ntwo\r\n"


async def test_an_unfinished_merge_or_a_submodule_is_not_taken_from_the_index(root: Path) -> None:
    committed(root)
    git(root, "checkout", "-q", "-b", "other")
    (root / "README.md").write_text("# theirs\n")
    git(root, "commit", "-q", "-am", "theirs")
    git(root, "checkout", "-q", "-")
    (root / "README.md").write_text("# ours\n")
    git(root, "commit", "-q", "-am", "ours")
    git(root, "merge", "-q", "other", check=False)  # conflicts
    merging = store(root)
    tree = await merging.snapshot()
    assert not borrowed(merging)
    assert b"<<<<<<<" in (await merging.read(tree, root / "README.md") or b"")
    git(root, "merge", "--abort")
    (root / ".gitmodules").write_text('[submodule "sub"]\n\tpath = sub\n\turl = ./sub\n')
    (root / "sub").mkdir()
    head = git(root, "rev-parse", "HEAD").strip()
    git(root, "update-index", "--add", "--cacheinfo", f"160000,{head},sub")
    with_link = CheckpointStore(root, root.parent / "store-2")
    tree = await with_link.snapshot()
    assert borrowed(with_link)
    listed = await with_link._git("ls-tree", "-r", "--name-only", tree)
    assert b"sub" not in listed.split(b"\n") and b".gitmodules" in listed.split(b"\n")


async def test_no_repository_at_the_top_means_no_borrowing(root: Path) -> None:
    committed(root)
    inner = store(root / "src")
    await inner.snapshot()
    assert not borrowed(inner)
    assert os.listdir(root / "src") == ["a.py"]


async def test_the_state_directory_inside_the_root_is_never_in_a_checkpoint(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """acp-editor's own files (this store among them) are not the workspace's, even where an
    index made before they were left out holds some of them."""
    state = root / "home" / "state"
    (state / "review").mkdir(parents=True)
    (state / "review" / "old.json").write_text("{}")
    checkpoints = store(root)
    before = await checkpoints.snapshot()  # the state directory elsewhere: old.json is in it
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(state))
    (state / "review" / "old.json").write_text('{"hunks": []}')
    (state / "review" / "new.json").write_text("{}")
    (root / "README.md").write_text("# changed\n")
    after = await checkpoints.snapshot()
    assert await checkpoints.changes(before, after) == [Change(root / "README.md", "modified")]
