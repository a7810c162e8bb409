"""What a session's turns are called, and which session ran the last turn in a root.

The checkpoint before each turn is kept in the root's store under the session's name and the
turn's number (``turn_name``), so undoing a turn finds it, in this run or a later one: the
checkpoints outlive the sidecar. Which session's turn was the last in a root is kept in the state
directory (``remember_last``): after a restart, undo with no session named goes to that one's
(``last_session``), and retention keeps its turns longest (``services.retention.inventory``).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor.services.retention.plumbing import session_ref
from acp_editor.storage import per_root, write_atomically

if TYPE_CHECKING:
    from acp_editor.services.git.checkpoints import CheckpointStore

_TURN = re.compile(r".*/turn-[0-9]+")


def turn_name(session_id: str, number: int) -> str:
    """The name the checkpoint before a session's turn is kept under (undo reads it)."""
    return f"{_ref(session_id)}/turn-{number}"


async def last_number(store: CheckpointStore, session_id: str) -> int:
    """The number of the session's last turn ``store`` keeps a checkpoint of (0: none)."""
    names = await store.names(f"{_ref(session_id)}/")
    return max([0, *(int(n.rsplit("-", 1)[1]) for n in names if _TURN.fullmatch(n))])


async def last_session(roots: Sequence[str]) -> str | None:
    """The session of the last turn checkpointed in the first of ``roots`` that had one,
    in this run or an earlier one."""
    for raw in dict.fromkeys(roots):
        root = await asyncio.to_thread(Path(raw).resolve)
        found = await asyncio.to_thread(_recall_last, root)
        if found is not None:
            return found
    return None


def remember_last(root: Path, session_id: str) -> None:
    """The session of the last turn in ``root``: the one to undo in after a restart."""
    write_atomically(_last_path(root), json.dumps({"lastSession": session_id}))


def _recall_last(root: Path) -> str | None:
    try:
        found = json.loads(_last_path(root).read_text(encoding="utf-8")).get("lastSession")
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, str) else None


def _last_path(root: Path) -> Path:
    return per_root("turns", root, ".json")


def _ref(session_id: str) -> str:
    """A session id as one part of a ref name (one rule with what prunes them)."""
    return session_ref(session_id)
