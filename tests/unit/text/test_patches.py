"""Git patches read and applied both ways: against real ``git diff`` output and, as a property,
against difflib's unified diffs of random texts."""

from __future__ import annotations

import contextlib
import difflib
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acp_editor.demo_agent.turn.v2 import git_patch
from acp_editor.text.patches import PatchError, apply, parse, texts, unapply

OLD = "".join(f"line {n}\n" for n in range(1, 41))
NEW = OLD.replace("line 3\n", "line three\n").replace("line 30\n", "line 30\nadded\n")


def git_diff(tmp_path: Path, old: str | None, new: str | None, *flags: str) -> str:
    """``git diff --no-index`` of two files (None: the file is missing on that side)."""
    a, b = tmp_path / "a" / "f.txt", tmp_path / "b" / "f.txt"
    for path, text in ((a, old), (b, new)):
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is not None:
            path.write_bytes(text.encode())
    left = str(a) if old is not None else "/dev/null"
    right = str(b) if new is not None else "/dev/null"
    done = subprocess.run(
        ["git", "diff", "--no-index", "--no-color", *flags, left, right],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # 1: the files differ
    return done.stdout


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (OLD, NEW),
        (OLD, OLD + "tail without newline"),
        (OLD + "no newline", OLD + "no newline either"),
        (OLD.replace("\n", "\r\n"), NEW.replace("\n", "\r\n")),
        ("", "one\n"),
        ("a\nb\n", ""),
    ],
    ids=[
        "two hunks",
        "adds a last line",
        "both lack the newline",
        "crlf",
        "from empty",
        "to empty",
    ],
)
def test_real_git_output_applies_forward_and_backward(tmp_path: Path, old: str, new: str) -> None:
    (file,) = parse(git_diff(tmp_path, old, new))
    assert apply(file, old) == new
    assert unapply(file, new) == old
    assert texts(file, old) == (old, new)  # not written yet
    assert texts(file, new, written=True) == (old, new)  # already written


def test_added_and_deleted_files(tmp_path: Path) -> None:
    (added,) = parse(git_diff(tmp_path / "1", None, "fresh\nfile\n"))
    assert added.old_path is None and added.new_path is not None
    assert texts(added, None) == (None, "fresh\nfile\n")
    assert texts(added, "fresh\nfile\n", written=True) == (None, "fresh\nfile\n")
    (deleted,) = parse(git_diff(tmp_path / "2", "gone\n", None))
    assert deleted.new_path is None
    assert texts(deleted, "gone\n") == ("gone\n", "")
    assert texts(deleted, None) == ("gone\n", "")


def test_a_patch_that_fits_neither_way_gives_nothing(tmp_path: Path) -> None:
    (file,) = parse(git_diff(tmp_path, OLD, NEW))
    assert texts(file, NEW) == (OLD, NEW)  # thought unwritten, but only backward fits
    assert texts(file, "something else entirely\n") is None
    assert apply(file, "line 1\n") is None


def test_a_hunk_is_found_where_earlier_changes_moved_it(tmp_path: Path) -> None:
    (file,) = parse(git_diff(tmp_path, OLD, NEW))
    shifted = "inserted\n" * 5 + OLD  # the user added lines on top since
    assert apply(file, shifted) == "inserted\n" * 5 + NEW


def test_multi_file_rename_and_binary_sections(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    (repo / "old.py").write_text(OLD)
    (repo / "img.bin").write_bytes(b"\0\1\2")
    (repo / "keep.txt").write_text("a\n")
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    subprocess.run([*git, "mv", "old.py", "new.py"], check=True)
    (repo / "new.py").write_text(NEW)
    (repo / "img.bin").write_bytes(b"\0\3\2")
    (repo / "keep.txt").write_text("b\n")
    subprocess.run([*git, "add", "."], check=True)
    out = subprocess.run(
        [*git, "diff", "--cached", "-M"], capture_output=True, text=True, check=True
    )
    files = {f.new_path: f for f in parse(out.stdout)}
    assert set(files) == {"new.py", "img.bin", "keep.txt"}
    assert files["new.py"].old_path == "old.py" and apply(files["new.py"], OLD) == NEW
    assert files["img.bin"].is_binary and not files["img.bin"].hunks
    assert apply(files["keep.txt"], "a\n") == "b\n"


def test_the_demo_agents_patches_apply(tmp_path: Path) -> None:
    (file,) = parse(git_patch("/w/f.txt", OLD, NEW))
    assert file.old_path == file.new_path == "/w/f.txt"
    assert texts(file, OLD) == (OLD, NEW)
    (made,) = parse(git_patch("/w/g.txt", None, "x\ny"))
    assert made.old_path is None and texts(made, None) == (None, "x\ny")


@pytest.mark.parametrize(
    "text",
    [
        "@@ -1 +1 @@\n-a\n+b\n",
        "diff --git a b\n@@ -1,3 +1,3 @@\n-a\n",
        "diff --git a b\n@@ nonsense\n",
    ],
)
def test_malformed_patches_raise_patch_error(text: str) -> None:
    with pytest.raises(PatchError):
        parse(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_raises_patch_error(text: str) -> None:
    with contextlib.suppress(PatchError):
        parse(text)


lines = st.lists(st.sampled_from(["a", "b", "c", "", "d e", "\tx"]), max_size=25)


@settings(max_examples=300, deadline=None)
@given(lines, lines, st.integers(0, 3))
def test_difflib_patches_round_trip(
    old_lines: list[str], new_lines: list[str], context: int
) -> None:
    old = "".join(f"{line}\n" for line in old_lines)
    new = "".join(f"{line}\n" for line in new_lines)
    if old == new:
        return
    body = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), "/w/f", "/w/f", n=context
    )
    (file,) = parse("diff --git /w/f /w/f\n" + "".join(body))
    assert apply(file, old) == new
    assert unapply(file, new) == old
