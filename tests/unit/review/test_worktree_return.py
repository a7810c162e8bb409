"""A worktree's changes brought back as review: merged three ways into what the user has now
(the disk, and an open buffer with unsaved edits), overlaps kept as the user's text and
reported, new and deleted files, many files as one group, and a real worktree end to end."""

from __future__ import annotations

import subprocess
from pathlib import Path

from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.review.worktree_return import BringBackResult, bring_back
from acp_editor.services import worktrees
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointStore
from acp_editor.services.worktrees import WorktreeChange
from acp_editor.text.merge import merge3

BASE = "one\ntwo\nthree\nfour\nfive\n"


class Buffers(DiskDocuments):
    """The disk, with open buffers over it (as the editor's source: the buffer wins)."""

    def __init__(self) -> None:
        self.open: dict[Path, str] = {}
        self.told: list[tuple[Path, str | None, str | None]] = []

    async def read_text(self, path: Path) -> str:
        if path in self.open:
            return self.open[path]
        return await super().read_text(path)

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        self.told.append((path, before, after))
        if path in self.open and after is not None:
            self.open[path] = merge3(before or "", self.open[path], after).text

    def held_paths(self) -> frozenset[str]:
        return frozenset(str(p) for p in self.open)


def setup(tmp_path: Path) -> tuple[Path, Buffers, ReviewQueue, list[tuple[Path, str | None]]]:
    root = (tmp_path / "w").resolve()
    root.mkdir()
    documents = Buffers()
    written: list[tuple[Path, str | None]] = []
    queue = ReviewQueue(
        documents,
        on_written=lambda path, text: written.append((path, text)),
        store_for=lambda r: CheckpointStore(r, tmp_path / "store"),
    )
    return root, documents, queue, written


async def back(
    queue: ReviewQueue, docs: Buffers, root: Path, *changes: WorktreeChange
) -> BringBackResult:
    return await bring_back(queue, docs, "wt-session", list(changes), root)


async def test_a_clean_merge_lands_in_a_file_the_user_changed_since(tmp_path: Path) -> None:
    root, docs, queue, written = setup(tmp_path)
    path = root / "a.txt"
    path.write_text(BASE.replace("one", "ONE (user)"))
    theirs = BASE.replace("five", "FIVE (session)")
    result = await back(queue, docs, root, WorktreeChange(path, "modified", BASE, theirs))
    merged = "ONE (user)\ntwo\nthree\nfour\nFIVE (session)\n"
    assert path.read_text() == merged
    assert result.brought == [path] and result.left == [] and result.groups == []
    [hunk] = result.hunks
    assert (hunk.session_id, hunk.path, hunk.applied, hunk.state) == (
        "wt-session",
        str(path),
        True,
        "pending",
    )
    assert hunk.anchor.new_lines == ("FIVE (session)",)
    assert written == [(path, merged)]  # told: the turn watch must not take it for an agent's


async def test_an_open_buffers_unsaved_edits_stay_unsaved_and_get_the_change(
    tmp_path: Path,
) -> None:
    root, docs, queue, _ = setup(tmp_path)
    path = root / "a.txt"
    path.write_text(BASE)
    docs.open[path] = BASE.replace("two", "TWO (unsaved)")
    theirs = BASE.replace("five", "FIVE (session)")
    result = await back(queue, docs, root, WorktreeChange(path, "modified", BASE, theirs))
    assert path.read_text() == theirs  # the disk gets the session's change only
    assert docs.open[path] == "one\nTWO (unsaved)\nthree\nfour\nFIVE (session)\n"
    assert result.left == [] and len(result.hunks) == 1


async def test_overlapping_changes_keep_the_users_text_and_are_reported(tmp_path: Path) -> None:
    root, docs, queue, written = setup(tmp_path)
    on_disk, in_buffer = root / "disk.txt", root / "buffer.txt"
    on_disk.write_text(BASE.replace("three", "THREE (user)"))
    in_buffer.write_text(BASE)
    docs.open[in_buffer] = BASE.replace("three", "THREE (unsaved)")
    theirs = BASE.replace("three", "THREE (session)")
    result = await back(
        queue,
        docs,
        root,
        WorktreeChange(on_disk, "modified", BASE, theirs),
        WorktreeChange(in_buffer, "modified", BASE, theirs),
    )
    assert on_disk.read_text() == BASE.replace("three", "THREE (user)")
    assert in_buffer.read_text() == BASE  # not half brought back: the disk is left too
    assert docs.open[in_buffer] == BASE.replace("three", "THREE (unsaved)")
    assert [(n.path, n.reason) for n in result.left] == [
        (on_disk, "you and the session changed the same lines (1 place): your text was kept"),
        (
            in_buffer,
            "you and the session changed the same lines (1 place): your text was kept "
            "(in your unsaved edits)",
        ),
    ]
    assert result.brought == [] and result.hunks == [] and not queue.hunks and written == []


