"""Previews of the ACP v2 draft's diffs, which name the files they change instead of carrying
their texts.

A v2 ``diff`` item lists ``changes`` (add, delete, modify, move, copy of absolute paths) and may
carry a ``git_patch``. An editor draws a preview from whole texts, so each file's patch is applied
to the file as the editor holds it (its buffer, else the disk): forward when the agent has not
written it yet, backward when it already has. A change without a patch section, or whose patch
fits neither way, gets no preview here: the change the agent makes on disk is still found by the
turn's checkpoints and previewed and reviewed from them (``editor/show/diffs.py``'s
``found_on_disk``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from acp_editor.editor.show.wording import diff_preview
from acp_editor.errors import RpcError
from acp_editor.log import get_logger

log = get_logger(__name__)

ReadText = Callable[[Path], Awaitable[str]]

PREVIEW_LIMIT = 4 << 20
"""Larger patches are not applied for a preview (the review of the disk change still shows)."""


async def structured_previews(
    item: Mapping[str, Any], read_text: ReadText, *, written: bool = False
) -> list[dict[str, Any]]:
    """``DiffPreview`` objects for the files of one v2 diff item whose patch fits; ``written``:
    its tool call has finished, so the files probably hold the change already."""
    patch = item.get("patch")
    if not isinstance(patch, dict) or patch.get("format") != "git_patch":
        return []
    text = patch.get("text")
    if not isinstance(text, str) or len(text) > PREVIEW_LIMIT:
        return []
    from acp_editor.text.patches import PatchError, parse, texts  # at the first v2 diff

    try:
        files = parse(text)
    except PatchError as exc:
        log.info("a v2 diff's patch could not be read: %s", exc)
        return []
    previews = []
    for file in files:
        path = file.new_path or file.old_path
        if path is None or file.is_binary:
            continue
        current = await _current(read_text, path, file.old_path)
        pair = texts(file, current, written=written)
        if pair is not None:
            previews.append(diff_preview(path, pair[0], pair[1]))
    return previews


async def _current(read_text: ReadText, path: str, old_path: str | None) -> str | None:
    """The text at ``path`` as the editor holds it, else (not written yet) at ``old_path``."""
    for candidate in dict.fromkeys((path, old_path)):
        if candidate is None:
            continue
        try:
            return await read_text(Path(candidate))
        except (RpcError, OSError):  # missing, a directory, unreadable: no text
            continue
    return None
