"""Borrowing a repository's index for a first checkpoint, and when not to (through the store:
tests/unit/services/git/test_checkpoints.py)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from acp_editor.services.git.repository_index import borrow_index, give_back


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".git" / "info").mkdir(exist_ok=True)
    (root / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(root), "add", "a.txt"], check=True)
    return root


async def never(*args: str, stdin: bytes | None = None) -> bytes:
    raise AssertionError(f"no git run expected: {args}")


async def test_a_folder_without_a_repository_lends_nothing(tmp_path: Path) -> None:
    store = tmp_path / "store"
    why = await borrow_index(tmp_path, store, never)
    assert why == "no repository index at the folder's top"
    assert not (store / "acp-index").exists()


@pytest.mark.parametrize(
    ("attributes", "converts"),
    [("*.bin -text\n", False), ("# *.txt text\n", False), ("*.txt text eol=lf\n", True)],
)
async def test_attributes_that_convert_content_refuse_the_borrowing(
    repository: Path, attributes: str, converts: bool
) -> None:
    (repository / ".git" / "info" / "attributes").write_text(attributes)

    async def git(*args: str, stdin: bytes | None = None) -> bytes:
        return b""  # a repository with nothing to drop and no .gitattributes files

    why = await borrow_index(repository, repository.parent / "store", git)
    assert (why is not None and "converts files" in why) == converts


def test_giving_back_keeps_what_kept_checkpoints_may_need(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / "objects" / "info").mkdir(parents=True)
    (store / "acp-index").write_bytes(b"index")
    (store / "objects" / "info" / "alternates").write_text("/elsewhere\n")
    (store / "refs" / "acp" / "s1").mkdir(parents=True)
    (store / "refs" / "acp" / "s1" / "turn-1").write_text("tree\n")
    give_back(store)
    assert not (store / "acp-index").exists()
    assert (store / "objects" / "info" / "alternates").exists()  # a kept turn may need it
    (store / "refs" / "acp" / "s1" / "turn-1").unlink()
    (store / "refs" / "acp" / "s1").rmdir()
    give_back(store)
    assert not (store / "objects" / "info" / "alternates").exists()


def run(
    *argv: str, cwd: Path, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> bytes:
    return subprocess.run(
        argv, cwd=cwd, env=env, input=stdin, capture_output=True, check=True
    ).stdout


async def test_the_copy_is_shared_and_our_index_only_links_to_it(repository: Path) -> None:
    """One copy of the repository's index is written (the shared part of a split index, with
    its time): git's first write of ours then writes only what changed, not a second copy."""
    store = repository.parent / "store"
    run("git", "init", "-q", "--bare", str(store), cwd=repository.parent)
    env = {"GIT_DIR": str(store), "GIT_INDEX_FILE": str(store / "acp-index")}

    async def git(*args: str, stdin: bytes | None = None) -> bytes:
        return await asyncio.to_thread(run, "git", *args, cwd=repository, env=env, stdin=stdin)

    assert await borrow_index(repository, store, git) is None
    theirs = (repository / ".git" / "index").read_bytes()
    (shared,) = store.glob("sharedindex.*")
    assert shared.read_bytes() == theirs and shared.name.endswith(theirs[-20:].hex())
    assert len((store / "acp-index").read_bytes()) == 100  # no entries of its own
    their_time = (repository / ".git" / "index").stat().st_mtime_ns
    assert (store / "acp-index").stat().st_mtime_ns == their_time  # git's racy check holds
    assert await git("ls-files", "-s") == run("git", "ls-files", "-s", cwd=repository)
    give_back(store)
    assert not list(store.glob("sharedindex.*")) and not (store / "acp-index").exists()


async def test_an_index_without_a_checksum_is_copied_whole(repository: Path) -> None:
    index = repository / ".git" / "index"
    index.write_bytes(index.read_bytes()[:-20] + bytes(20))  # as index.skipHash writes it
    store = repository.parent / "store"

    async def git(*args: str, stdin: bytes | None = None) -> bytes:
        return b""

    assert await borrow_index(repository, store, git) is None
    assert (store / "acp-index").read_bytes() == index.read_bytes()
    assert not list(store.glob("sharedindex.*"))


@pytest.mark.parametrize("version", ["2", "3", "4"])
async def test_our_index_carries_the_repositorys_trees(repository: Path, version: str) -> None:
    """The repository's ``TREE`` extension (each folder's tree) comes along in our index, read
    past the entries of each index version: git's first ``write-tree`` makes no tree again."""
    (repository / "sub").mkdir()
    (repository / "sub" / "b.txt").write_text("b\n")
    user = ["-c", "user.email=t@x", "-c", "user.name=t"]
    run("git", *user, "add", "sub", cwd=repository)
    run("git", *user, "commit", "-q", "-m", "one", cwd=repository)
    run("git", "update-index", "--index-version", version, cwd=repository)
    run("git", "status", "-s", cwd=repository)  # writes the index again, TREE with it
    store = repository.parent / "store"
    run("git", "init", "-q", "--bare", str(store), cwd=repository.parent)
    env = {"GIT_DIR": str(store), "GIT_INDEX_FILE": str(store / "acp-index")}

    async def git(*args: str, stdin: bytes | None = None) -> bytes:
        return await asyncio.to_thread(run, "git", *args, cwd=repository, env=env, stdin=stdin)

    assert await borrow_index(repository, store, git) is None
    assert b"TREE" in (store / "acp-index").read_bytes()
    head = run("git", "rev-parse", "HEAD^{tree}", cwd=repository)
    assert await git("write-tree") == head