async def test_new_and_deleted_files(tmp_path: Path) -> None:
    root, docs, queue, _ = setup(tmp_path)
    (root / "old.txt").write_text("old\n")
    (root / "kept.txt").write_text("the user changed it\n")
    (root / "mine.txt").write_text("the user made it too\n")
    (root / "pic.png").write_bytes(b"\0")
    result = await back(
        queue,
        docs,
        root,
        WorktreeChange(root / "pkg" / "new.py", "added", None, "new = 1\n"),
        WorktreeChange(root / "old.txt", "deleted", "old\n", None),
        WorktreeChange(root / "kept.txt", "deleted", "as it was\n", None),
        WorktreeChange(root / "mine.txt", "added", None, "the session made it\n"),
        WorktreeChange(root / "pic.png", "modified", None, None, binary=True),
    )
    assert (root / "pkg" / "new.py").read_text() == "new = 1\n"
    assert not (root / "old.txt").exists()
    assert (root / "kept.txt").read_text() == "the user changed it\n"
    assert (root / "mine.txt").read_text() == "the user made it too\n"
    assert {h.path: h.file_change for h in result.hunks} == {
        str(root / "pkg" / "new.py"): "created",
        str(root / "old.txt"): "deleted",
    }
    assert {n.path.name: n.reason.split(":")[0] for n in result.left} == {
        "kept.txt": "the session deleted this file, and you changed it since",
        "mine.txt": "you made this file too",
        "pic.png": "not text",
    }


async def test_many_files_in_a_folder_are_one_group_rejected_as_the_user_had_them(
    tmp_path: Path,
) -> None:
    root, docs, queue, _ = setup(tmp_path)
    (root / "gen").mkdir()
    (root / "gen" / "f0.py").write_text("user's\n")
    docs.open[root / "gen" / "f0.py"] = "user's\n"
    changes = [WorktreeChange(root / "gen" / "f0.py", "modified", "user's\n", "generated\n")]
    changes += [
        WorktreeChange(root / "gen" / f"f{i}.py", "added", None, f"x = {i}\n") for i in range(1, 30)
    ]
    result = await back(queue, docs, root, *changes)
    [group] = result.groups
    assert (group.session_id, group.folder, len(group.files)) == (
        "wt-session",
        str(root / "gen"),
        30,
    )
    assert result.hunks == [] and len(result.brought) == 30
    assert (root / "gen" / "f7.py").read_text() == "x = 7\n"
    assert docs.open[root / "gen" / "f0.py"] == "generated\n"  # the open one took it
    await queue.bulk.decide([group], accept=False)
    assert group.state == "rejected"
    assert sorted(p.name for p in (root / "gen").iterdir()) == ["f0.py"]
    assert (root / "gen" / "f0.py").read_text() == "user's\n"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


async def test_a_real_worktree_brought_back_then_discarded(tmp_path: Path) -> None:
    root, docs, queue, _ = setup(tmp_path)
    (root / "a.txt").write_text(BASE)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "-c", "user.name=u", "-c", "user.email=u@e", "commit", "-qm", "one")
    worktree = await worktrees.create(root, "wt-session")
    (worktree.tree / "a.txt").write_text(BASE.replace("five", "FIVE (session)"))
    (worktree.tree / "b.txt").write_text("new\n")
    (root / "a.txt").write_text(BASE.replace("one", "ONE (user)"))  # meanwhile
    result = await back(queue, docs, root, *await worktrees.changes(worktree))
    await worktrees.discard(worktree)
    assert (root / "a.txt").read_text() == "ONE (user)\ntwo\nthree\nfour\nFIVE (session)\n"
    assert (root / "b.txt").read_text() == "new\n"
    assert sorted(Path(h.path).name for h in result.hunks) == ["a.txt", "b.txt"]
    assert not (await worktrees.existing(root))
