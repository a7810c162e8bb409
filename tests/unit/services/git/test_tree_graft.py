"""Checkpoints of a few named files made without the store's index: each is the very tree the
index makes of the same files (a second store looking everywhere), and the index, left behind,
catches up at its next update."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from acp_editor.services.git import taking
from acp_editor.services.git.checkpoints import CheckpointStore
from acp_editor.services.git.tree_graft import graft


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = (tmp_path / "w").resolve()
    (root / "src" / "deep").mkdir(parents=True)
    (root / "a.txt").write_text("a\n")
    (root / "src" / "b.py").write_text("b\n")
    (root / "src" / "deep" / "c.py").write_text("c\n")
    (root / ".gitignore").write_text("*.log\n")
    return root


def reference(root: Path, tmp_path: Path) -> CheckpointStore:
    """A store of its own, looking everywhere through its index: what a graft must equal."""
    return CheckpointStore(root, tmp_path / f"reference-{len(list(tmp_path.iterdir()))}")


async def test_each_kind_of_change_grafts_the_tree_the_index_makes(
    root: Path, tmp_path: Path
) -> None:
    store = CheckpointStore(root, tmp_path / "store", size_limit=100)
    await store.snapshot()
    (root / "a.txt").write_text("changed\n")
    (root / "src" / "new.py").write_text("new in a folder it had\n")
    (root / "src" / "deep" / "c.py").unlink()  # its folder is left empty: no tree for it
    (root / "src" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(root / "src" / "run.sh", 0o755)
    (root / "src" / "big.txt").write_text("x" * 101)  # over the size limit: left out
    (root / "src" / "debug.log").write_text("ignored\n")
    (root / "fresh" / "er").mkdir(parents=True)
    (root / "fresh" / "er" / "made.txt").write_text("in new folders\n")
    names = ["a.txt", "src/new.py", "src/deep/c.py", "src/run.sh", "src/big.txt", "src/debug.log"]
    names.append("fresh/er/made.txt")
    grafted = await store.snapshot({root / n for n in names})
    behind = {n.encode() for n in names if n != "src/debug.log"}  # ignored: never indexed
    assert taking._BEHIND[store.store] == behind
    expected = await CheckpointStore(root, tmp_path / "reference", size_limit=100).snapshot()
    assert grafted == expected
    assert await store.read(grafted, root / "src" / "run.sh") == b"#!/bin/sh\n"
    assert await store.snapshot() == expected  # the index caught up: the same tree
    assert not taking._BEHIND[store.store]


async def test_a_tracked_file_an_ignore_rule_names_stays_and_a_file_becomes_gone(
    root: Path, tmp_path: Path
) -> None:
    (root / "kept.log").write_text("taken before the rule\n")
    (root / ".gitignore").write_text("")
    store = CheckpointStore(root, tmp_path / "store")
    await store.snapshot()
    (root / ".gitignore").write_text("*.log\n")
    (root / "kept.log").write_text("still taken\n")
    (root / "a.txt").unlink()
    grafted = await store.snapshot({root / "kept.log", root / "a.txt", root / ".gitignore"})
    assert await store.read(grafted, root / "kept.log") == b"still taken\n"
    assert await store.read(grafted, root / "a.txt") is None
    assert await store.snapshot() == grafted  # the index agrees


async def test_what_a_graft_cannot_take_goes_through_the_index(root: Path, tmp_path: Path) -> None:
    store = CheckpointStore(root, tmp_path / "store")
    first = await store.snapshot()

    async def no_git(*args: str, stdin: bytes | None = None, ok: tuple[int, ...] = (0,)) -> bytes:
        raise AssertionError("answered before any git run")

    for name in ("src", ".git/config", "line\nbreak"):
        assert await graft(no_git, root, first, [name.encode()], 100) is None
    (root / "link").symlink_to("a.txt")
    assert await graft(no_git, root, first, [b"link"], 100) is None
    (root / "a.txt").unlink()
    (root / "a.txt").mkdir()
    (root / "a.txt" / "inside.txt").write_text("a file where a file was\n")
    assert await graft(store._git, root, first, [b"a.txt/inside.txt"], 100) is None
    # A watch names the folder that replaced the file, and what is in it.
    tree = await store.snapshot({root / "a.txt", root / "a.txt" / "inside.txt", root / "link"})
    assert tree == await reference(root, tmp_path).snapshot()


async def test_a_store_another_object_moved_on_is_not_grafted(root: Path, tmp_path: Path) -> None:
    """Two objects of one store (review's groups keep their own): a graft starts from the last
    checkpoint of the store, whoever took it; else the index makes it."""
    mine = CheckpointStore(root, tmp_path / "store")
    theirs = CheckpointStore(root, tmp_path / "store")
    await mine.snapshot()
    (root / "a.txt").write_text("graft me\n")
    await mine.snapshot({root / "a.txt"})
    (root / "src" / "b.py").write_text("theirs\n")
    await theirs.snapshot()
    (root / "src" / "deep" / "c.py").write_text("mine again\n")
    tree = await mine.snapshot({root / "src" / "deep" / "c.py"})
    assert tree == await reference(root, tmp_path).snapshot()
