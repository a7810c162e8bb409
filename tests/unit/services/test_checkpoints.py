"""Turn checkpoints on a real git (the plumbing, a private store): what changed, what a file
held (byte for byte), ignores and the size limit, a repository's first checkpoint started from its
own index, and never a trace in the user's own repository."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from acp_editor.services import blob_pack
from acp_editor.services.checkpoints import (
    EMPTY_TREE,
    PACKED_FROM,
    Change,
    CheckpointError,
    CheckpointStore,
)


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


async def test_sessions_first_turns_at_once_make_the_store_once(tmp_path: Path) -> None:
    """Two sessions' first turns ask a new store for their names at the same moment: one
    ``git init`` (two raced and one failed, turning review off for the workspace)."""
    root = tmp_path / "w"
    root.mkdir()
    for attempt in range(10):
        store = CheckpointStore(root, store=tmp_path / f"store{attempt}")
        assert await asyncio.gather(store.names("s1/"), store.names("s2/")) == [[], []]
        assert (store.store / "HEAD").exists()


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
