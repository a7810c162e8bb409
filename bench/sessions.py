"""What several live sessions cost in one sidecar (issue 28): its memory per extra session, and
how promptly the session in front is still followed while all of them stream.

    python bench/sessions.py [--sessions 10] [--rounds 2]

The sidecar (``python -m acp_editor --stdio``) runs the demo agent as shipped (``python -m
acp_editor.demo_agent``: it streams at its own pace, a chunk every 20 ms), driven by a synthetic
rich editor (``client_sidecar.LspClient``) declaring the ``stream`` and ``follow`` features. All
sessions are the one agent's (one agent process): what grows is the sidecar's session state.

1. Memory: one session runs a small turn (``read``: a tool call with a location, a file read
   through the sidecar, a few chunks of text); the sidecar's RSS (``VmRSS`` of its own process,
   not the agent's, nor git's) is the baseline, taken after that first session and turn, so
   imports and first-use set-up are in it. Then each further session is made and runs the same
   turn, and the RSS is read again; printed: the RSS at each count and MB per extra session
   (1 -> SESSIONS, and 2 -> SESSIONS without the second session's own first-use costs), next to
   the goal of 15 MB. The agent's RSS is shown for comparison, not counted.
2. Follow latency: the first session is put in front (``acp/selectSession``). Each round, that
   session alone runs the demo's ``walk`` (a read tool call moving down ``hello.py`` a line at a
   time, ~0.35 s apart, thoughts streaming between its locations), then all SESSIONS sessions
   run it at once. Each location carries the agent's ``time.monotonic_ns()`` as it sent it
   (``_meta``, ``acp-editor.demo/sentNs``; CLOCK_MONOTONIC is one clock for every process
   here); the editor matches each ``acp/follow`` (by tool call and line) to that stamp and takes
   its own clock when it has parsed the notification. Follow is rate-limited by design (at most
   one jump per 0.25 s, the latest wins): the walk's locations come a little slower than that,
   so nearly every one is sent at once; a jump held back for its slot would count its wait, and
   the table says how many locations were shown. Also printed: the same stamps' latency to the
   ``acp/sessionChanged`` carrying them (the 16 ms coalescing frame included: text streams
   around them), the sidecar's CPU and the updates it took in.

``ACP_BENCH_SIDECAR`` replaces ``python -m acp_editor`` (e.g. a wrapper under cProfile), as for
``bench/run.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from client_sidecar import SIDECAR_ENV, LspClient, stopped  # noqa: E402
from measure import percentile, proc_cpu_s, proc_rss_mb  # noqa: E402

from acp_editor.demo_agent.scenarios.words import SENT_NS, WALK_LINES  # noqa: E402

AGENT = [sys.executable, "-m", "acp_editor.demo_agent"]
TIMEOUT_S = 120.0
SETTLE_S = 0.5
"""Pause before each RSS reading: the turn's last notifications and freeing are done."""
GOAL_MB = 15.0
GOAL_MS = 5.0
HELLO_LINES = 200
"""``hello.py``'s lines: more than the walk goes through, so no location is clamped."""


class Editor(LspClient):
    """Keeps, per session, the send stamps its ``acp/sessionChanged`` carried and the
    ``acp/follow`` notifications it got, each with the time it was parsed."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        super().__init__(proc)
        self.on_notification = self._seen
        self.stamps: dict[tuple[str, int], tuple[int, int]] = {}
        """(tool call, ACP line) -> the agent's send time and its acp/sessionChanged's (ns)."""
        self.changed_ns: list[int] = []
        """Per stamped location of the session in front: send -> its acp/sessionChanged."""
        self.follows: list[tuple[str, str | None, int | None, int]] = []
        """(session, tool call, 0-based line, received ns) of each acp/follow."""
        self.front = ""
        self.updates = 0
        """Changes received (any session): the stream's size."""

    def _seen(self, method: str, params: Any, now: int) -> None:
        if method == "acp/follow":
            start = (params.get("range") or {}).get("start") or {}
            self.follows.append(
                (params["sessionId"], params.get("toolCallId"), start.get("line"), now)
            )
        elif method == "acp/sessionChanged":
            self.updates += len(params["changes"])
            if params["sessionId"] == self.front:
                for change in params["changes"]:
                    self._stamp(change, now)

    def _stamp(self, change: dict[str, Any], now: int) -> None:
        fields = change.get("set") if change.get("type") == "tool_call" else None
        sent = ((fields or {}).get("_meta") or {}).get(SENT_NS)
        if sent is None:
            return
        line = fields["locations"][0]["line"]
        self.stamps[(change["toolCallId"], line)] = (sent, now)
        self.changed_ns.append(now - sent)

    def reset(self) -> None:
        self.stamps.clear()
        self.changed_ns.clear()
        self.follows.clear()
        self.updates = 0


