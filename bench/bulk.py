"""A command that creates many files in one turn: what review's look costs, next to git doing the
same work on a scratch copy, in one run.

    python bench/bulk.py [--files 1000 2000 4000]

For each count: a workspace checkpointed (``review.turns.TurnWatch`` over a ``ReviewQueue`` on the
disk, no editor), then a command's worth of new files written into one new folder, then one look
(what review does when the command's tool call ends): every file found, read and recorded as a
hunk. Anchors in the same run: ``git add -A`` and ``git status --porcelain`` of a scratch
repository holding the same new files. The editor's side (diagnostics, follow) is not in this
measurement.
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

from acp_editor.review.queue import ReviewQueue
from acp_editor.review.turns import TurnWatch
from acp_editor.services.documents import DiskDocuments


def write_files(folder: Path, count: int) -> None:
    folder.mkdir()
    for n in range(count):
        (folder / f"f{n}.js").write_text(f"module.exports = {n};\n")


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
    write_files(root / "generated", count)
    start = time.perf_counter()
    found = await turns.look("s", "c1")
    look = time.perf_counter() - start
    assert len(found) == count and len(queue.hunks) == count
    scratch = tmp / f"scratch-{count}"
    scratch.mkdir()
    timed_git(scratch, "init", "-q")
    write_files(scratch / "generated", count)
    add = timed_git(scratch, "add", "-A")
    status = timed_git(scratch, "status", "--porcelain")
    print(
        f"{count:6d} new files: look {look * 1000:7.0f} ms ({look / count * 1e6:5.0f} us a file); "
        f"git add -A {add * 1000:5.0f} ms, git status {status * 1000:4.0f} ms; "
        f"look / git add -A {look / add:4.1f}x"
    )


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
