"""Bulk changes as groups: which files a look groups, how later looks fold in, and rejecting a
group on a real disk with a real checkpoint store (bytes, modes, symlinks, folders)."""

from __future__ import annotations

import os
from pathlib import Path

from acp_editor.review.bulk import HELD
from acp_editor.review.groups import FEW, GROUP_AT, ReviewGroup, split
from acp_editor.review.queue import ReviewQueue
from acp_editor.review.turns import TurnWatch
from acp_editor.services.checkpoints import Change, CheckpointStore
from acp_editor.services.documents import DiskDocuments

ROOT = Path("/w")


def made(*paths: str) -> list[Change]:
    return [Change(ROOT / p, "added", None, f"{n:040x}") for n, p in enumerate(paths, 1)]


def test_fewer_than_the_threshold_stay_single_files() -> None:
    changes = made(*(f"gen/f{n}.js" for n in range(GROUP_AT - 1)))
    assert split(ROOT, changes) == (changes, {})


def test_a_folder_with_many_files_is_one_group_and_other_files_stay_single() -> None:
    burst = made(*(f"node_modules/p{n // 5}/f{n}.js" for n in range(200)))
    edits = made("src/a.py", "README.md")
    single, groups = split(ROOT, burst + edits)
    assert sorted(single, key=str) == sorted(edits, key=str)
    assert list(groups) == [ROOT / "node_modules"]  # its packages are too small to be their own
    assert len(groups[ROOT / "node_modules"]) == 200


def test_many_files_beside_a_subfolders_group_make_the_folder_above_one_group() -> None:
    deep = made(*(f"packages/a/gen/f{n}.ts" for n in range(30)))
    around = made(*(f"packages/b{n}/x.ts" for n in range(GROUP_AT)))
    single, groups = split(ROOT, deep + around + made("top.txt"))
    assert [c.path.name for c in single] == ["top.txt"]
    assert list(groups) == [ROOT / "packages"]
    assert len(groups[ROOT / "packages"]) == 30 + GROUP_AT


def test_a_burst_with_nested_folders_is_one_group_but_an_edit_beside_one_stays_single() -> None:
    nested = made(*(f"gen/deep/d{n % 3}/f{n}.js" for n in range(30)))
    beside = made(*(f"gen/f{n}.js" for n in range(FEW)))
    single, groups = split(ROOT, nested + beside)
    assert single == [] and list(groups) == [ROOT / "gen"]
    assert len(groups[ROOT / "gen"]) == 30 + FEW
    single, groups = split(ROOT, nested + beside[: FEW - 1])
    assert len(single) == FEW - 1 and list(groups) == [ROOT / "gen" / "deep"]


def test_files_that_must_stay_single_are_left_out_of_groups() -> None:
    burst = made(*(f"gen/f{n}.js" for n in range(40)))
    single, groups = split(ROOT, burst, lambda p: p.name == "f3.js")
    assert [c.path.name for c in single] == ["f3.js"]
    assert len(groups[ROOT / "gen"]) == 39


def group() -> ReviewGroup:
    return ReviewGroup("g1", "s1", "call", str(ROOT), str(ROOT / "gen"))


def test_later_looks_keep_what_a_file_was_before_the_group() -> None:
    g = group()
    g.add(
        [
            Change(ROOT / "gen/a", "added", None, "a1"),
            Change(ROOT / "gen/b", "modified", "b0", "b1", "100755"),
        ],
        "t1",
    )
    g.add(
        [
            Change(ROOT / "gen/a", "modified", "a1", "a2"),
            Change(ROOT / "gen/b", "deleted", "b1", None, "100755"),
        ],
        "t2",
    )
    assert g.files["gen/a"].before is None and g.files["gen/a"].after == "a2"
    assert g.files["gen/b"].before == "b0" and g.files["gen/b"].mode == "100755"
    assert g.counts() == {"created": 1, "deleted": 1, "changed": 0}
    assert g.title == "2 files in gen/ (1 created, 1 deleted)"
    g.add([Change(ROOT / "gen/a", "deleted", "a2", None)], "t3")  # made, then gone: nothing
    assert list(g.files) == ["gen/b"] and g.trees == {"t1", "t2", "t3"}
    back = ReviewGroup.from_json("g9", g.to_json())
    assert (back.files, back.trees, back.folder) == (g.files, g.trees, g.folder)


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
    queue = ReviewQueue(DiskDocuments())
    turns = TurnWatch(queue, lambda r: CheckpointStore(r, tmp_path / "store"))
    queue.on_written = turns.written
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
