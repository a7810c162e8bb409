"""The checkpoint store itself: made once however many ask at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from acp_editor.services.git.checkpoints import (
    CheckpointStore,
)


def store(root: Path, **kw: int) -> CheckpointStore:
    return CheckpointStore(root, root.parent / "store", **kw)


async def test_sessions_first_turns_at_once_make_the_store_once(tmp_path: Path) -> None:
    """Two sessions' first turns ask a new store for their names at the same moment: one
    ``git init`` (two raced and one failed, turning review off for the workspace)."""
    root = tmp_path / "w"
    root.mkdir()
    for attempt in range(10):
        store = CheckpointStore(root, store=tmp_path / f"store{attempt}")
        assert await asyncio.gather(store.names("s1/"), store.names("s2/")) == [[], []]
        assert (store.store / "HEAD").exists()
