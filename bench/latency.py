"""A far agent: what a turn costs when the pipe to the agent is slow (issue 38).

    python bench/latency.py [--delay-ms 50] [--turns 8]

The real sidecar over LSP stdio, a rich editor (``stream``, ``follow``; it allows every
permission), the scripted agent behind ``bench/delay_proxy.py``, which passes every line
``--delay-ms`` later both ways (a round trip: twice that). Each turn is the prompt "read edit":
a read tool call with a location, a permission question, ``fs/read_text_file`` and
``fs/write_text_file``. Run with no delay, then with it, each in a fresh workspace and sidecar;
printed: the turn's time (prompt sent -> its answer, median), the agent's requests to us in a
turn (each one a round trip it cannot avoid), what the delay added beyond the prompt's own
round trip and those requests (the goal: at most 2 round trips), and follow jumps per location
the agent sent (the goal: one each).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from client_sidecar import LspClient

ROOT = Path(__file__).resolve().parents[1]
AGENT = [sys.executable, str(ROOT / "tests" / "agents" / "scripted.py"), "--fast"]
PROXY = [sys.executable, str(ROOT / "bench" / "delay_proxy.py")]
PROMPT = "read edit"
HELLO = 'def greet(name):\n    return f"Hello, {name}!"\n'


def allow(method: str, params: Any) -> Any:
    if method == "acp/requestPermission":
        option = next(o for o in params["options"] if o["kind"] == "allow_once")
        return {"optionId": option["optionId"]}
    return None


async def run(delay_ms: float, turns: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "work")
        root.mkdir()  # noqa: ASYNC240 - set-up, before any timing
        asked = Path(tmp, "requests")
        agent = [*PROXY, "--delay-ms", str(delay_ms), "--requests", str(asked), "--", *AGENT]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "acp_editor", "--stdio", "--", *agent,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=root, limit=1 << 24,
            env={"ACP_EDITOR_STATE_DIR": f"{tmp}/state", "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
        client = LspClient(proc)
        client.answer = allow
        follows: list[str] = []
        locations: list[str] = []

        def told(method: str, params: Any, _now: int) -> None:
            if method == "acp/follow":
                follows.append(params["uri"])
            if method == "acp/sessionChanged":
                for change in params.get("changes", []):
                    for place in change.get("set", {}).get("locations", []) or []:
                        locations.append(str(place.get("path")))

        client.on_notification = told
        reader = asyncio.ensure_future(client.read_loop())
        await client.initialize(root, 60)
        times = []
        for _ in range(turns + 1):  # the first starts the agent: not counted
            (root / "hello.py").write_text(HELLO)
            before = _lines(asked)
            start = time.perf_counter()
            await client.request("acp/prompt", {"prompt": PROMPT}, 120)
            times.append(time.perf_counter() - start)
            requests = _lines(asked)[len(before) :]
        await client.shutdown(proc, 30)
        reader.cancel()
    return {"times": times[1:], "requests": requests, "follows": follows, "locations": locations}


def _lines(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--turns", type=int, default=8)
    args = parser.parse_args()
    near = await run(0, args.turns)
    far = await run(args.delay_ms, args.turns)
    rtt = 2 * args.delay_ms / 1000
    t0, t1 = statistics.median(near["times"]), statistics.median(far["times"])
    print(f'prompt "{PROMPT}", {args.turns} turns each, a round trip {rtt * 1000:.0f} ms')
    print(f"  turn, no delay        {t0 * 1000:7.0f} ms (median)")
    print(f"  turn, {args.delay_ms:.0f} ms each way  {t1 * 1000:7.0f} ms (median)")
    needed = 1 + len(far["requests"])  # the prompt and its answer, and each request of the agent
    added = (t1 - t0) / rtt
    print(f"  the agent's requests a turn: {', '.join(far['requests']) or 'none'}")
    print(f"  added by the delay    {(t1 - t0) * 1000:7.0f} ms = {added:.1f} round trips")
    print(f"    of which the turn cannot avoid {needed} (the prompt, and each request)")
    print(f"    beyond them: {added - needed:+.1f} round trips (goal: at most 2)")
    for name, run_ in (("no delay", near), ("delayed", far)):
        jumps, places = len(run_["follows"]), len(run_["locations"])
        most = "at most one each" if jumps <= places else "MORE than one each"
        print(f"  follow, {name}: {jumps} jump(s) for {places} location(s) sent ({most})")


if __name__ == "__main__":
    asyncio.run(main())
