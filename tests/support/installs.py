"""Running an installer for the tests (npm, pip): a deadline, and on failure an error that
carries the tail of what it printed."""

from __future__ import annotations

import subprocess
from pathlib import Path

INSTALL_TIMEOUT = 900.0
"""Seconds an install may take (a slow mirror on a loaded machine)."""


def run_installer(
    argv: list[str], what: str, error: type[Exception], cwd: Path | None = None
) -> None:
    """Run ``argv``; raise ``error`` naming ``what`` when it fails or passes the deadline."""
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise error(f"{what} took longer than {INSTALL_TIMEOUT:g} s") from exc
    if done.returncode != 0:
        raise error(
            f"{what} failed with exit code {done.returncode}:\n"
            f"{done.stdout[-2000:]}{done.stderr[-4000:]}"
        )
