"""A copy of this checkout's tracked files, for tests that install from it as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def copy_checkout(target: Path) -> None:
    """The tracked files as they are now: what a clone of this commit would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True
    ).stdout
    for raw in filter(None, listed.split(b"\0")):
        rel = Path(os.fsdecode(raw))
        source = REPO_ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
