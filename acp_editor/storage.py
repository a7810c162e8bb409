"""Where acp-editor keeps what outlives one run: turn checkpoints, pending review, transcripts,
what pruning noted. One home for every part that keeps something, whatever its layer."""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    """Where acp-editor keeps what must survive a restart (``ACP_EDITOR_STATE_DIR`` first)."""
    own = os.environ.get("ACP_EDITOR_STATE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "acp-editor"


def below(root: Path) -> str | None:
    """The state directory's place inside ``root`` (a POSIX path relative to it), when it is
    there (a user who opens the home folder, ``XDG_STATE_HOME`` under the project): what is
    kept there is acp-editor's, never a change of the agent's to look at, watch or review."""
    try:
        own = state_dir().resolve()
    except (OSError, RuntimeError):
        return None
    if own == root or not own.is_relative_to(root):
        return None
    return own.relative_to(root).as_posix()


def per_root(kind: str, root: Path, suffix: str = "") -> Path:
    """Where ``kind`` (checkpoints, review) keeps what belongs to one workspace root: readable
    names, and a digest so two roots with one name never share."""
    import hashlib  # here, not at the start: the editor's initialize answer waits for that

    digest = hashlib.sha256(str(root).encode()).hexdigest()[:16]
    return state_dir() / kind / f"{root.name or 'root'}-{digest}{suffix}"


def write_atomically(path: Path, body: str) -> None:
    """Replace ``path``'s text at once (a crash leaves the old file or the new, never half)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(body, encoding="utf-8")
    os.replace(tmp, path)
