"""A session's own worktree on a big repository: what making one costs, next to ``git status``.

Makes a git repository of FILES files (everything committed, then a few files staged, changed
and added: set-up, not timed), then in the same run, ROUNDS times each: ``git status`` in the
repository (after one warm-up run: its index refreshed, the files in the page cache), making a
worktree (``services.worktrees.create``: the snapshot from the user's index, the base commit,
copying the staged blobs, checking every file out), the list of what changed after the session
edited three files (``changes``), and discarding it. Prints the medians and the ratio to
``git status``, and checks the user's object store did not grow. A second baseline: ``cp -r``
of the work tree's files (not ``.git``), the least any worktree of its own costs: making a worktree
is writing every file, and on a slow disk that is most of it.

    python bench/worktrees.py                  # 20,000 files
    python bench/worktrees.py --files 2000 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from acp_editor.services import worktrees


def git(cwd: Path, *args: str) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b")
    env.update(GIT_COMMITTER_EMAIL="b@b")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True).stdout


def make_repository(root: Path, files: int) -> None:
    line = b"x = 'some reasonably long line of source code for the benchmark'  # 0123456789\n"
    for n in range(files):
        folder = root / f"pkg{n % 50:02d}" / f"mod{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{n:05d}.py").write_bytes(b"# %d\n" % n + line * 20)
    (root / ".gitignore").write_text("*.pyc\nbuild/\n")
    git(root, "init", "-q")
    git(root, "config", "gc.auto", "0")  # no gc of the user's own in the background meanwhile
    git(root, "add", ".")
    git(root, "commit", "-qm", "everything")
    git(root, "gc", "-q")  # packed, as a repository of that size usually is
    (root / "pkg00" / "mod0" / "file00000.py").write_text("staged = 1\n")
    git(root, "add", "pkg00/mod0/file00000.py")
    (root / "pkg01" / "mod1" / "file00001.py").write_text("unstaged = 1\n")
    (root / "new.py").write_text("untracked = 1\n")


def copy_work_tree(root: Path) -> float:
    """Seconds ``cp -r`` takes to copy the work tree's files (not ``.git``)."""
    copy = root.parent / "copy"
    copy.mkdir()
    started = time.perf_counter()
    subprocess.run(["cp", "-r", *(str(p) for p in root.iterdir() if p.name != ".git"), copy])
    seconds = time.perf_counter() - started
    shutil.rmtree(copy)
    return seconds


def timed(seconds: list[float], started: float) -> None:
    seconds.append(time.perf_counter() - started)


async def rounds(root: Path, count: int) -> dict[str, list[float]]:
    took: dict[str, list[float]] = {
        "git status": [],
        "cp -r": [],
        "create": [],
        "changes": [],
        "discard": [],
    }
    git(root, "status", "--porcelain")  # warm-up: the index refreshed, the files cached
    for n in range(count):
        started = time.perf_counter()
        git(root, "status", "--porcelain")
        timed(took["git status"], started)
        took["cp -r"].append(copy_work_tree(root))
        started = time.perf_counter()
        worktree = await worktrees.create(root, f"bench-{n}")
        timed(took["create"], started)
        for name in ("pkg02/mod2/file00002.py", "pkg03/mod3/file00003.py", "added.py"):
            (worktree.tree / name).write_text("the session's\n")
        started = time.perf_counter()
        found = await worktrees.changes(worktree)
        timed(took["changes"], started)
        assert len(found) == 3, found
        started = time.perf_counter()
        await worktrees.discard(worktree)
        timed(took["discard"], started)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="acp-bench-worktrees-") as tmp:
        os.environ["ACP_EDITOR_STATE_DIR"] = str(Path(tmp) / "state")
        root = Path(tmp) / "repo"
        root.mkdir()
        make_repository(root, args.files)
        objects = git(root, "count-objects", "-v")
        took = asyncio.run(rounds(root, args.rounds))
        after = git(root, "count-objects", "-v")
        assert after == objects, f"the user's object store changed: {objects!r} {after!r}"
    status = statistics.median(took["git status"])
    print(f"{args.files:,} files, median of {args.rounds} rounds:")
    for name, seconds in took.items():
        median = statistics.median(seconds)
        print(
            f"  {name:<11} {median * 1000:8.1f} ms  (worst {max(seconds) * 1000:.1f} ms)"
            f"  {median / status:6.1f}x git status"
        )


if __name__ == "__main__":
    main()
