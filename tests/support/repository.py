"""A user's git repository in tests: git run as a user would (none of this machine's settings),
and everything of a repository acp-editor must leave as it was, read at once to compare."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(cwd: Path, *args: str) -> bytes:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="u",
        GIT_AUTHOR_EMAIL="u@example.com",
        GIT_COMMITTER_NAME="u",
        GIT_COMMITTER_EMAIL="u@example.com",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True).stdout


def observed(root: Path) -> dict[str, bytes]:
    """Everything of the user's repository a worktree must leave as it was: HEAD, branches,
    refs, stash, index (its bytes), worktrees, objects, the .git folder's listing and every
    file of the work tree."""
    files = {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }
    return {
        "head": git(root, "rev-parse", "HEAD"),
        "branches": git(root, "branch", "-a", "-v"),
        "refs": git(root, "for-each-ref"),
        "stash": git(root, "stash", "list"),
        "index": (root / ".git" / "index").read_bytes(),
        "staged": git(root, "ls-files", "-s") + git(root, "diff", "--cached"),
        "worktrees": git(root, "worktree", "list", "--porcelain"),
        "objects": git(root, "count-objects", "-v"),
        "git dir": b"\n".join(sorted(str(p).encode() for p in (root / ".git").rglob("*"))),
        **files,
    }
