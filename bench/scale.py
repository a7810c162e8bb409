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
median without, and ``git status --porcelain`` (best of 3) in the same workspace.
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
from typing import TYPE_CHECKING

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from checkpoints import git, make_workspace  # noqa: E402  (bench/checkpoints.py)

from acp_editor.agent.client import AcpClient, AgentConfig  # noqa: E402
from tests.support.recorder import Recorder  # noqa: E402

if TYPE_CHECKING:
    from acp_editor.review.queue import Mode

AGENT = [sys.executable, str(BENCH.parent / "tests" / "agents" / "scripted.py"), "--fast"]
PROMPT = [{"type": "text", "text": "edit shell"}]


async def turns(root: Path, count: int, review: Mode) -> list[float]:
    """Seconds each of ``count`` turns took, from sending the prompt to its end."""
    config = AgentConfig(command=AGENT, protocol_version=2, review_mode=review)
    client = AcpClient(config, Recorder())
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
            git(root, "commit", "-q", "-m", "bench")
        status = min(git(root, "status", "--porcelain") for _ in range(3))
        off = await turns(root, count, "off")
        on = await turns(root, count, "after-write")
        plain = statistics.median(off)
        later = statistics.median(on[1:]) if count > 1 else on[0]
        kind = "a repository" if repository else "not a repository"
        print(f"workspace: {files} files, {size_mb} MB, {kind}; {count} turns each")
        print(f"git status --porcelain (best of 3):      {status * 1000:7.0f} ms")
        print(f"a turn with review off (median):        {plain * 1000:7.0f} ms")
        print(f"first turn with review:                 {on[0] * 1000:7.0f} ms")
        print(f"  its extra (the first prompt waits):   {(on[0] - plain) * 1000:+7.0f} ms")
        print(f"later turns with review (median):       {later * 1000:7.0f} ms")
        print(f"  their extra per turn:                 {(later - plain) * 1000:+7.0f} ms")
        print(f"  extra / git status:                   {(later - plain) / status:7.1f}x")


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
