"""Issue 36's big-repository rows measured from outside: a plain LSP editor, the real sidecar
over stdio, and the scripted agent on the ACP v2 draft doing its own disk I/O (as
claude-agent-acp does), in a repository of FILES files.

    python bench/scale_lsp.py [--workspace DIR] [--files 100000] [--size-mb 170] [--turns 8]
                              [--settle 3]

Each run starts a sidecar of its own with a fresh state directory, says ``initialize`` and
``initialized`` as an editor with no plugin does, and sends ``acp.prompt`` ("edit shell": one
edit, allowed through ``window/showMessageRequest``, and one command) at once, then TURNS-1 more.
Three runs: review off (the anchor: the agent's start, its own work, the plumbing), review on,
and review on with the first prompt sent SETTLE seconds after ``initialized`` (what
bench/scale.py measures: its agent side was built and its session open before the prompt).

Printed per run, beside the anchors of the same run:

* the first prompt's way to the agent: from the editor sending it to the agent reading
  ``initialize``, ``session/new`` and ``session/prompt`` (the agent's ``--record`` goes to a
  FIFO this process reads, stamping each line as it comes: one clock for both processes);
* the first turn (prompt sent → ``acp.prompt`` answered), and what it wrote under the state
  directory (files made or rewritten meanwhile, at their size);
* later turns (median), their extra over review off, and that extra against ``git status
  --porcelain`` (best of 3, same workspace, same run).

``--workspace DIR`` keeps the repository there and reuses it next time (making 100,000 files
and committing them takes a while); without it, a temporary one is made and removed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from checkpoints import git, make_workspace  # noqa: E402
from client_sidecar import LspClient, stopped  # noqa: E402

AGENT = [sys.executable, str(BENCH.parent / "tests" / "agents" / "scripted.py"), "--fast"]
PROMPT = "edit shell"
EDITED = "hello.py"
"""The file the agent's edit makes, then grows by a line a turn: removed before each run."""
TIMEOUT_S = 600.0


class Receipts:
    """When the agent read each request: its ``--record`` lines from a FIFO, stamped here."""

    def __init__(self, fifo: Path) -> None:
        os.mkfifo(fifo)
        self._read = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self._hold = os.open(fifo, os.O_WRONLY)  # no EOF before the agent opens it
        os.set_blocking(self._read, True)
        self.got: list[tuple[str, int]] = []
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        with os.fdopen(self._read, "rb") as lines:
            for line in lines:
                now = time.monotonic_ns()
                method = json.loads(line).get("method")
                if method:
                    self.got.append((method, now))

    def first(self, method: str, since_ns: int) -> float:
        """Milliseconds from ``since_ns`` to the agent reading ``method`` the first time after."""
        found = [at for name, at in list(self.got) if name == method and at >= since_ns]
        return (found[0] - since_ns) / 1e6 if found else float("nan")

    def close(self) -> None:
        os.close(self._hold)
        self._thread.join(10)


def files_of(state: Path) -> dict[str, tuple[int, ...]]:
    """Each file under ``state``: inode, size and modification time (a file git rewrites is a
    new file renamed over the old one, whose inode may be used again at once); of a shared
    index git only touches the time when it reads it: that is no write."""
    found = {}
    for folder, _dirs, names in os.walk(state):
        for name in names:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            touched = () if name.startswith("sharedindex.") else (info.st_mtime_ns,)
            found[path] = (info.st_ino, info.st_size, *touched)
    return found


def written(before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]) -> int:
    """Bytes of the files made or rewritten between two looks (at their size now)."""
    return sum(info[1] for path, info in after.items() if before.get(path) != info)


@dataclass
class Run:
    label: str
    reach: dict[str, float] = field(default_factory=dict)
    """Milliseconds from the first prompt sent to the agent reading each method."""
    turns: list[float] = field(default_factory=list)
    """Seconds from each prompt sent to its answer."""
    start_written: int = 0
    """Bytes written under the state directory from ``initialize`` to the first prompt."""
    first_written: int = 0
    later_written: list[int] = field(default_factory=list)


async def start(root: Path, state: Path, review: str, fifo: Path) -> Any:
    env = {**os.environ, "ACP_EDITOR_STATE_DIR": str(state)}
    agent = [*AGENT, "--record", str(fifo)]
    argv = [sys.executable, "-m", "acp_editor", "--stdio", "--protocol-version=2"]
    return await asyncio.create_subprocess_exec(
        *argv,
        f"--review={review}",
        "--",
        *agent,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=root,
        env=env,
        limit=1 << 24,
    )


def allow(method: str, params: Any) -> Any:
    """A plain editor's user picking "Allow" in every permission question."""
    if method == "window/showMessageRequest":
        titles = [a["title"] for a in params.get("actions") or []]
        return {"title": "Allow"} if "Allow" in titles else None
    return None


