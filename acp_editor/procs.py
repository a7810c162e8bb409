"""Child processes that cannot outlive us: own process group, parent-death signal, kill ladder.

The agent and every terminal run in a process group of their own, so that one signal reaches the
children they start too. ``PR_SET_PDEATHSIG`` makes the kernel kill a direct child even when the
sidecar itself dies without cleaning up (SIGKILL, OOM); for the grandchildren, the first spawn
starts the reaper (``acp_editor/reaper.py``), which SIGKILLs every group still registered when
our pipe to it breaks.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

PR_SET_PDEATHSIG = 1

_spawned: set[int] = set()
"""Process groups started by this process: ``kill_leftovers`` is the last line of defence."""

_REAPER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reaper.py")
_reaper: subprocess.Popen[bytes] | None = None


def _tell_reaper(line: str) -> None:
    """Register (``+PGID``) or release (``-PGID``) a group with the reaper, starting it first."""
    global _reaper
    if not sys.platform.startswith("linux"):
        return
    if _reaper is None:
        try:
            _reaper = subprocess.Popen(
                [sys.executable, "-I", "-S", _REAPER_SCRIPT],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd="/",
                start_new_session=True,  # a signal to our group must not reach it
            )
        except OSError:
            return  # the parent-death signal and kill_leftovers still stand
    if _reaper.stdin is None or _reaper.stdin.closed:
        return
    with contextlib.suppress(OSError, ValueError):  # a dead reaper: nothing more to tell
        _reaper.stdin.write(f"{line}\n".encode())
        _reaper.stdin.flush()


def reaper_pid() -> int | None:
    return _reaper.pid if _reaper is not None else None


def release(pgid: int) -> None:
    """The group is gone (or was killed): forget it, so a reused number is never signalled."""
    if pgid in _spawned:
        _spawned.discard(pgid)
        _tell_reaper(f"-{pgid}")


def release_if_gone(pgid: int) -> None:
    """``release`` once no process of the group is left; else the reaper keeps it."""
    if not group_alive(pgid):
        release(pgid)


def _preexec() -> Callable[[], None] | None:
    """What the child runs between fork and exec: the parent-death signal. ``ctypes`` is loaded
    here, in the parent at the first spawn: the editor's ``initialize`` answer does not wait for
    it (issue 36), and the child only makes the call."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None

    def set_parent_death_signal() -> None:
        with contextlib.suppress(Exception):
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    return set_parent_death_signal


async def spawn(
    argv: Sequence[str],
    *,
    cwd: str | None,
    env: Mapping[str, str] | None,
    stdin: int | None = asyncio.subprocess.PIPE,
    stdout: int | None = asyncio.subprocess.PIPE,
    stderr: int | None = asyncio.subprocess.PIPE,
) -> asyncio.subprocess.Process:
    """Start ``argv`` as the leader of a new process group (and session)."""
    kwargs: dict[str, Any] = {}
    pre = _preexec()
    if pre is not None:
        kwargs["preexec_fn"] = pre
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
        **kwargs,
    )
    _spawned.add(proc.pid)
    _tell_reaper(f"+{proc.pid}")
    return proc


def kill_leftovers() -> None:
    """SIGKILL every process group we started that still has members (sync, for exit paths)."""
    for pgid in list(_spawned):
        if group_alive(pgid):
            signal_group(pgid, signal.SIGKILL)
        release(pgid)


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes of a group, from /proc.

    ``killpg(pgid, 0)`` also counts zombies, and whether orphaned zombies are reaped depends on
    what runs as PID 1 (in containers often nothing does), so it cannot tell "gone" reliably.
    """
    members = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 2 and fields[0] != b"Z" and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def group_alive(pgid: int) -> bool:
    if os.path.isdir("/proc/self"):
        return bool(group_members(pgid))
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def wait_group_gone(pgid: int, timeout: float) -> bool:
    """Poll until no process of the group is left (the kernel offers no event for this)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while group_alive(pgid):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def terminate_group(
    proc: asyncio.subprocess.Process, *, grace: float = 0.0, term_grace: float = 0.5
) -> int | None:
    """The shutdown ladder after stdin is closed: wait ``grace``, SIGTERM the group, wait
    ``term_grace``, SIGKILL the group. Returns the leader's exit code.

    The defaults fit every editor's patience (eglot SIGKILLs us 1.5 s after ``shutdown``): an
    agent that needs longer to save its state does so on SIGTERM.

    The whole group is signalled even when the leader has already exited, because the children
    it started may still be running.
    """
    pgid = proc.pid  # leader of its own group (start_new_session)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), grace)
    if proc.returncode is None or group_alive(pgid):
        signal_group(pgid, signal.SIGTERM)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), term_grace)
        await wait_group_gone(pgid, 0.5 if proc.returncode is not None else 0)
    if proc.returncode is None or group_alive(pgid):
        signal_group(pgid, signal.SIGKILL)
        await proc.wait()
        await wait_group_gone(pgid, 2.0)
    release_if_gone(pgid)
    return proc.returncode
