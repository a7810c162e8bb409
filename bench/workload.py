"""One benchmark workload: how the flood agent is started, and what it reported afterwards."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from flood_agent import DEFAULT_MIX

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
AGENT = os.path.join(BENCH_DIR, "flood_agent.py")


@dataclass(frozen=True)
class Workload:
    n: int
    mix: str
    rate: float
    seed: int
    protocol_version: int
    workspace: str
    """The session's cwd; tool-call locations point into it (the files need not exist)."""
    report: str
    """Where the agent appends its send timings."""

    def agent_argv(self) -> list[str]:
        return [
            sys.executable,
            AGENT,
            f"--n={self.n}",
            f"--mix={self.mix}",
            f"--rate={self.rate:g}",
            f"--seed={self.seed}",
            f"--report={self.report}",
        ]

    def agent_report(self) -> dict[str, Any]:
        """The agent's own account of the last prompt: updates sent and for how long."""
        try:
            with open(self.report, encoding="utf-8") as lines:
                last = lines.readlines()[-1]
        except (OSError, IndexError):
            return {}
        report: dict[str, Any] = json.loads(last)
        return report

    def to_args(self) -> list[str]:
        return [
            f"--n={self.n}",
            f"--mix={self.mix}",
            f"--rate={self.rate:g}",
            f"--seed={self.seed}",
            f"--protocol-version={self.protocol_version}",
            f"--workspace={self.workspace}",
            f"--report={self.report}",
        ]

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Workload:
        return cls(
            n=args.n,
            mix=args.mix,
            rate=args.rate,
            seed=args.seed,
            protocol_version=args.protocol_version,
            workspace=args.workspace,
            report=args.report,
        )


def add_workload_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=20_000, help="updates in the flood (20000)")
    parser.add_argument("--mix", default=DEFAULT_MIX, help=f"update mix ({DEFAULT_MIX})")
    parser.add_argument("--rate", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help="seed of the mix's order (1)")
    parser.add_argument(
        "--protocol-version",
        type=int,
        choices=(1, 2),
        default=2,
        help="ACP version every client offers (2: content chunks are in the mix)",
    )
    parser.add_argument("--workspace", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
