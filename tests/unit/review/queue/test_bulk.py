"""Rejecting a group of bulk changes on a real disk with a real checkpoint store (bytes, modes,
symlinks, folders): exactly the group's files go back."""

from __future__ import annotations

import os
from pathlib import Path

from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.bulk import HELD
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import CheckpointStore


def tree_of(root: Path) -> dict[str, tuple[str, bytes, int]]:
    """Every file and symlink under ``root`` (not .git): kind, bytes or target, mode bits."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path).encode(), 0)
            else:
                found[rel] = ("file", path.read_bytes(), path.stat().st_mode & 0o111)
    return found


async def test_rejecting_a_group_puts_back_exactly_its_files(tmp_path: Path) -> None:
    root = (tmp_path / "w").resolve()
    (root / "gen").mkdir(parents=True)
    for n in range(30):
        (root / "gen" / f"old{n}.js").write_bytes(b"old %d\r\n" % n)  # CRLF stays CRLF
    (root / "gen" / "run.sh").write_text("echo old\n")
    (root / "gen" / "run.sh").chmod(0o755)
    (root / "gen" / "link").symlink_to("old0.js")
    (root / "keep.txt").write_text("not in the group\n")
    before = tree_of(root)
    turns: TurnWatch
    queue = ReviewQueue(
        DiskDocuments(),
        on_written=lambda path, text: turns.written(path, text),
        store_for=lambda r: turns.store(r),
    )
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, tmp_path / "store"))
    await turns.begin("s1", [str(root)])
    # A generator: rewrites 10 files, deletes 10, the script and the link, makes 30 in new
    # folders.
    for n in range(10):
        (root / "gen" / f"old{n}.js").write_text(f"new {n}\n")
    for n in range(10, 20):
        (root / "gen" / f"old{n}.js").unlink()
    (root / "gen" / "run.sh").unlink()
    (root / "gen" / "link").unlink()
    for n in range(30):
        (root / "gen" / "deep" / f"d{n % 3}").mkdir(parents=True, exist_ok=True)
        (root / "gen" / "deep" / f"d{n % 3}" / f"new{n}.js").write_text(f"{n}\n")
    await turns.end("s1")
    (made_group,) = queue.bulk.groups.values()
    assert made_group.counts() == {"created": 30, "deleted": 12, "changed": 10}
    assert queue.hunks == {}  # nothing file by file
    store = CheckpointStore(root, tmp_path / "store")
    assert await store.names(f"{HELD}/")
    (root / "keep.txt").write_text("the user's, after the group\n")  # not the group's
    (root / "gen" / "old5.js").write_text("the user's\n")  # changed since: left as it is

    (result,) = await queue.bulk.decide([made_group], accept=False)
    assert result["state"] == "pending" and "one of its files changed since" in result["error"]
    now = tree_of(root)
    assert now["gen/old5.js"] == ("file", b"the user's\n", 0)
    assert now["keep.txt"] == ("file", b"the user's, after the group\n", 0)
    expected = {k: v for k, v in before.items() if k not in ("gen/old5.js", "keep.txt")}
    assert {k: v for k, v in now.items() if k not in ("gen/old5.js", "keep.txt")} == expected
    assert not (root / "gen" / "deep").exists()  # the folders it made went with its files
    assert list(made_group.files) == ["gen/old5.js"]
    (accepted,) = await queue.bulk.decide([made_group], accept=True)
    assert accepted == {"groupId": made_group.group_id, "state": "accepted"}
    assert await store.names(f"{HELD}/") == []  # nothing pending needs the checkpoint now
