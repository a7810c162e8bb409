"""Which files of a look are one group, and how a later look of the burst folds in."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.queue.grouping import FEW, GROUP_AT, Held, regroup, split
from acp_editor.review.queue.groups import ReviewGroup
from acp_editor.services.git.checkpoints import Change

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


def test_files_held_by_folder_group_as_the_same_files_listed_would() -> None:
    """A later look of a burst counts what its groups hold by folder: the groups are those the
    files, listed one by one, would make."""
    before = made(
        *(f"gen/d{n % 3}/f{n}.js" for n in range(60)), *(f"gen/f{n}.js" for n in range(4))
    )
    found = made(*(f"gen/d3/g{n}.js" for n in range(30)), "src/a.py")
    earlier = ReviewGroup("g1", "s1", None, str(ROOT), str(ROOT / "gen"))
    earlier.add(before, "t1")
    held = [Held(earlier, ROOT / name, name, earlier.in_folder(name)) for name in earlier.folders()]
    single, groups = regroup(ROOT, found, held, lambda _path: False)
    listed_single, listed = split(ROOT, found + before)
    assert single == listed_single == found[-1:]
    assert list(groups) == list(listed) == [ROOT / "gen"]
    assert sum(u.count if isinstance(u, Held) else 1 for u in groups[ROOT / "gen"]) == 94
