"""A group of bulk changes: its files as looks fold them in, counted by folder, kept."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.queue.groups import ReviewGroup, relative
from acp_editor.services.git.checkpoints import Change

ROOT = Path("/w")


def made(*paths: str) -> list[Change]:
    return [Change(ROOT / p, "added", None, f"{n:040x}") for n, p in enumerate(paths, 1)]


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
