"""Listing the workspace for completion as git sees it: tracked and new files, never ignored
ones, in a repository and in a folder that is not one; listed again once stale, in the
background, while the old listing answers."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from acp_editor.services.workspace_files import listing
from acp_editor.services.workspace_files.listing import WorkspaceFiles


def files_of(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.ts").write_text("a\n")
    (root / "build").mkdir()
    (root / "build" / "app.js").write_text("b\n")
    (root / ".gitignore").write_text("build/\n")


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    files_of(root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    (root / "src" / "new_app.ts").write_text("untracked\n")
    return root


@pytest.fixture
async def files() -> AsyncIterator[WorkspaceFiles]:
    listing = WorkspaceFiles(fresh_s=3600)
    yield listing
    await listing.close()


def names(root: Path, paths: list[Path]) -> list[str]:
    return [p.relative_to(root).as_posix() for p in paths]


async def test_a_repository_lists_tracked_and_new_files_but_not_ignored_ones(
    repository: Path, files: WorkspaceFiles
) -> None:
    first = await files.find([str(repository)], "app", 10)
    assert set(names(repository, first.paths)) <= {"src/app.ts", "src/new_app.ts"}
    await files.settle()
    found = await files.find([str(repository)], "app", 10)
    assert found.complete
    assert names(repository, found.paths) == ["src/app.ts", "src/new_app.ts"]


async def test_a_folder_that_is_not_a_repository_honours_its_gitignore(
    tmp_path: Path, files: WorkspaceFiles
) -> None:
    root = tmp_path / "plain"
    files_of(root)
    await files.find([str(root)], "app", 10)
    await files.settle()
    found = await files.find([str(root)], "app", 10)
    assert found.complete and names(root, found.paths) == ["src/app.ts"]
    assert not (root / ".git").exists()  # the user's folder is left as it was


async def test_a_stale_listing_answers_while_the_next_is_taken(repository: Path) -> None:
    files = WorkspaceFiles(fresh_s=0.0)
    try:
        await files.find([str(repository)], "later", 10)
        await files.settle()
        (repository / "src" / "later.ts").write_text("made after the first listing\n")
        stale = await files.find([str(repository)], "later", 10)  # starts the next listing
        assert stale.paths == [] and stale.complete
        await files.settle()
        fresh = await files.find([str(repository)], "later", 10)
        assert names(repository, fresh.paths) == ["src/later.ts"]
    finally:
        await files.close()


async def test_two_roots_are_searched_together(tmp_path: Path, files: WorkspaceFiles) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    files_of(one)
    (two / "lib").mkdir(parents=True)
    (two / "lib" / "application.py").write_text("x\n")
    await files.find([str(one), str(two)], "app", 10)
    await files.settle()
    found = await files.find([str(one), str(two)], "app", 10)
    assert found.paths == [one / "src" / "app.ts", two / "lib" / "application.py"]


async def test_a_long_walk_tells_what_it_has_so_far(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside a repository git says nothing until its walk ends, unless read as it writes:
    what has come after ``PARTLY_S`` answers a first search meanwhile."""
    root = tmp_path / "plain"
    files_of(root)
    monkeypatch.setattr(listing, "PARTLY_S", 0.0)  # at the first chunk
    told: list[list[str]] = []
    found = await listing._others(root, False, told.append)
    assert sorted(found) == [".gitignore", "src/app.ts"]
    assert len(told) == 1 and set(told[0]) <= set(found) and told[0]
