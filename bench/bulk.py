"""A command that creates many files in one turn, then one that changes them all: what review's
look costs, next to git doing the same work on a scratch copy, in one run.

    python bench/bulk.py [--files 1000 2000 4000]

For each count: a workspace checkpointed (``review.finding.turns.TurnWatch`` over a ``ReviewQueue``
on the disk, no editor), then a command's worth of new files written into one new folder, then one
look (what review does when the command's tool call ends): every file found and recorded (a burst:
one group). Then every file rewritten at once with the same size (most in the second the checkpoint
was taken: git reads such "racily clean" entries again) and one more look. Anchors in the same run:
``git add -A`` (after each of the two writes) and ``git status --porcelain`` of a scratch repository
holding the same files. The editor's side (diagnostics, follow) is not in this measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments


def write_files(folder: Path, count: int, name: str = "a") -> None:
    """``count`` files in ``folder``; another ``name`` rewrites each with the same size."""
    folder.mkdir(exist_ok=True)
    for n in range(count):
        (folder / f"f{n}.js").write_text(f"exports.{name} = {n};\n")


def timed_git(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return time.perf_counter() - start


async def one(count: int, tmp: Path) -> None:
    root = tmp / f"work-{count}"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    queue = ReviewQueue(DiskDocuments(), "after-write")
    turns = TurnWatch(queue)
    await turns.begin("s", [str(root)])
    looks = []
    for name, call in (("a", "c1"), ("b", "c2")):
        write_files(root / "generated", count, name)
        start = time.perf_counter()
        found = await turns.look("s", call)
        looks.append(time.perf_counter() - start)
        grouped = sum(len(g.files) for g in queue.bulk.groups.values())
        assert len(found) == count and grouped == count and not queue.hunks
    scratch = tmp / f"scratch-{count}"
    scratch.mkdir()
    timed_git(scratch, "init", "-q")
    adds = []
    for name in ("a", "b"):
        write_files(scratch / "generated", count, name)
        adds.append(timed_git(scratch, "add", "-A"))
    status = timed_git(scratch, "status", "--porcelain")
    for what, look, add in zip(("new", "changed"), looks, adds, strict=True):
        print(
            f"{count:6d} {what:7s} files: look {look * 1000:7.0f} ms "
            f"({look / count * 1e6:5.0f} us a file); git add -A {add * 1000:5.0f} ms; "
            f"look / git add -A {look / add:5.2f}x"
        )
    print(f"{'':6s} git status {status * 1000:4.0f} ms")


async def run(counts: list[int]) -> None:
    with tempfile.TemporaryDirectory(prefix="acp-bulk-") as tmp:
        os.environ["ACP_EDITOR_STATE_DIR"] = str(Path(tmp, "state"))
        for count in counts:
            await one(count, Path(tmp))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, nargs="+", default=[1000, 2000, 4000])
    args = parser.parse_args()
    asyncio.run(run(args.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