def follow_latencies(editor: Editor) -> tuple[list[int], list[int], int, int]:
    """Send -> acp/follow (ns) of the front session's jumps, sorted; the same update's
    acp/sessionChanged -> its acp/follow, sorted; jumps with no stamp (not a walk location);
    jumps for other sessions (there should be none)."""
    latencies, after, unmatched, others = [], [], 0, 0
    for session, tool_call, line, received in editor.follows:
        if session != editor.front:
            others += 1
            continue
        stamp = editor.stamps.get((tool_call or "", (line or 0) + 1))
        if stamp is None:
            unmatched += 1
        else:
            latencies.append(received - stamp[0])
            after.append(received - stamp[1])
    return sorted(latencies), sorted(after), unmatched, others


async def start(
    root: Path, state: Path, stderr: Any
) -> tuple[asyncio.subprocess.Process, Editor, asyncio.Future[None]]:
    sidecar = shlex.split(os.environ.get(SIDECAR_ENV, "")) or [sys.executable, "-m", "acp_editor"]
    proc = await asyncio.create_subprocess_exec(
        *sidecar,
        "--stdio",
        "--",
        *AGENT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
        cwd=root,
        env={**os.environ, "ACP_EDITOR_STATE_DIR": str(state)},
        limit=1 << 24,
    )
    editor = Editor(proc)
    reader = asyncio.ensure_future(editor.read_loop())
    await editor.initialize(root, TIMEOUT_S)
    return proc, editor, reader


def agent_pid(pid: int) -> int | None:
    """The sidecar's child running the agent (its only long-lived child)."""
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for child in children:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"acp_editor.demo_agent" in cmdline:
                return int(child)
    return None


async def new_session_with_a_turn(editor: Editor) -> str:
    session = (await editor.request("acp/newSession", {}, TIMEOUT_S))["sessionId"]
    await editor.request("acp/prompt", {"sessionId": session, "prompt": "read"}, TIMEOUT_S)
    return str(session)


async def rss_after_settling(pid: int) -> float:
    await asyncio.sleep(SETTLE_S)
    return proc_rss_mb(pid)


async def memory(proc: asyncio.subprocess.Process, editor: Editor, count: int) -> list[str]:
    """Sessions made one by one, each after a small turn; the RSS at each count."""
    agent = agent_pid(proc.pid)
    sessions, rss, agent_rss = [], [], []
    for _ in range(count):
        sessions.append(await new_session_with_a_turn(editor))
        rss.append(await rss_after_settling(proc.pid))
        agent = agent or agent_pid(proc.pid)
        agent_rss.append(proc_rss_mb(agent) if agent else math.nan)
    print(f"memory: {count} live sessions of one agent, each after one small turn ('read')")
    print(f"{'live sessions':>14}  {'sidecar RSS MB':>14}  {'agent RSS MB (not counted)':>26}")
    for n in sorted({1, 2, min(5, count), count}):
        print(f"{n:>14}  {rss[n - 1]:>14.1f}  {agent_rss[n - 1]:>26.1f}")
    if count >= 2:
        per = (rss[-1] - rss[0]) / (count - 1)
        line = f"per extra session (1 -> {count}): {per:6.2f} MB   {per / GOAL_MB:.2f}x the goal"
        print(f"{line} of {GOAL_MB:g} MB")
    if count >= 3:
        later = (rss[-1] - rss[1]) / (count - 2)
        print(f"per extra session (2 -> {count}): {later:6.2f} MB   {later / GOAL_MB:.2f}x")
    return sessions


async def walk_round(
    proc: asyncio.subprocess.Process, editor: Editor, sessions: list[str]
) -> dict[str, Any]:
    """``walk`` in each of ``sessions`` at once; what the editor saw of the front one."""
    editor.reset()
    cpu, began = proc_cpu_s(proc.pid), time.perf_counter()
    rss = [proc_rss_mb(proc.pid)]
    sampler = asyncio.ensure_future(sample_rss(proc.pid, rss))
    await asyncio.gather(
        *(
            editor.request("acp/prompt", {"sessionId": s, "prompt": "walk"}, TIMEOUT_S)
            for s in sessions
        )
    )
    await asyncio.sleep(0.3)  # the last jump may still be on its way
    took = time.perf_counter() - began
    sampler.cancel()
    latencies, after, unmatched, others = follow_latencies(editor)
    return {
        "latencies": latencies,
        "after": after,
        "changed": sorted(editor.changed_ns),
        "unmatched": unmatched,
        "others": others,
        "cpu": (proc_cpu_s(proc.pid) - cpu) / took,
        "updates": editor.updates / took,
        "rss": max(rss),
    }


