"""How fast an ``@`` in a prompt completes workspace files (``acp/findFiles``), next to ``git
status`` on the same workspace, in one run.

    python bench/find_files.py [--files 100000] [--no-repository]

The workspace (FILES small files; a git repository with everything committed unless
``--no-repository``, plus 200 new files it does not track yet) is searched the way a user types
``@file12345``: one search per keystroke, as the editor sends them. Printed: the first
keystroke (the workspace is listed then, nothing before; a repository's tracked files answer it
while the walk for new files goes on) and when that first listing is whole, each later
keystroke, the same keystrokes while every one also lists the workspace again in the background
(a listing older than its 2 s, as when the user types on after a pause), and ``git status
--porcelain`` (best of 3). The searches run in this process, as the server runs them; the
JSON-RPC round trip to the editor adds about a millisecond.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from checkpoints import git, make_workspace  # noqa: E402  (bench/checkpoints.py)

from acp_editor.services.workspace_files.listing import WorkspaceFiles  # noqa: E402

TYPED = "file12345"


@dataclass
class Typed:
    first: float
    """The first keystroke's answer."""
    first_found: int
    whole: float
    """From the first keystroke to the end of the first listing (the answers complete)."""
    later: list[float]
    found: int


async def keystrokes(root: Path, fresh_s: float) -> Typed:
    files = WorkspaceFiles(fresh_s=fresh_s)
    times: list[float] = []
    try:
        start = time.perf_counter()
        answer = await files.find([str(root)], TYPED[:1], 50)
        first, first_found = time.perf_counter() - start, len(answer.paths)
        await files.settle()  # the user types on: the listing ends meanwhile
        whole = time.perf_counter() - start
        for end in range(2, len(TYPED) + 1):
            start = time.perf_counter()
            answer = await files.find([str(root)], TYPED[:end], 50)
            times.append(time.perf_counter() - start)
    finally:
        await files.close()
    return Typed(first, first_found, whole, times, len(answer.paths))


def run(count: int, repository: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="acp-find-") as tmp:
        root = Path(tmp, "work").resolve()
        root.mkdir()
        make_workspace(root, count, count * 64)
        if repository:
            git(root, "init", "-q")
            git(root, "add", "-A")
            git(root, "-c", "gc.auto=0", "commit", "-q", "-m", "bench")
        (root / "new").mkdir()
        for n in range(200):
            (root / "new" / f"fresh{n}.py").write_text("untracked\n")
        status = min(git(root, "status", "--porcelain") for _ in range(3)) if repository else 0
        typed = asyncio.run(keystrokes(root, fresh_s=3600))
        busy = asyncio.run(keystrokes(root, fresh_s=0.0))
        kind = "a repository" if repository else "not a repository"
        print(f"workspace: {count} files, {kind}; typed @{TYPED} ({typed.found} found at the end)")
        if status:
            print(f"git status --porcelain (best of 3):         {status * 1000:7.1f} ms")
        first = f"{typed.first * 1000:7.1f} ms ({typed.first_found} files)"
        print(f"first keystroke's answer:                   {first}")
        print(f"  the first listing whole after:            {typed.whole * 1000:7.1f} ms")
        print(f"later keystrokes (median / max):            {ms(typed.later)}")
        print(f"  while listing again each time:           {ms(busy.later)}")
        if status:
            print(f"first keystroke / git status:               {typed.first / status:7.2f}x")


def ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:7.1f} / {max(times) * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--no-repository", action="store_true")
    args = parser.parse_args()
    run(args.files, not args.no_repository)
    return 0


if __name__ == "__main__":
    sys.exit(main())
