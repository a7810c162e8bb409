"""Turn checkpoints on a big workspace: the cost of a turn boundary when a few files changed.

Makes a workspace of FILES files (SIZE bytes in all, in nested folders), takes the first
checkpoint (once per workspace: every file is hashed), then for each of ROUNDS rounds changes,
adds and deletes a few files and measures one turn boundary: a checkpoint plus the list of what
changed since the previous one, plus reading the old text of each changed file. Prints the
median and worst of those, the first checkpoint's time, and memory: this process's peak RSS and
the largest git child's. A baseline measured in the same run puts the numbers in proportion:
``os.scandir`` + ``stat`` of every file, the least any "what changed?" walk must do.

Then the live watch a turn runs: the time to list the checkpoint's directories and put a watch
on each, and the time from writing a file to the change being found (the watcher's batch, then
one look), median over the rounds.

With ``--repository`` the workspace is a git repository with everything committed (set-up, not
timed): the first checkpoint then starts from the repository's own index, and is shown next to
one that hashes every file (the repository moved aside) and to ``git status`` in the same run.

    python bench/checkpoints.py                 # 10,000 files, 200 MB
    python bench/checkpoints.py --files 2000 --size-mb 20 --rounds 5
    python bench/checkpoints.py --files 100000 --size-mb 170 --repository
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from acp_editor.services.git.checkpoints import CheckpointStore
from acp_editor.services.watcher import QUIET_MS, DirectoryWatch


def make_workspace(root: Path, files: int, total: int) -> list[Path]:
    each = max(1, total // files)
    line = b"x = 'some reasonably long line of source code for the benchmark'  # 0123456789\n"
    body = (line * (each // len(line) + 1))[:each]
    made = []
    for n in range(files):
        folder = root / f"pkg{n % 50:02d}" / f"mod{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"file{n:05d}.py"
        path.write_bytes(b"# %d\n" % n + body)
        made.append(path)
    (root / ".gitignore").write_text("*.pyc\nbuild/\n")
    return made


def walk_all(root: Path) -> int:
    """The baseline: stat every file below ``root`` once."""
    count = 0
    stack = [str(root)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                else:
                    entry.stat(follow_symlinks=False)
                    count += 1
    return count


def files_of(store: Path) -> dict[str, tuple[int, int]]:
    """Each file of the store: its inode and size (git replaces a file it rewrites: a new inode;
    a file it only freshens keeps its inode)."""
    found = {}
    for folder, _dirs, names in os.walk(store):
        for name in names:
            info = os.stat(os.path.join(folder, name))
            found[os.path.join(folder, name)] = (info.st_ino, info.st_size)
    return found


def written(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> int:
    return sum(size for path, (ino, size) in after.items() if before.get(path, (0, 0))[0] != ino)


async def boundary(store: CheckpointStore, previous: str) -> tuple[str, int, float]:
    start = time.perf_counter()
    tree = await store.snapshot()
    changes = await store.changes(previous, tree)
    for change in changes:
        await store.read(previous, change.path)
    return tree, len(changes), time.perf_counter() - start


def git(root: Path, *args: str) -> float:
    """Run git in ``root`` (the user's git, as they would); the seconds it took."""
    start = time.perf_counter()
    user = ["-c", "user.email=bench@x", "-c", "user.name=bench"]
    subprocess.run(["git", *user, *args], cwd=root, check=True, capture_output=True)
    return time.perf_counter() - start


async def first_checkpoints(root: Path, tmp: str) -> tuple[float, float]:
    """A repository's first checkpoint hashing every file (the repository moved aside), and
    ``git status`` there: the anchors for the one started from its index."""
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "bench")
    status = min(git(root, "status", "--porcelain") for _ in range(3))
    (root / ".git").rename(root / ".git-aside")
    try:
        start = time.perf_counter()
        await CheckpointStore(root, Path(tmp, "store-hashing")).snapshot()
        hashing = time.perf_counter() - start
    finally:
        (root / ".git-aside").rename(root / ".git")
    return hashing, status


