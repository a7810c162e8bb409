"""The reaper kills what is still registered when its pipe breaks, and nothing else."""

from __future__ import annotations

import subprocess
import sys

from acp_editor import reaper


def test_track_keeps_registered_groups_and_ignores_malformed_lines() -> None:
    lines = [b"+100\n", b"+200\n", b"-100\n", b"+1\n", b"junk\n", b"+\n", b"-x\n", b"+300"]
    assert reaper.track(lines) == {200, 300}


def sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "1000"], start_new_session=True)


def test_on_eof_the_registered_groups_die_and_the_released_ones_live() -> None:
    kept, released = sleeper(), sleeper()
    try:
        script = subprocess.Popen(
            [sys.executable, "-I", "-S", reaper.__file__], stdin=subprocess.PIPE
        )
        assert script.stdin is not None
        script.stdin.write(f"+{kept.pid}\n+{released.pid}\n-{released.pid}\n".encode())
        script.stdin.close()  # as when the sidecar dies
        assert script.wait(10) == 0
        assert kept.wait(10) == -9
        assert released.poll() is None
    finally:
        kept.kill()
        released.kill()
        kept.wait()
        released.wait()
