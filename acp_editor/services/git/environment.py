"""The environment git runs with: against our own private stores, or against the user's
repository.

Both start from ours without any ``GIT_`` variable: one set by whoever started us (``GIT_DIR``
from a hook that runs an editor, ``GIT_INDEX_FILE`` from a commit in progress) would point git
somewhere else. Both ask for the C locale (we read git's output, nobody else does) and no
terminal prompt (nobody is there to answer one: git would wait for ever). What differs is whose
settings count: none of the user's in our stores, the user's own in their repository.
"""

from __future__ import annotations

import os
from pathlib import Path

KEEP_HEAP = "glibc.malloc.trim_threshold=67108864"
"""For the checkpoint store's git runs (``GLIBC_TUNABLES``; other C libraries ignore it):
give freed memory back to the system only past 64 MB. Packing sets up zlib (about 300 KB) for
each blob and frees it again; by default glibc hands that back at once and takes it again for
the next blob (four ``brk`` a file, and fresh pages to fault in). 20,000 changed files: a packed
``update-index`` 2.3-2.5 s -> 0.6-1.3 s, ``fast-import`` 0.94 s -> 0.09 s on this machine. A git
run is short-lived: what it keeps is gone when it exits."""
COMMITTER = {
    "GIT_AUTHOR_NAME": "acp-editor",
    "GIT_AUTHOR_EMAIL": "acp-editor@localhost",
    "GIT_COMMITTER_NAME": "acp-editor",
    "GIT_COMMITTER_EMAIL": "acp-editor@localhost",
}
"""Who the commits made in a private store are by (the user's name is not read there)."""


def inherited() -> dict[str, str]:
    """Our environment without any ``GIT_`` variable: git as the user runs it in a terminal.
    Alone, for a question about the user's own settings (``repository_index`` asks which
    conversions their git makes)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def for_store(
    git_dir: Path,
    index: Path,
    *,
    work_tree: Path | None = None,
    commits: bool = False,
    keep_heap: bool = False,
) -> dict[str, str]:
    """git against a store of ours (``git_dir``): neither the system's nor the user's settings
    (hooks, fsmonitor, a pager, an alias of a verb), only what the store's ``config`` says.

    ``index``: the store's own index, never the user's (the checkpoint store's and the retention
    pass's ``acp-index``, whose blobs and trees then count as reachable; a worktree's look at
    ``acp-look``). ``work_tree``: the folder its paths are below (the workspace root for the
    checkpoint store, except for ``git init``, which refuses one; a worktree's ``tree/``); None
    for the retention pass, which never reads files (the root may be gone). ``commits``: runs
    that make commits (a worktree's base) name acp-editor (``COMMITTER``). ``keep_heap``: the
    checkpoint store's runs, which pack thousands of blobs, keep freed memory (``KEEP_HEAP``,
    added to any ``GLIBC_TUNABLES`` of ours)."""
    env = inherited()
    if commits:
        env.update(COMMITTER)
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    env.update(
        GIT_DIR=str(git_dir),
        GIT_INDEX_FILE=str(index),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    if keep_heap:
        tunables = env.get("GLIBC_TUNABLES")
        env["GLIBC_TUNABLES"] = f"{tunables}:{KEEP_HEAP}" if tunables else KEEP_HEAP
    return env


def for_repository(
    *,
    system_config: bool = True,
    git_dir: Path | None = None,
    work_tree: Path | None = None,
) -> dict[str, str]:
    """git against the user's repository, or a folder that is none, as the user's git sees it:
    their settings count (``core.excludesFile``, ``safe.directory``). git finds the repository
    from the folder it runs in.

    ``system_config``: whether the system's settings (``/etc/gitconfig``) count too: yes for a
    worktree's questions about the repository (``rev-parse``); the workspace's file listing
    leaves them out. ``git_dir`` with ``work_tree``: a folder that is not a repository, listed
    against an empty repository of ours (so its ``.gitignore`` files still count)."""
    env = inherited()
    if git_dir is not None:
        env["GIT_DIR"] = str(git_dir)
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    if not system_config:
        env["GIT_CONFIG_NOSYSTEM"] = "1"
    env.update(GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env