async def sample_rss(pid: int, into: list[float]) -> None:
    while True:
        await asyncio.sleep(0.1)
        into.append(proc_rss_mb(pid))


def merged(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "latencies": sorted(x for r in rounds for x in r["latencies"]),
        "after": sorted(x for r in rounds for x in r["after"]),
        "changed": sorted(x for r in rounds for x in r["changed"]),
        "unmatched": sum(r["unmatched"] for r in rounds),
        "others": sum(r["others"] for r in rounds),
        "cpu": sum(r["cpu"] for r in rounds) / len(rounds),
        "updates": sum(r["updates"] for r in rounds) / len(rounds),
        "rss": max(r["rss"] for r in rounds),
        "sent": WALK_LINES * len(rounds),
    }


async def latency(
    proc: asyncio.subprocess.Process, editor: Editor, sessions: list[str], rounds: int
) -> None:
    editor.front = sessions[0]
    await editor.request("acp/selectSession", {"sessionId": editor.front}, TIMEOUT_S)
    alone, together = [], []
    for _ in range(rounds):  # alternating, so both see the same machine
        alone.append(await walk_round(proc, editor, sessions[:1]))
        together.append(await walk_round(proc, editor, sessions))
    rows = [(f"1 of {len(sessions)}", merged(alone)), (f"all {len(sessions)}", merged(together))]
    base = percentile(rows[0][1]["latencies"], 99)
    print()
    print(f"follow: the session in front walks {WALK_LINES} lines a round, {rounds} rounds;")
    print("agent send -> editor has parsed acp/follow (only the jumps sent: rate-limited)")
    head = (
        f"{'streaming':<10} {'shown':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
        f" {'p99 vs 1':>8}  {'changed p50/p99 ms':>18} {'then p99':>8}"
        f" {'CPU':>5} {'changes/s':>9} {'RSS MB':>6}"
    )
    print(head)
    for label, row in rows:
        lat, changed = row["latencies"], row["changed"]
        p99 = percentile(lat, 99)
        cells = (
            f"{label:<10} {len(lat):>3}/{row['sent']:<3} {percentile(lat, 50):>7.2f} {p99:>7.2f}"
            f" {lat[-1] / 1e6 if lat else math.nan:>7.2f} {p99 / base:>7.2f}x"
            f"  {percentile(changed, 50):>8.2f} / {percentile(changed, 99):>7.2f}"
            f" {percentile(row['after'], 99):>8.2f}"
            f" {row['cpu']:>5.0%} {row['updates']:>9,.0f} {row['rss']:>6.1f}"
        )
        print(cells)
        if row["unmatched"] or row["others"]:
            print(f"  ({row['unmatched']} jumps matched no location, {row['others']} for others)")
    worst = percentile(rows[1][1]["latencies"], 99)
    verdict = "met" if worst <= GOAL_MS else "missed"
    print(f"goal: p99 <= {GOAL_MS:g} ms with {len(sessions)} streaming: {worst:.2f} ms, {verdict}")
    print("(changed: the same locations' acp/sessionChanged; then: from it to the acp/follow;")
    print(" CPU: the sidecar's share of one core during the round; changes/s: acp/sessionChanged")
    print(" changes the editor got, every session; RSS: the sidecar's peak during the rounds,")
    print(" every 0.1 s; p99 of under 100 jumps is about their max)")


async def run(root: Path, state: Path, stderr: IO[bytes], count: int, rounds: int) -> None:
    proc, editor, reader = await start(root, state, stderr)
    try:
        sessions = await memory(proc, editor, count)
        await latency(proc, editor, sessions, rounds)
        await editor.shutdown(proc, TIMEOUT_S)
    finally:
        await stopped(proc, reader)


def in_a_workspace(count: int, rounds: int) -> None:
    """``run`` in a throw-away workspace and state directory; the sidecar's stderr shown when
    the run fails."""
    with tempfile.TemporaryDirectory(prefix="acp-sessions-") as tmp:
        root = Path(tmp, "work")
        root.mkdir()
        (root / "hello.py").write_text("".join(f"print({i})\n" for i in range(HELLO_LINES)))
        log = Path(tmp, "sidecar-stderr.log")
        with open(log, "wb") as stderr:
            try:
                asyncio.run(run(root, Path(tmp, "state"), stderr, count, rounds))
            except Exception:
                print(f"the sidecar's stderr ends:\n{log.read_text(errors='replace')[-2000:]}")
                raise


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10, help="live sessions (default 10)")
    parser.add_argument("--rounds", type=int, default=2, help="walks of each kind (default 2)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    began = time.perf_counter()
    in_a_workspace(max(1, args.sessions), max(1, args.rounds))
    load = os.getloadavg()[0]
    print(f"load average after: {load:.2f}; total {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
