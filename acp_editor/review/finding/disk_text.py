"""A file's text as review reads it: ``None`` for a file that is missing or is not text.

Review compares text (hunks in lines); a file with a NUL byte or that is not UTF-8 is left to
the user's own tools, never turned into a hunk. One rule for every part of review that reads the
disk: the turn watch's looks, undoing a turn.
"""

from __future__ import annotations

import asyncio
from pathlib import Path


def decode(raw: bytes) -> str | None:
    if b"\0" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


async def read_text(path: Path) -> str | None:
    try:
        raw = await asyncio.to_thread(path.read_bytes)
    except OSError:
        return None
    return decode(raw)
