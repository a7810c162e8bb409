"""The folders a turn's file watch covers: where files are, and where new ones may appear."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.watch_folders import other_directories, repository_folders
from acp_editor.services.git.checkpoints import CheckpointStore
from tests.support.kept import repository


async def test_a_repositorys_folders_with_files_and_without(tmp_path: Path) -> None:
    root = tmp_path.resolve()
    (root / "src" / "deep").mkdir(parents=True)
    (root / "src" / "deep" / "a.py").write_text("a\n")
    (root / "top.txt").write_text("top\n")
    repository(root)
    (root / "empty").mkdir()
    (root / "untracked" / "below").mkdir(parents=True)
    (root / "untracked" / "below" / "u.txt").write_text("not committed\n")
    (root / ".gitignore").write_text("ignored/\n")
    (root / "ignored" / "inner").mkdir(parents=True)
    store = CheckpointStore(root)
    folders = await repository_folders(store, root)
    assert folders is not None
    assert set(folders) >= {
        root,
        root / "src",
        root / "src" / "deep",
        root / "empty",
        root / "untracked",
        root / "untracked" / "below",
    }
    assert root / "ignored" not in folders
    assert set(await other_directories(store)) >= {root / "empty", root / "untracked" / "below"}
