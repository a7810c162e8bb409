"""The prompts a workspace was sent, for ↑/↓ in an editor's prompt (``acp/promptHistory``).

One small JSON file per workspace root in the state directory, shared by every editor and every
run there; at most ``KEPT`` prompts, oldest first, and a prompt sent twice in a row kept once.
Only what the user typed is kept (what was attached is not: it may have changed since), and only
once the prompt went to the agent, as it then said (``AgentSide.prompt``'s ``sent``): a prompt
that waited its turn as edited meanwhile, a withdrawn one never.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from acp_editor.log import get_logger
from acp_editor.storage import per_root, write_atomically

log = get_logger(__name__)

KEPT = 200


def prompt_text(blocks: list[dict[str, Any]]) -> str:
    """What the user typed: the prompt's first text block. The editors send it first; what
    follows is attached (a selection or a file's diagnostics as text, files as links)."""
    for block in blocks:
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            return str(block["text"]).strip()
    return ""


class PromptHistory:
    def __init__(self, root: Path) -> None:
        self.path = per_root("history", root.resolve(), ".json")
        self._lock = asyncio.Lock()  # read, add, write: one at a time
        self._writing: set[asyncio.Task[None]] = set()

    def remember(self, text: str) -> None:
        """Kept in the background: a prompt never waits for the disk (ten sessions' prompts
        at once queued their writes ahead of their turns). In order: the lock is first come,
        first served."""
        task = asyncio.ensure_future(self.add(text))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def flush(self) -> None:
        """Every prompt remembered so far is on disk."""
        await asyncio.gather(*self._writing)

    async def add(self, text: str) -> None:
        if not text.strip():
            return
        async with self._lock:
            await asyncio.to_thread(self._add, text)

    async def recent(self, limit: int = KEPT) -> list[str]:
        await self.flush()  # the prompt just sent is among them
        prompts = await asyncio.to_thread(self._read)
        return prompts[-limit:] if limit > 0 else []

    def _add(self, text: str) -> None:
        prompts = self._read()
        if not prompts or prompts[-1] != text:
            prompts.append(text)
        try:
            write_atomically(self.path, json.dumps({"prompts": prompts[-KEPT:]}))
        except OSError as exc:
            log.info("could not keep the prompt history in %s: %s", self.path, exc)

    def _read(self) -> list[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.info("the prompt history in %s could not be read: %s", self.path, exc)
            return []
        prompts = data.get("prompts") if isinstance(data, dict) else None
        return [p for p in prompts if isinstance(p, str)] if isinstance(prompts, list) else []