async def run(files: int, size_mb: int, rounds: int, repository: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="acp-bench-") as tmp:
        root = Path(tmp, "work").resolve()  # noqa: ASYNC240 - set-up, before any timing
        root.mkdir()
        made = make_workspace(root, files, size_mb * 1024 * 1024)
        anchors = await first_checkpoints(root, tmp) if repository else None
        store = CheckpointStore(root, Path(tmp, "store"))
        start = time.perf_counter()
        tree = await store.snapshot()
        first = time.perf_counter() - start
        times, walks, writes = [], [], []
        for n in range(rounds):
            made[n * 37 % files].write_text(f"changed in round {n}\n")
            made[(n * 53 + 11) % files].write_text(f"also changed {n}\n")
            (root / f"pkg00/new{n}.py").write_text("new\n")
            if n:
                (root / f"pkg00/new{n - 1}.py").unlink()
            kept = files_of(store.store)
            tree, changed, took = await boundary(store, tree)
            writes.append(written(kept, files_of(store.store)))
            assert changed >= 3, changed
            times.append(took)
            start = time.perf_counter()
            walk_all(root)
            walks.append(time.perf_counter() - start)
        setup, found = await live(store, tree, made, rounds)
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        median, walk = statistics.median(times), statistics.median(walks)
        print(f"workspace: {files} files, {size_mb} MB" + (", a repository" * repository))
        if anchors is None:
            print(
                f"first checkpoint (hashes every file, once per workspace): {first * 1000:.0f} ms"
            )
        else:
            hashing, status = anchors
            print(f"first checkpoint from the repository's index: {first * 1000:.0f} ms")
            print(f"first checkpoint hashing every file: {hashing * 1000:.0f} ms")
            print(f"git status --porcelain (best of 3): {status * 1000:.0f} ms")
            print(f"ratio first checkpoint / git status: {first / status:.1f}x")
        print(
            f"turn boundary, 3-4 files changed: median {median * 1000:.0f} ms, "
            f"worst {max(times) * 1000:.0f} ms over {rounds} rounds"
        )
        print(f"baseline, scandir + stat of every file: median {walk * 1000:.0f} ms")
        print(f"written to the store per turn boundary: median {statistics.median(writes):,.0f} B")
        print(f"ratio boundary / baseline: {median / walk:.1f}x")
        print(f"live watch: {setup * 1000:.0f} ms to list the directories and watch them")
        print(
            f"live: a write found {found * 1000:.0f} ms later (median; the watcher waits "
            f"{QUIET_MS} ms of quiet, then one look)"
        )
        print(f"peak RSS: this process {own:.0f} MB, largest git child {child:.0f} MB")


async def live(
    store: CheckpointStore, tree: str, made: list[Path], rounds: int
) -> tuple[float, float]:
    """Set-up of the live watch, and the median time from a write to its change found."""
    batches: asyncio.Queue[float] = asyncio.Queue()
    start = time.perf_counter()
    directories = await store.directories(tree)
    watch = DirectoryWatch(directories, lambda: batches.put_nowait(time.perf_counter()))
    watch.start()
    await batches.get()  # the catch-up call: every watch is in place
    setup = time.perf_counter() - start
    found = []
    for n in range(rounds):
        wrote = time.perf_counter()
        made[n * 41 % len(made)].write_text(f"live change {n}\n")
        await batches.get()
        after = await store.snapshot()
        assert await store.changes(tree, after), "the write was not found"
        tree = after
        found.append(time.perf_counter() - wrote)
    await watch.stop()
    return setup, statistics.median(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--size-mb", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repository", action="store_true", help="a committed git repository")
    args = parser.parse_args()
    asyncio.run(run(args.files, args.size_mb, args.rounds, args.repository))
    return 0


if __name__ == "__main__":
    sys.exit(main())
