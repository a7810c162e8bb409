"""Write generated files, or check that they are as generated (``--check``).

The generators in scripts/ share this so that a stale file reads the same from each of them: its
path and a unified diff from what is there to what the generator gives, and exit status 1.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sync(files: dict[Path, str], root: Path, check: bool) -> int:
    """Write ``files`` (relative to ``root``), or with ``check`` print how they differ.

    Returns the exit status: 1 when checking found a file missing or different, else 0.
    """
    stale = 0
    for relative, text in files.items():
        path = root / relative
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {relative}")
            continue
        stale = 1
        sys.stdout.writelines(
            difflib.unified_diff(
                [] if old is None else old.splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"a/{relative.as_posix()}" if old is not None else "/dev/null",
                f"b/{relative.as_posix()}",
            )
        )
    return stale


def unexpected(directory: Path, pattern: str, expected: set[str], root: Path, check: bool) -> int:
    """Files matching ``pattern`` in ``directory`` that no generator gives any more: removed, or
    with ``check`` named (exit status 1)."""
    stale = 0
    for path in sorted((root / directory).glob(pattern)):
        if path.name in expected:
            continue
        if check:
            print(f"{(directory / path.name).as_posix()}: not generated any more (remove it)")
            stale = 1
        else:
            path.unlink()
            print(f"removed {(directory / path.name).as_posix()}")
    return stale


def ruff_formatted(text: str, path: Path) -> str:
    """Python ``text`` as ``ruff format`` writes it with the repository's settings, so that a
    generated module passes the format check as it is written."""
    config = ["--config", str(ROOT / "pyproject.toml"), "--stdin-filename", str(path)]
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", *config, "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout
