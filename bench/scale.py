"""What review costs a turn in a big workspace, next to ``git status`` and to the same turns with
review off, all in one run.

    python bench/scale.py [--files 100000] [--size-mb 170] [--turns 10] [--no-repository]

The workspace (FILES files, SIZE in all; a git repository with everything committed unless
``--no-repository``) gets the scripted agent on the ACP v2 draft, which writes the disk and runs
its commands itself, as claude-agent-acp does: each turn edits one file (a permission question,
answered "allow") and runs one command. The same turns run first with review off (no
checkpoints: the agent's own work and the sidecar's plumbing), then with review on (every turn
checkpointed, each tool call's changes looked for). Printed: the first turn with review, less a
turn without (what the first prompt waits for), the median later turn with review, less the
median without, and ``git status --porcelain`` (best of 3) in the same workspace. With many
turns (``--turns 300``) it also says whether they stay flat (the median of the last ten against
the first ten) and how much the process of the run with review grew meanwhile (the agent side
runs in it; the front end keeps nothing): from its first prompt to the end of its last turn, with
how much the session's own transcript then holds (what the user sees; its Python objects), and
what the run's start added before (the file watch's imports, once per process). Each run has a
process of its own (the memory the first one freed would hide the second one's growth), and the
file the agent edits is removed between them, so both run the same turns (it grows by a line a
turn, and the edit reports the whole file).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from checkpoints import git, make_workspace  # noqa: E402  (bench/checkpoints.py)

from acp_editor.agent.client import AcpClient, AgentConfig  # noqa: E402
from acp_editor.agent.frontend import Frontend  # noqa: E402
from acp_editor.protocol import acp  # noqa: E402

if TYPE_CHECKING:
    from acp_editor.review.queue.review_queue import Mode

AGENT = [sys.executable, str(BENCH.parent / "tests" / "agents" / "scripted.py"), "--fast"]
PROMPT = [{"type": "text", "text": "edit shell"}]


class Allows(Frontend):
    """Shows nothing, keeps nothing, allows every edit once."""

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        return acp.option_of_kind(options, ("allow_once",))


def rss_mb() -> float:
    """This process's resident memory now (not its peak)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def held_mb(value: Any) -> float:
    """What JSON data holds in Python objects (each object once), in MB."""
    seen: set[int] = set()
    stack, total = [value], 0
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
    return total / 2**20


BEGINS: list[float] = []
"""Seconds each turn's checkpoint took (the prompt goes to the agent after it), review on."""
MEMORY: dict[str, float] = {}
"""RSS (MB) when the run began, at its first prompt and after its last turn, and what the
session's transcript held then (MB of Python objects)."""


def run_apart(root: Path, count: int, review: Mode) -> tuple[list[float], list[float], Any]:
    """``turns`` in a new process (spawned: no heap of ours), with its ``BEGINS`` and ``MEMORY``.
    Run in this process after the other run, the run with review grew into the memory that run
    had freed (its transcript): +2.2 MB of RSS for a transcript of 3.5 MB."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as apart:
        return apart.submit(_turns_here, root, count, review).result()


def _turns_here(root: Path, count: int, review: Mode) -> tuple[list[float], list[float], Any]:
    return asyncio.run(turns(root, count, review)), BEGINS, MEMORY


async def turns(root: Path, count: int, review: Mode) -> list[float]:
    """Seconds each of ``count`` turns took, from sending the prompt to its end."""
    MEMORY["begun"] = rss_mb()
    config = AgentConfig(command=AGENT, protocol_version=2, review_mode=review)
    client = AcpClient(config, Allows())
    begin = client.turns.begin

    async def timed_begin(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await begin(*args, **kwargs)
        finally:
            BEGINS.append(time.perf_counter() - start)

    client.turns.begin = timed_begin  # type: ignore[method-assign]
    took = []
    try:
        await client.start(str(root))
        session = await client.new_session(str(root))
        MEMORY["first prompt"] = rss_mb()
        for _ in range(count):
            start = time.perf_counter()
            await client.prompt(session.id, PROMPT)
            took.append(time.perf_counter() - start)
        MEMORY["last turn"] = rss_mb()
        MEMORY["transcript"] = held_mb(session.state.snapshot())
    finally:
        await client.shutdown()
    return took


def run(files: int, size_mb: int, count: int, repository: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="acp-scale-") as tmp:
        os.environ["ACP_EDITOR_STATE_DIR"] = str(Path(tmp, "state"))  # the runs' too
        root = Path(tmp, "work").resolve()
        root.mkdir()
        make_workspace(root, files, size_mb * 1024 * 1024)
        if repository:
            git(root, "init", "-q")
            git(root, "add", "-A")
            # No automatic gc: it packs 100,000 loose objects in the background after the
            # commit, while the turns are timed, and into the clean-up at the end.
            git(root, "-c", "gc.auto=0", "commit", "-q", "-m", "bench")
        status = min(git(root, "status", "--porcelain") for _ in range(3)) if repository else 0
        off, _, _ = run_apart(root, count, "off")
        # The agent's edit appends a line to this file and reports the whole file: left as the
        # run without review made it, the run with review would edit (and its transcript hold)
        # a file 300 lines longer, not the same turns.
        (root / "hello.py").unlink(missing_ok=True)
        on, begins, memory = run_apart(root, count, "after-write")
        start_grew = memory["first prompt"] - memory["begun"]
        grew = memory["last turn"] - memory["first prompt"]
        plain = statistics.median(off)
        later = statistics.median(on[1:]) if count > 1 else on[0]
        kind = "a repository" if repository else "not a repository"
        print(f"workspace: {files} files, {size_mb} MB, {kind}; {count} turns each")
        if status:
            print(f"git status --porcelain (best of 3):      {status * 1000:7.0f} ms")
        print(f"a turn with review off (median):        {plain * 1000:7.0f} ms")
        print(f"first turn with review:                 {on[0] * 1000:7.0f} ms")
        print(f"  its checkpoint (the prompt waits):    {begins[0] * 1000:7.0f} ms")
        later_begin = statistics.median(begins[1:]) if len(begins) > 1 else begins[0]
        print(f"  a later turn's checkpoint (median):   {later_begin * 1000:7.0f} ms")
        print(f"  its extra:                            {(on[0] - plain) * 1000:+7.0f} ms")
        print(f"later turns with review (median):       {later * 1000:7.0f} ms")
        print(f"  their extra per turn:                 {(later - plain) * 1000:+7.0f} ms")
        if status:
            print(f"  extra / git status:                   {(later - plain) / status:7.1f}x")
        if count >= 20:
            first, last = statistics.median(on[1:11]), statistics.median(on[-10:])
            spans = f"{first * 1000:7.0f} / {last * 1000:.0f} ms"
            print(f"turns 2-11 / last 10 (median):          {spans}")
            print(f"  last / first:                         {last / first:7.2f}x")
        print(f"its process grew during the turns:      {grew:+7.1f} MB (RSS)")
        print(f"  the session's transcript then holds:  {memory['transcript']:7.1f} MB (objects)")
        print(f"before them, the run's start (once):    {start_grew:+7.1f} MB (RSS)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--size-mb", type=int, default=170)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--no-repository", action="store_true")
    args = parser.parse_args()
    run(args.files, args.size_mb, args.turns, not args.no_repository)
    return 0


if __name__ == "__main__":
    sys.exit(main())
