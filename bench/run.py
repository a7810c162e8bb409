"""Throughput and end-to-end latency of session updates: the limit, the ACP SDK, acp-editor.

    python bench/run.py [--n 20000] [--mix text=50,...] [--protocol-version 2]
                        [--paced-n 2000 --paced-rate 1000] [--setups direct,sdk,sidecar]

The flood agent (``flood_agent.py``) writes stamped ``session/update``s; each set-up receives the
same stream and measures, per update, agent write -> update usable by the receiver:

(a) ``direct``: the agent's stdout read directly (no sidecar, no framework): the limit.
(b) ``sdk``: the official ACP Python SDK as the client.
(c) ``sidecar``: acp-editor, with a synthetic LSP editor reading ``acp/sessionChanged``.

Two phases: a *flood* (as fast as the pipe takes them: throughput, and latency under saturation,
which is mostly queueing) and a *paced* stream (a steady rate well below every set-up's capacity:
the latency a user sees). Each set-up runs in its own process, one after the other, so they never
compete for the CPU. The numbers and the command line are printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from typing import Any

from measure import table
from workload import Workload, add_workload_args

SETUPS = {
    "direct": "(a) direct, no sidecar",
    "sdk": "(b) ACP Python SDK",
    "sidecar": "(c) acp-editor sidecar",
}
WORKER_TIMEOUT_S = 600.0


def worker(setup: str, work: Workload) -> dict[str, Any]:
    if setup == "direct":
        import client_direct

        result = client_direct.run(work)
    elif setup == "sdk":
        import client_sdk

        result = client_sdk.run(work)
    else:
        import client_sidecar

        result = client_sidecar.run(work)
    agent = work.agent_report()
    if agent:
        sent_s = (agent["end_ns"] - agent["start_ns"]) / 1e9
        result["agent_send_s"] = sent_s
        result["agent_kinds"] = agent["kinds"]
        result["agent_version"] = agent["version"]
    return result


def run_worker(setup: str, work: Workload) -> dict[str, Any]:
    argv = [sys.executable, os.path.abspath(__file__), f"--worker={setup}", *work.to_args()]
    done = subprocess.run(argv, stdout=subprocess.PIPE, timeout=WORKER_TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench: the {setup} worker failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result


def notes(setup: str, row: dict[str, Any], flood: bool) -> list[str]:
    out = []
    if row.get("missing") or row.get("duplicates") or row.get("out_of_order") or row.get("unknown"):
        out.append(
            f"missing {row['missing']}, duplicated {row['duplicates']}, "
            f"out of order {row['out_of_order']}, unknown {row['unknown']}"
        )
    if row.get("agent_send_s") and flood:
        rate = row["expected"] / row["agent_send_s"]
        out.append(f"the agent's writes took {row['agent_send_s']:.2f} s ({rate:,.0f}/s)")
    if setup == "sdk" and row.get("sdk_errors"):
        out.append(f"SDK logged {row['sdk_errors']} errors; first: {row.get('sdk_first_error')}")
    if setup == "sidecar":
        sent = ", ".join(f"{count} {method}" for method, count in row["notifications"].items())
        out.append(
            f"editor got {sent}; {row['changes']} changes, "
            f"{row['changes_per_notification']:.1f} per acp/sessionChanged; "
            f"server requests: {row['server_requests'] or 'none'}"
        )
        out.append(
            f"latency of the last change in each notification (least time in the frame "
            f"buffer): p50 {row['batch_tail_p50_ms']:.2f} ms, p99 {row['batch_tail_p99_ms']:.2f} ms"
        )
        out.append(
            f"prompt answered with {row['received_at_answer']} of {row['expected']} updates "
            f"received; {row['late_after_answer']} arrived after the answer"
        )
        if row.get("sidecar_exit") != 0:
            out.append(f"sidecar exit status {row.get('sidecar_exit')} after shutdown/exit")
        if row.get("sidecar_stderr_tail"):
            out.append(f"sidecar stderr: {row['sidecar_stderr_tail']!r}")
    if row.get("stop_reason") != "end_turn":
        out.append(f"stop reason {row.get('stop_reason')!r}")
    return out


def phase(name: str, setups: list[str], work: Workload, repeat: int) -> tuple[str, list[str], str]:
    """Run every set-up ``repeat`` times, interleaved so that drift in the machine's load hits
    them alike, and report each set-up's median run (by updates/s)."""
    runs: dict[str, list[dict[str, Any]]] = {setup: [] for setup in setups}
    for turn in range(repeat):
        for setup in setups:
            print(
                f"bench: {name} {turn + 1}/{repeat}: {SETUPS[setup]} ...",
                file=sys.stderr,
                flush=True,
            )
            runs[setup].append(run_worker(setup, work))
    rows, lines = [], []
    for setup in setups:
        label = SETUPS[setup]
        ordered = sorted(runs[setup], key=lambda run: float(run["rate"]))
        row = dict(ordered[len(ordered) // 2], label=label)
        rows.append(row)
        if repeat > 1:
            each = ", ".join(f"{r['rate']:,.0f}/s p50 {r['p50_ms']:.2f} ms" for r in runs[setup])
            lines.append(f"  {label}: median of {repeat} runs by updates/s; runs: {each}")
        broken = [r for r in runs[setup] if r["missing"] or r["duplicates"] or r["out_of_order"]]
        if repeat > 1 and broken:
            lines.append(f"  {label}: {len(broken)} of {repeat} runs lost or reordered updates")
        lines += [f"  {label}: {note}" for note in notes(setup, row, work.rate <= 0)]
    kinds = rows[0].get("agent_kinds") or {}
    mix = ", ".join(f"{count} {kind}" for kind, count in kinds.items() if count)
    return table(rows), lines, mix


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Session-update throughput and latency: no sidecar vs the ACP SDK vs "
        "acp-editor, in one run."
    )
    add_workload_args(parser)
    parser.add_argument("--paced-n", type=int, default=2000, help="updates, paced phase (2000)")
    parser.add_argument(
        "--paced-rate", type=float, default=1000.0, help="updates/s, paced phase (1000)"
    )
    parser.add_argument(
        "--setups", default="direct,sdk,sidecar", help="which set-ups, in order (all three)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of the flood per set-up; the median shows (3)"
    )
    parser.add_argument("--worker", choices=tuple(SETUPS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, Workload.from_args(args))), flush=True)
        return 0

    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = [s for s in setups if s not in SETUPS]
    if unknown or not setups:
        parser.error(f"--setups takes some of {', '.join(SETUPS)}")
    command = shlex.join(["python", "bench/run.py", *sys.argv[1:]])
    started = time.monotonic()
    load = os.getloadavg()
    sections = []
    with tempfile.TemporaryDirectory(prefix="acp-bench-") as workspace:
        phases = [("flood", args.n, 0.0, max(1, args.repeat))]
        if args.paced_n > 0:
            phases.append(("paced", args.paced_n, args.paced_rate, 1))
        for name, n, rate, repeat in phases:
            work = Workload(
                n=n,
                mix=args.mix,
                rate=rate,
                seed=args.seed,
                protocol_version=args.protocol_version,
                workspace=workspace,
                report=os.path.join(workspace, f"agent-{name}.jsonl"),
            )
            what = "as fast as possible" if rate <= 0 else f"at {rate:,.0f} updates/s"
            rendered, lines, kinds = phase(name, setups, work, repeat)
            title = f"{name}: {n:,} updates {what}, protocol {args.protocol_version}: {kinds}"
            sections.append((title, rendered, lines))
    print(f"command: {command}")
    print(
        f"python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{platform.system()} {platform.release()}, mix {args.mix}, seed {args.seed}, "
        f"load average before {load[0]:.2f}, total {time.monotonic() - started:.1f} s"
    )
    for title, rendered, lines in sections:
        print(f"\n{title}\n{rendered}")
        print("\n".join(lines))
    print(
        "\nlatency: agent write -> update usable by the receiver (after parsing); lost = missing "
        "+ duplicated; reord = out of order; CPU s = the client's CPU during the prompt (the "
        "sidecar's for (c)); RSS MB = the client's peak RSS (the sidecar's VmHWM for (c))."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
