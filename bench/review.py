"""The review queue on a large file with many open hunks, measured in one run.

    python bench/review.py [--lines 5000] [--every 25]

A file of ``--lines`` distinct lines; the agent changes every ``--every``-th line, then changes
lines between those again (each second change lands next to, and folds, hunks of the first).
Prints the time to record both changes, to reject every open hunk one by one (each a decision
that rewrites the file, as the editor's "Reject" does), and the floor they stand on: one
``compute_hunks`` of the same two texts (difflib), measured in the same run. Checks the file
comes back exactly as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.text.hunks import compute_hunks

FILE = Path("/bench/file.py")


class InMemory:
    """The queue's only I/O, without a disk or an editor in the measurement."""

    def __init__(self, text: str) -> None:
        self.text = text

    async def read_text(self, path: Path) -> str:
        return self.text

    async def write_text(self, path: Path, text: str, **_where: object) -> None:
        self.text = text


def texts(lines: int, every: int) -> tuple[str, str, str]:
    first = [f"line {n}: value = {n * 7919 % 10007}\n" for n in range(lines)]
    second = list(first)
    for n in range(0, lines, every):
        second[n] = f"line {n}: value = changed\n"
    third = list(second)
    for n in range(every // 2, lines, every * 2):
        third[n] = f"line {n}: value = changed again\n"
    return "".join(first), "".join(second), "".join(third)


async def run(lines: int, every: int) -> None:
    t0, t1, t2 = texts(lines, every)
    began = time.perf_counter()
    compute_hunks(t1, t2)
    floor = time.perf_counter() - began
    files = InMemory(t2)
    queue = ReviewQueue(files)
    began = time.perf_counter()
    queue.record_applied("s", "c1", FILE, t0, t1)
    open_hunks = len(queue.hunks)
    second = time.perf_counter()
    queue.record_applied("s", "c2", FILE, t1, t2)
    ended = time.perf_counter()
    recorded, over = ended - began, ended - second
    pending = [h for h in queue.hunks.values() if h.state == "pending"]
    began = time.perf_counter()
    for hunk in pending:
        await queue.decide([hunk], accept=False)
    decided = time.perf_counter() - began
    print(f"command: python bench/review.py --lines {lines} --every {every}")
    print(f"one compute_hunks of the second change  {floor * 1000:8.1f} ms (the floor)")
    ratio = recorded / floor
    print(f"record both changes                     {recorded * 1000:8.1f} ms  ({ratio:.1f}x)")
    print(
        f"record the second, over {open_hunks} open hunks   {over * 1000:8.1f} ms  "
        f"({over / floor:.1f}x)"
    )
    print(f"reject {len(pending):4d} open hunks one by one      {decided * 1000:8.1f} ms")
    print(f"the file is back as it was: {files.text == t0}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--every", type=int, default=25)
    args = parser.parse_args()
    asyncio.run(run(args.lines, args.every))


if __name__ == "__main__":
    main()