async def one_run(root: Path, tmp: Path, label: str, review: str, settle: float, count: int) -> Run:
    (root / EDITED).unlink(missing_ok=True)
    name = label.replace(" ", "-").replace(",", "")
    state, fifo = tmp / f"state-{name}", tmp / f"agent-{name}.fifo"
    state.mkdir()
    receipts = Receipts(fifo)
    proc = await start(root, state, review, fifo)
    client = LspClient(proc)
    client.answer = allow
    reader = asyncio.ensure_future(client.read_loop())
    run = Run(label)
    try:
        await initialize(client, root)
        await asyncio.sleep(settle)
        run.start_written = written({}, await asyncio.to_thread(files_of, state))
        for number in range(count):
            before = await asyncio.to_thread(files_of, state)
            sent = time.monotonic_ns()
            args = {"command": "acp.prompt", "arguments": [PROMPT]}
            await client.request("workspace/executeCommand", args, TIMEOUT_S)
            run.turns.append((time.monotonic_ns() - sent) / 1e9)
            wrote = written(before, await asyncio.to_thread(files_of, state))
            if number == 0:
                run.first_written = wrote
                for method in ("initialize", "session/new", "session/prompt"):
                    run.reach[method] = receipts.first(method, sent)
            else:
                run.later_written.append(wrote)
        await client.shutdown(proc, 60)
    finally:
        await stopped(proc, reader)
        receipts.close()
    return run


async def initialize(client: LspClient, root: Path) -> None:
    """As an editor with no plugin: no ``acp`` features, one folder."""
    uri = root.as_uri()
    params = {
        "processId": os.getpid(),
        "rootUri": uri,
        "workspaceFolders": [{"uri": uri, "name": "bench"}],
        "capabilities": {"window": {"showDocument": {"support": True}}},
    }
    await client.request("initialize", params, 60)
    await client.notify("initialized", {})


def report(off: Run, on: Run, status: float) -> None:
    """``on`` beside ``off``, the run with review off whose first prompt went as soon."""
    print(f"{on.label} (beside {off.label}):")
    reach = "".join(
        f"{method} {on.reach[method]:5.0f} ms ({on.reach[method] - off.reach[method]:+.0f}); "
        for method in ("initialize", "session/new", "session/prompt")
    )
    print(f"  first prompt → the agent reads {reach.rstrip('; ')}")
    print(f"  written before the first prompt: {on.start_written / 2**20:.1f} MB")
    first = on.turns[0]
    print(
        f"  first turn {first * 1000:6.0f} ms ({(first - off.turns[0]) * 1000:+.0f} ms), "
        f"wrote {on.first_written / 2**20:.1f} MB under the state dir"
    )
    later, extra = statistics.median(on.turns[1:]), extra_per_turn(off, on)
    print(
        f"  later turns (median) {later * 1000:6.0f} ms ({extra * 1000:+.0f} ms, "
        f"{extra / status:.2f}x git status), wrote "
        f"{statistics.median(on.later_written) / 1024:.0f} KB each (median)"
    )


def extra_per_turn(off: Run, on: Run) -> float:
    """Seconds a later turn with review takes beyond one without (medians)."""
    return statistics.median(on.turns[1:]) - statistics.median(off.turns[1:])


async def run_all(root: Path, count: int, settle: float, files: int) -> None:
    status = min(git(root, "status", "--porcelain") for _ in range(3))
    print(
        f"a repository of {files} files; git status --porcelain (best of 3) {status * 1000:.0f} ms"
    )
    with tempfile.TemporaryDirectory(prefix="acp-scale-lsp-") as tmp:
        for when in (0, settle):
            later = f", the first prompt {when:g} s after initialized" if when else ""
            off = await one_run(root, Path(tmp), f"review off{later}", "off", when, count)
            on = await one_run(root, Path(tmp), f"review on{later}", "after-write", when, count)
            report(off, on, status)
    (root / EDITED).unlink(missing_ok=True)


def workspace(where: Path, files: int, size_mb: int) -> None:
    """A repository of ``files`` files at ``where``, everything committed (reused if there)."""
    if (where / ".git").is_dir():
        return
    where.mkdir(parents=True, exist_ok=True)
    make_workspace(where, files, size_mb * 2**20)
    git(where, "init", "-q")
    git(where, "add", "-A")
    git(where, "-c", "gc.auto=0", "commit", "-q", "-m", "bench")  # no gc while timed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--size-mb", type=int, default=170)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--settle", type=float, default=3.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="acp-scale-lsp-work-") as scratch:
        root = (args.workspace or Path(scratch, "work")).resolve()
        workspace(root, args.files, args.size_mb)
        asyncio.run(run_all(root, args.turns, args.settle, args.files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
