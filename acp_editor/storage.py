"""Where acp-editor keeps what outlives one run: turn checkpoints, pending review, transcripts,
what pruning noted. One home for every part that keeps something, whatever its layer."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def state_dir() -> Path:
    """Where acp-editor keeps what must survive a restart (``ACP_EDITOR_STATE_DIR`` first)."""
    own = os.environ.get("ACP_EDITOR_STATE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "acp-editor"


def per_root(kind: str, root: Path, suffix: str = "") -> Path:
    """Where ``kind`` (checkpoints, review) keeps what belongs to one workspace root: readable
    names, and a digest so two roots with one name never share."""
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:16]
    return state_dir() / kind / f"{root.name or 'root'}-{digest}{suffix}"
