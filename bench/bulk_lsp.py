"""A command's burst of files through the whole product: the sidecar between an LSP editor and
the scripted agent (ACP v2, running its commands itself, as claude-agent-acp does), review on.

    python bench/bulk_lsp.py [--files 20000] [--editor plain|rich] [--repeat 1]

Three turns: the agent's command creates FILES files in ``generated/`` (``generate``), then
changes every one of them (``generate`` again), then deletes them (``remove-generated``).
The same three turns run twice a round in fresh workspaces, review off (``review: "off"``: the
agent's own work, passed through the sidecar) then review on; ``--repeat`` rounds.
Printed per turn: the turn's time (``acp/prompt`` sent to answered) with review off and on, and
the overhead review adds beyond the agent's own work (on - off, same round); how long after the
command's last file was on disk (the bench polls the disk for it: the agent's last update comes
a moment later) the turn's end reached the editor; how many messages the editor got during the
turn (notifications and requests, by method), and how many review items (groups, hunks) it was
left with; at the end the sidecar's peak RSS. Anchors in the same run: ``git add -A`` and
``git status --porcelain`` of a scratch repository holding the same files.
``ACP_BENCH_SIDECAR`` overrides how the sidecar is started (e.g. under a profiler).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from client_sidecar import SIDECAR_ENV, LspClient  # noqa: E402
from measure import proc_peak_rss_mb  # noqa: E402

AGENT = [sys.executable, str(BENCH.parent / "tests" / "agents" / "scripted.py"), "--fast"]
RICH = ["stream", "follow", "permissions", "diffs", "terminals", "review"]
TURNS = ("create", "change", "delete")


class Counting(LspClient):
    """Counts every message the server sends (requests are answered with null)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        super().__init__(proc)
        self.counts: dict[str, int] = {}
        self.on_notification = self._count

    def _count(self, method: str, params: Any, now: int) -> None:
        self.counts[method] = self.counts.get(method, 0) + 1

    def total(self) -> int:
        return sum(self.counts.values()) + sum(self.server_requests.values())

    def reset(self) -> None:
        self.counts.clear()
        self.server_requests.clear()


@dataclass
class Turn:
    took: float
    """``acp/prompt`` sent to answered (s)."""
    tail: float
    """The command's last file on disk to the answer (s)."""
    messages: int
    by_method: dict[str, int]
    review: str
    """What review the editor was left with."""


async def watch_disk(done: Callable[[], bool], stop: asyncio.Event) -> float:
    """When ``done()`` first held (polled every 5 ms; once more when told to stop)."""
    while True:
        stopping = stop.is_set()
        if await asyncio.to_thread(done):
            return time.perf_counter()
        if stopping:
            return float("nan")
        await asyncio.sleep(0.005)


async def turn(client: Counting, prompt: str, done: Callable[[], bool]) -> Turn:
    client.reset()
    stop = asyncio.Event()
    disk = asyncio.ensure_future(watch_disk(done, stop))
    sent = time.perf_counter()
    await client.request("acp/prompt", {"prompt": prompt}, 900)
    answered = time.perf_counter()
    stop.set()
    last_file = await disk
    by_method = dict(client.counts) | {
        f"{k} (request)": v for k, v in client.server_requests.items()
    }
    snapshot = await client.request("acp/snapshot", {}, 60)
    pending = [g for g in snapshot["reviewGroups"] if g["state"] == "pending"]
    hunks = [h for h in snapshot["review"] if h["state"] == "pending"]
    for group in pending:  # decided, so the next turn starts from a clean review
        decide = {"decision": "accept", "groupIds": [group["groupId"]]}
        await client.request("acp/reviewDecide", decide, 600)
    titles = "; ".join(g["title"] for g in pending)
    review = f"{len(pending)} group(s) [{titles}], {len(hunks)} hunk(s)"
    return Turn(answered - sent, answered - last_file, client.total(), by_method, review)


def anchors(scratch: Path, env: dict[str, str]) -> tuple[float, float]:
    """``git add -A`` and ``git status`` of a scratch repository holding the same files."""
    scratch.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=scratch, check=True)
    from acp_editor.demo_agent.scenarios.command_scenarios import GENERATE_COMMAND

    command = ["sh", "-c", GENERATE_COMMAND]
    subprocess.run(command, cwd=scratch, env=env, check=True, capture_output=True)
    return timed_git(scratch, "add", "-A"), timed_git(scratch, "status", "--porcelain")


