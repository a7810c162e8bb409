"""A stdio tap between the sidecar and a real agent: relays both ways untouched and writes each
JSON-RPC message, with its direction, to a JSON-lines log, so an end-to-end test (whose sidecar
is a subprocess, out of reach of ``JsonRpcPeer.tracers``) can check every message the sidecar
sent against the ACP schema afterwards (``traffic_problems``).

    python acp_tap.py LOG AGENT [ARGS...]

Stdlib only, run by path (the sidecar starts agents in the workspace, not the repository).
``send`` is sidecar → agent (the client's side, as ``ClientTrafficChecker`` names it), ``recv``
agent → sidecar. A line that is no JSON object (a program printing to its stdout, as an agent's
own login run in a terminal does) is relayed but not logged. Stdin's end is passed on; the
tap exits with the agent's status (128 + N for signal N), and a signal to the process group
reaches the agent too.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve()


def tapped(log: Path, argv: list[str]) -> list[str]:
    """The argv that runs ``argv`` behind the tap, logging to ``log``."""
    return [sys.executable, str(HERE), str(log), *argv]


def read_log(log: Path) -> list[tuple[str, dict[str, Any]]]:
    """(direction, message) of every logged message, in the order the tap saw them."""
    if not log.exists():
        return []
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    return [(row["dir"], row["message"]) for row in rows]


def traffic_problems(log: Path, checker: Any) -> tuple[int, list[str]]:
    """Feed the log to ``checker`` (a ``ClientTrafficChecker``): (messages the sidecar sent,
    problems found)."""
    for direction, message in read_log(log):
        checker(direction, message)
    return checker.checked, checker.problems


def _relay(source: IO[bytes], sink: IO[bytes], direction: str, log: IO[str], lock: Any) -> None:
    for line in iter(source.readline, b""):
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if isinstance(message, dict):
            with lock:
                row = {"dir": direction, "t": round(time.time(), 3), "message": message}
                log.write(json.dumps(row) + "\n")
                log.flush()
        try:
            sink.write(line)
            sink.flush()
        except (BrokenPipeError, ValueError):
            break
    with contextlib.suppress(BrokenPipeError, ValueError):
        sink.close()  # the end of the stream is passed on


def main(log_path: str, *argv: str) -> int:
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    lock = threading.Lock()
    with open(log_path, "a", encoding="utf-8") as log:
        relays = [
            threading.Thread(
                target=_relay, args=(sys.stdin.buffer, child.stdin, "send", log, lock), daemon=True
            ),
            threading.Thread(
                target=_relay, args=(child.stdout, sys.stdout.buffer, "recv", log, lock)
            ),
        ]
        for relay in relays:
            relay.start()
        code = child.wait()
        relays[1].join()  # everything the agent wrote is relayed before the tap ends
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    status = main(*sys.argv[1:])
    # Not sys.exit: the stdin relay may still block in a read, and an interpreter shutting down
    # with a daemon thread inside a buffered read aborts (SIGABRT).
    os._exit(status)
