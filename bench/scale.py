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
the first ten) and how much this process grew meanwhile (the agent side runs in it; the front end
keeps nothing).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
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
    from acp_editor.review.queue import Mode

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


BEGINS: list[float] = []
"""Seconds each turn's checkpoint took (the prompt goes to the agent after it), review on."""


async def turns(root: Path, count: int, review: Mode) -> list[float]:
    """Seconds each of ``count`` turns took, from sending the prompt to its end."""
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
        for _ in range(count):
            start = time.perf_counter()
            await client.prompt(session.id, PROMPT)
            took.append(time.perf_counter() - start)
    finally:
        await client.shutdown()
    return took


async def run(files: int, size_mb: int, count: int, repository: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="acp-scale-") as tmp:
        os.environ["ACP_EDITOR_STATE_DIR"] = str(Path(tmp, "state"))
        root = Path(tmp, "work").resolve()  # noqa: ASYNC240 - set-up, before any timing
        root.mkdir()
        make_workspace(root, files, size_mb * 1024 * 1024)
        if repository:
            git(root, "init", "-q")
            git(root, "add", "-A")
            # No automatic gc: it packs 100,000 loose objects in the background after the
            # commit, while the turns are timed, and into the clean-up at the end.
            git(root, "-c", "gc.auto=0", "commit", "-q", "-m", "bench")
        status = min(git(root, "status", "--porcelain") for _ in range(3)) if repository else 0
        off = await turns(root, count, "off")
        BEGINS.clear()
        before = rss_mb()
        on = await turns(root, count, "after-write")
        grew = rss_mb() - before
        plain = statistics.median(off)
        later = statistics.median(on[1:]) if count > 1 else on[0]
        kind = "a repository" if repository else "not a repository"
        print(f"workspace: {files} files, {size_mb} MB, {kind}; {count} turns each")
        if status:
            print(f"git status --porcelain (best of 3):      {status * 1000:7.0f} ms")
        print(f"a turn with review off (median):        {plain * 1000:7.0f} ms")
        print(f"first turn with review:                 {on[0] * 1000:7.0f} ms")
        print(f"  its checkpoint (the prompt waits):    {BEGINS[0] * 1000:7.0f} ms")
        later_begin = statistics.median(BEGINS[1:]) if len(BEGINS) > 1 else BEGINS[0]
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
        print(f"this process grew during the turns:     {grew:+7.1f} MB (RSS)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--size-mb", type=int, default=170)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--no-repository", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.files, args.size_mb, args.turns, not args.no_repository))
    return 0


if __name__ == "__main__":
    sys.exit(main())
