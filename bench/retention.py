"""What turn checkpoints keep on disk after many turns, and after pruning, next to the size of
the workspace itself.

    python bench/retention.py [--files 2000] [--size-mb 20] [--turns 300] [--sessions 10]
                              [--changed 3] [--hot 50] [--days 120] [--no-repository]

A workspace of FILES files of varied lines (SIZE in all; they compress about 3x, as source code
does; a git repository with everything committed unless ``--no-repository``: its first
checkpoint then borrows the repository's objects) gets TURNS turns, in SESSIONS sessions one
after another: each turn is checkpointed as the sidecar does (``TurnWatch.begin``), then changes
CHANGED files among the first HOT (the files a piece of work keeps changing; 0: any file), each
change followed by a look (a tool call's end: a checkpoint nobody names). Printed: the
workspace's size on disk (``.git`` apart), the store's after the turns, then after two pruning
passes (``services.retention``): one while every turn is recent (nothing is dropped: what no
checkpoint needs goes, the rest is packed), one with the turns spread over the last DAYS days
(the default limits drop what undo no longer needs). Sizes are what ``du`` counts; the store's
objects are first made two days old (a pass leaves younger ones: ``plumbing.EXPIRY``).

2026-11-26, this machine (2 cores, loaded by other work), 2,000 files, 23.4 MB on disk:

    python bench/retention.py                    # a repository (.git 16.8 MB), 3 of 50 files a turn
      after 300 turns: 19.0 MB (0.811x the workspace)
      a pass, every turn recent: 300 turns kept, 0.7 MB (0.032x), 1.72 s
      a pass, turns over 120 days: 180 turns kept, 0.7 MB (0.028x), 0.08 s
    python bench/retention.py --hot 0            # 3 of any of the 2,000 files a turn
      after 300 turns: 19.1 MB (0.813x); recent: 3.0 MB (0.127x), 2.26 s; 120 days: 2.9 MB (0.124x)
    python bench/retention.py --no-repository    # every file's first version is the store's own
      after 300 turns: 27.1 MB (1.155x); recent: 7.1 MB (0.305x), 1.94 s; 120 days: 7.0 MB (0.301x)

Nearly all of what pruning frees is packing: loose objects and a file per ref (4 KB each) into
one pack, the versions of a file as deltas of each other (before packing with deltas: 4.0 MB
instead of 0.7). Dropping old turns frees little: a checkpoint holds every file, so an old
turn's files are mostly still in the later ones; only versions since replaced go with it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from checkpoints import git  # noqa: E402  (bench/checkpoints.py)

from acp_editor.review.finding.turns import TurnWatch  # noqa: E402
from acp_editor.review.queue.review_queue import ReviewQueue  # noqa: E402
from acp_editor.services.documents import DiskDocuments  # noqa: E402
from acp_editor.services.git.checkpoints import CheckpointStore, store_for  # noqa: E402
from acp_editor.services.retention import inventory, plumbing  # noqa: E402
from acp_editor.services.retention.policy import DAY  # noqa: E402
from acp_editor.services.retention.pruning import prune_all  # noqa: E402

WORDS = (
    *("alpha", "beta", "gamma", "delta", "value", "result", "index"),
    *("count", "name", "path", "items", "total", "check"),
)


def make_workspace(root: Path, files: int, total: int) -> list[Path]:
    """Files of varied lines, so they compress about as source code does (about 3x), not as
    one line repeated does (bench/checkpoints.py's, a hundredfold): the store's sizes are then
    what a real workspace would see."""
    rng = random.Random(1)
    each = max(1, total // files)
    made = []
    for n in range(files):
        folder = root / f"pkg{n % 50:02d}" / f"mod{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        lines, size = [f"# file {n}\n"], 0
        while size < each:
            a, b = rng.sample(WORDS, 2)
            line = (
                f"{a}_{rng.randrange(10**4)} = {b}({rng.randrange(10**6)}, '{rng.choice(WORDS)}')\n"
            )
            lines.append(line)
            size += len(line)
        path = folder / f"file{n:05d}.py"
        path.write_text("".join(lines))
        made.append(path)
    return made


async def take_turns(root: Path, files: list[Path], args: argparse.Namespace) -> float:
    """The turns; the seconds they took."""
    turns = TurnWatch(ReviewQueue(DiskDocuments()))
    looks = CheckpointStore(root)
    rng = random.Random(7)
    per_session = max(1, args.turns // args.sessions)
    start = time.perf_counter()
    for n in range(args.turns):
        session = f"session-{n // per_session}"
        assert await turns.begin(session, [str(root)]) is not None, turns.disabled
        for path in rng.sample(files[: args.hot or len(files)], args.changed):
            with path.open("a") as out:
                out.write(f"x = {n}  # turn {n}\n")
            await looks.snapshot()
    return time.perf_counter() - start


def spread(root: Path, days: float) -> None:
    """Turn times spread evenly over the last ``days`` days, in the order they were taken (the
    refs are packed by then: their times are in the store's ``acp-times``)."""
    store = store_for(root)
    turns = sorted(plumbing.turn_refs(store), key=lambda t: (t.when, t.session, t.number))
    now = time.time()
    when = [now - days * DAY * (1 - (i + 1) / len(turns)) for i in range(len(turns))]
    plumbing.pack_refs(store, [replace(t, when=w) for t, w in zip(turns, when, strict=True)])


def age_objects(root: Path, days: float = 2) -> None:
    when = time.time() - days * DAY
    for folder, _dirs, names in os.walk(store_for(root) / "objects"):
        for name in names:
            os.utime(os.path.join(folder, name), (when, when))


def mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def timed_pass(root: Path, workspace: int, what: str) -> None:
    start = time.perf_counter()
    prune_all([root], force=True)
    took = time.perf_counter() - start
    kept = inventory.read(inventory.key_of(root))
    size = plumbing.disk_usage(kept.store)
    print(
        f"after a pass, {what}: {len(kept.turns)} turns kept, {mb(size)} "
        f"({size / workspace:.3f}x the workspace), the pass {took:.2f} s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--size-mb", type=float, default=20)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--changed", type=int, default=3, help="files changed a turn")
    parser.add_argument(
        "--hot",
        type=int,
        default=50,
        help="files the turns change are among the first HOT (0: all)",
    )
    parser.add_argument("--days", type=float, default=120)
    parser.add_argument("--no-repository", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="acp-retention-") as tmp:
        os.environ["ACP_EDITOR_STATE_DIR"] = str(Path(tmp) / "state")
        root = (Path(tmp) / "work").resolve()
        root.mkdir()
        files = make_workspace(root, args.files, int(args.size_mb * 2**20))
        if not args.no_repository:
            for step in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "0"]):
                git(root, *step)
        dot_git = plumbing.disk_usage(root / ".git")
        workspace = plumbing.disk_usage(root) - dot_git
        kind = f"a repository, .git {mb(dot_git)}" if dot_git else "not a repository"
        print(f"workspace: {args.files:,} files, {mb(workspace)} on disk ({kind})")
        took = await take_turns(root, files, args)
        store = plumbing.disk_usage(store_for(root))
        changed = f"{args.changed} files of {args.hot or args.files} changed a turn"
        print(
            f"store after {args.turns} turns ({args.sessions} session(s), {changed}, a look after "
            f"each; {took:.1f} s): {mb(store)} ({store / workspace:.3f}x the workspace)"
        )
        age_objects(root)
        timed_pass(root, workspace, "every turn recent")
        spread(root, args.days)
        age_objects(root)  # days later: the first pass's pack is old too
        timed_pass(root, workspace, f"turns spread over {args.days:g} days")


if __name__ == "__main__":
    asyncio.run(main())
