"""Bulk changes as groups: which files a look groups, and how later looks fold in."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.queue.groups import (
    FEW,
    GROUP_AT,
    Held,
    ReviewGroup,
    regroup,
    relative,
    split,
)
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


def test_a_group_counts_its_files_by_folder_as_they_come_and_go() -> None:
    g = group()
    g.add(made("gen/a/1", "gen/a/2", "gen/b/3", "gen/4"), "t1")
    other = ReviewGroup("g2", "s1", None, str(ROOT), str(ROOT / "gen" / "a"))
    other.take(g, [ROOT / "gen/a/1", ROOT / "gen/a/2"])
    g.add([Change(ROOT / "gen/b/3", "deleted", f"{3:040x}", None)], "t2")  # made, then gone
    assert (g.folders(), g.in_folder("gen"), g.in_folder("gen/a")) == (["gen"], 1, 0)
    assert (other.folders(), other.in_folder("gen/a")) == (["gen/a"], 2)
    other.keep_only(["gen/a/2"])
    assert other.files_in({"gen/a"}) == ["gen/a/2"] and other.in_folder("gen/a") == 1
    back = ReviewGroup.from_json("g3", other.to_json())
    assert back.in_folder("gen/a") == 1


def test_a_path_relative_to_its_root_as_pathlib_says() -> None:
    for path in ["/w/a/b.txt", "/w/.hidden/x", "/w/b"]:
        assert relative(Path(path), "/w") == Path(path).relative_to("/w").as_posix()
    assert relative(Path("/w/a"), "/") == "w/a"