def timed_git(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return time.perf_counter() - start


async def start(root: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    sidecar = shlex.split(os.environ.get(SIDECAR_ENV, "")) or [sys.executable, "-m", "acp_editor"]
    return await asyncio.create_subprocess_exec(
        *sidecar,
        "--stdio",
        "--protocol-version=2",
        "--",
        *AGENT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=root,
        env=env,
        limit=1 << 24,
    )


async def session(tmp: str, files: int, editor: str, review: str) -> tuple[list[Turn], float]:
    """The three turns in a fresh workspace and sidecar; the sidecar's peak RSS (MB)."""
    root = Path(tmp, f"work-{review}").resolve()  # noqa: ASYNC240 - set-up, before any timing
    root.mkdir()
    (root / "hello.py").write_text("print('hello')\n")
    env = {**os.environ, "ACP_DEMO_FILES": str(files), "ACP_EDITOR_STATE_DIR": f"{tmp}/state"}
    proc = await start(root, env)
    client = Counting(proc)
    reader = asyncio.ensure_future(client.read_loop())
    uri = root.as_uri()
    features = RICH if editor == "rich" else []
    await client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": uri,
            "workspaceFolders": [{"uri": uri, "name": "bench"}],
            "capabilities": {"window": {"showDocument": {"support": True}}},
            "initializationOptions": {"acp": {"features": features, "review": review}},
        },
        60,
    )
    await client.notify("initialized", {})
    await client.request("acp/newSession", {}, 60)
    last = root / "generated" / f"file{files}.js"
    first_text: list[str] = []

    def created() -> bool:
        return last.exists()

    def changed() -> bool:
        return last.exists() and last.read_text() != first_text[0]

    def deleted() -> bool:
        return not (root / "generated").exists()

    turns = [await turn(client, "generate", created)]
    first_text.append(last.read_text())  # what the next turn changes
    turns.append(await turn(client, "generate", changed))
    turns.append(await turn(client, "remove-generated", deleted))
    rss = proc_peak_rss_mb(proc.pid)
    await client.request("shutdown", None, 60)
    await client.notify("exit", None)
    await asyncio.wait_for(proc.wait(), 60)
    reader.cancel()
    return turns, rss


def report(rounds: list[tuple[list[Turn], list[Turn]]]) -> None:
    """Each turn's times in every round, and the median overhead."""
    for i, name in enumerate(TURNS):
        over = [on[i].took - off[i].took for off, on in rounds]
        cells = ", ".join(
            f"{off[i].took * 1000:,.0f} -> {on[i].took * 1000:,.0f}" for off, on in rounds
        )
        tails = ", ".join(f"{on[i].tail * 1000:,.0f}" for _, on in rounds)
        base = ", ".join(f"{off[i].tail * 1000:,.0f}" for off, _ in rounds)
        print(f"  {name}: turn review off -> on {cells} ms")
        median = _ms([statistics.median(over)])
        print(f"    overhead beyond the agent's own work {_ms(over)} (median {median})")
        print(f"    turn end after the last file {tails} ms (review off {base} ms)")
        on = rounds[-1][1][i]
        top = ", ".join(f"{m} {n}" for m, n in sorted(on.by_method.items(), key=lambda x: -x[1]))
        print(f"    {on.messages} messages ({top})")
        print(f"    review: {on.review}")


def _ms(values: list[float]) -> str:
    return ", ".join(f"{v * 1000:+,.0f} ms" for v in values)


async def run(files: int, editor: str, repeat: int) -> None:
    features = RICH if editor == "rich" else []
    print(f"{files} files, a {editor} editor (features: {', '.join(features) or 'none'})")
    rounds: list[tuple[list[Turn], list[Turn]]] = []
    rss: list[float] = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="acp-bulk-lsp-") as tmp:
            off, _off_rss = await session(tmp, files, editor, "off")
            on, on_rss = await session(tmp, files, editor, "after-write")
            rounds.append((off, on))
            rss.append(on_rss)
    report(rounds)
    with tempfile.TemporaryDirectory(prefix="acp-bulk-lsp-") as tmp:
        env = {**os.environ, "ACP_DEMO_FILES": str(files)}
        add, status = anchors(Path(tmp, "scratch"), env)
    print(f"  sidecar peak RSS (review on) {', '.join(f'{r:.0f}' for r in rss)} MB")
    print(f"  anchors: git add -A {add * 1000:.0f} ms, git status {status * 1000:.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--editor", choices=("plain", "rich"), default="plain")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of review off, then on")
    args = parser.parse_args()
    asyncio.run(run(args.files, args.editor, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
