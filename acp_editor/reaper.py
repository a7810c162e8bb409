"""The reaper: kills the process groups the sidecar started when the sidecar dies, however it dies.

``PR_SET_PDEATHSIG`` kills only the agent itself when the sidecar is SIGKILLed (an editor that
loses patience does that: eglot after 1.5 s); the agent's own children would live on. So the
first spawn starts this small process in a session of its own, holding the read end of a pipe
whose write end only the sidecar has. The sidecar writes ``+PGID`` for every group it starts and
``-PGID`` once the group is gone. When the pipe reaches EOF (the sidecar exited, or was killed),
every group still registered gets SIGKILL and the reaper exits.

Run as a script (``python -I -S reaper.py``), so it imports only the standard library and starts
in milliseconds; ``procs`` starts it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterable


def track(lines: Iterable[bytes]) -> set[int]:
    """The groups still registered once ``lines`` ends (malformed lines are ignored)."""
    groups: set[int] = set()
    for line in lines:
        sign, digits = line[:1], line[1:].strip()
        if not digits.isdigit() or int(digits) <= 1:
            continue
        if sign == b"+":
            groups.add(int(digits))
        elif sign == b"-":
            groups.discard(int(digits))
    return groups


def kill_groups(groups: Iterable[int]) -> None:
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def main() -> int:
    # The sidecar's terminal may send Ctrl-C to its foreground group: we are in our own session,
    # but ignore it anyway so nothing but the pipe's EOF ends us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    kill_groups(track(sys.stdin.buffer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
