"""Tallying what a receiver saw, and the numbers and the table made from it.

A ``Tally`` checks the stream as it counts: every sequence number must arrive exactly once and in
order, so a receiver that drops, repeats or reorders updates shows it in the table instead of
looking fast.
"""

from __future__ import annotations

import math
import os
import resource
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    expected: int
    latencies_ns: list[int] = field(default_factory=list)
    duplicates: int = 0
    out_of_order: int = 0
    unknown: int = 0
    """Stamps with a sequence number outside ``0..expected-1``."""
    first_sent_ns: int | None = None
    last_recv_ns: int = 0
    _last_seq: int = -1
    _seen: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self._seen = bytearray(self.expected)

    def record(self, seq: int, sent_ns: int, recv_ns: int) -> None:
        if not 0 <= seq < self.expected:
            self.unknown += 1
            return
        if self._seen[seq]:
            self.duplicates += 1
            return
        self._seen[seq] = 1
        if seq < self._last_seq:
            self.out_of_order += 1
        self._last_seq = max(self._last_seq, seq)
        self.latencies_ns.append(recv_ns - sent_ns)
        if self.first_sent_ns is None or sent_ns < self.first_sent_ns:
            self.first_sent_ns = sent_ns
        self.last_recv_ns = max(self.last_recv_ns, recv_ns)

    @property
    def received(self) -> int:
        return len(self.latencies_ns)

    @property
    def complete(self) -> bool:
        return self.received == self.expected

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ns)
        elapsed = (self.last_recv_ns - (self.first_sent_ns or 0)) / 1e9 if lat else 0.0
        return {
            "expected": self.expected,
            "received": self.received,
            "missing": self.expected - self.received,
            "duplicates": self.duplicates,
            "out_of_order": self.out_of_order,
            "unknown": self.unknown,
            "elapsed_s": elapsed,
            "rate": self.received / elapsed if elapsed > 0 else 0.0,
            "p50_ms": percentile(lat, 50),
            "p95_ms": percentile(lat, 95),
            "p99_ms": percentile(lat, 99),
            "max_ms": lat[-1] / 1e6 if lat else math.nan,
        }


def percentile(sorted_ns: list[int], pct: float) -> float:
    """Nearest-rank percentile of sorted nanoseconds, in milliseconds."""
    if not sorted_ns:
        return math.nan
    rank = max(1, math.ceil(pct / 100 * len(sorted_ns)))
    return sorted_ns[rank - 1] / 1e6


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def own_peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of another process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set) of another process, from /proc/PID/status."""
    return _proc_status_mb(pid, "VmHWM:")


def proc_rss_mb(pid: int) -> float:
    """VmRSS (resident set now, not its peak) of another process, from /proc/PID/status."""
    return _proc_status_mb(pid, "VmRSS:")


def _proc_status_mb(pid: int, key: str) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    return math.nan


COLUMNS = (
    ("set-up", 28, "{}"),
    ("updates/s", 10, "{:,.0f}"),
    ("vs (a)", 7, "{:.2f}x"),
    ("p50 ms", 8, "{:.2f}"),
    ("p95 ms", 8, "{:.2f}"),
    ("p99 ms", 8, "{:.2f}"),
    ("max ms", 8, "{:.2f}"),
    ("p50 vs (a)", 10, "{:.1f}x"),
    ("p99 vs (a)", 10, "{:.1f}x"),
    ("lost", 6, "{}"),
    ("reord", 6, "{}"),
    ("CPU s", 6, "{:.2f}"),
    ("RSS MB", 7, "{:.0f}"),
)


def table(rows: list[dict[str, Any]]) -> str:
    """One line per set-up; ratios are against the first row, the no-sidecar limit."""
    base = rows[0] if rows else {}
    header = [
        f"{name:>{width}}" if i else f"{name:<{width}}"
        for i, (name, width, _) in enumerate(COLUMNS)
    ]
    lines = ["  ".join(header)]
    for row in rows:
        values = [
            row["label"],
            row["rate"],
            row["rate"] / base["rate"] if base.get("rate") else math.nan,
            row["p50_ms"],
            row["p95_ms"],
            row["p99_ms"],
            row["max_ms"],
            row["p50_ms"] / base["p50_ms"] if base.get("p50_ms") else math.nan,
            row["p99_ms"] / base["p99_ms"] if base.get("p99_ms") else math.nan,
            row["missing"] + row["duplicates"],
            row["out_of_order"],
            row.get("cpu_s", math.nan),
            row.get("rss_mb", math.nan),
        ]
        cells = []
        for i, ((_, width, fmt), value) in enumerate(zip(COLUMNS, values, strict=True)):
            text = fmt.format(value)
            cells.append(f"{text:>{width}}" if i else f"{text:<{width}}")
        lines.append("  ".join(cells))
    return "\n".join(lines)
