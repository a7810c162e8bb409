"""The folders a file watch of a turn covers, so that it misses no change.

A watch is told of changes only in the folders it watches, and a new file may appear in any
folder git would count it in: the folders a checkpoint holds files in (the store reads them), and
the others that are not ignored (empty ones, ones holding only ignored files), which git names by
their top one and a walk finds below it. Before a repository's first checkpoint
(``review.finding.ahead``) its index says where its files are.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.log import get_logger
from acp_editor.services.git.checkpoints import CheckpointError

if TYPE_CHECKING:
    from acp_editor.services.git.checkpoints import CheckpointStore

log = get_logger(__name__)


async def repository_folders(store: CheckpointStore, root: Path) -> list[Path] | None:
    """Before ``root``'s first checkpoint: every folder a file that counts is in or may
    appear in, from the repository's index (borrowed by the store) and the folders it has
    no file of; None when the store has no index to read them from."""
    try:
        if not await store.seed():
            return None
        listed = await store.git("ls-files", "-z")
        others = await other_directories(store)
    except CheckpointError as exc:
        log.info("no folders to watch: %s", exc)
        return None
    return [*await asyncio.to_thread(_folders_of, root, listed), *others]


async def other_directories(store: CheckpointStore) -> list[Path]:
    """Directories without a file of the last checkpoint that are not ignored, and all
    below them: git names each by its top one (``--directory``), the rest is a walk of what is
    there (empty folders, or folders of ignored files only: small as a rule)."""
    out = await store.git("ls-files", "-z", "--others", "--directory", "--exclude-standard")
    tops = [store.root / os.fsdecode(raw) for raw in out.split(b"\0") if raw.endswith(b"/")]
    return await asyncio.to_thread(_with_subdirectories, tops)


def _folders_of(root: Path, listed: bytes) -> list[Path]:
    """The root and every folder above a file of ``git ls-files -z``'s output."""
    found = {b""}
    for folder in {raw.rpartition(b"/")[0] for raw in listed.split(b"\0") if raw}:
        while folder not in found:
            found.add(folder)
            folder = folder.rpartition(b"/")[0]
    return [root / os.fsdecode(folder) if folder else root for folder in sorted(found)]


def _with_subdirectories(tops: list[Path]) -> list[Path]:
    found: list[Path] = []
    for top in tops:
        for folder, subfolders, _files in os.walk(top):
            found.append(Path(folder))
            subfolders[:] = [d for d in subfolders if d != ".git"]
    return found
