"""Moved to ``services.git.checkpoints`` (issue 37). Kept only for imports being edited by
other changes at the same time (``agent/client.py``'s): delete this file once nothing imports
``acp_editor.services.checkpoints``."""

from __future__ import annotations

from acp_editor.services.git.checkpoints import (
    EMPTY_TREE,
    SIZE_LIMIT,
    STATUS_LETTERS,
    Change,
    CheckpointError,
    CheckpointStore,
    Status,
    store_for,
)

__all__ = [
    "EMPTY_TREE",
    "SIZE_LIMIT",
    "STATUS_LETTERS",
    "Change",
    "CheckpointError",
    "CheckpointStore",
    "Status",
    "store_for",
]
