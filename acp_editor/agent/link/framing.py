"""Newline-delimited JSON framing, fed with whatever bytes a read returned.

ACP over stdio is one JSON object per line. Reads split and join lines arbitrarily, so the
splitter keeps the unfinished tail. A line longer than ``max_line`` is dropped whole (and
reported) instead of growing memory without bound; bytes that are not UTF-8 JSON are reported
and skipped. Nothing here raises on bad input: a broken line costs that line only.

Each line comes out as its decoded JSON value as it is (no wrapper: one is made for every line of
a flood), or as a ``BadLine``, which no JSON value can be.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from acp_editor import jsonio

DEFAULT_MAX_LINE = 64 * 1024 * 1024


@dataclass(frozen=True)
class BadLine:
    """A line that could not be decoded; ``reason`` and a ``sample`` of its start go to the log."""

    reason: str
    sample: bytes
    size: int


class LineSplitter:
    """Turns a byte stream into JSON values and ``BadLine`` items, one per non-blank line."""

    def __init__(self, max_line: int = DEFAULT_MAX_LINE) -> None:
        self._max_line = max_line
        self._parts: list[bytes] = []
        self._pending = 0
        # After an oversized line we discard bytes until the next newline.
        self._skipping = False
        self._skipped = 0
        self._skip_sample = b""

    def feed(self, data: bytes) -> Iterator[Any]:
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                self._keep(data[start:])
                return
            piece = data[start:nl]
            start = nl + 1
            if self._skipping:
                size = self._skipped + len(piece)
                sample = self._skip_sample
                self._skipping, self._skipped, self._skip_sample = False, 0, b""
                yield BadLine(f"line longer than {self._max_line} bytes dropped", sample, size)
                continue
            if self._parts:
                self._parts.append(piece)
                line = b"".join(self._parts)
                self._parts, self._pending = [], 0
            else:
                line = piece
            if len(line) > self._max_line:
                yield BadLine(
                    f"line longer than {self._max_line} bytes dropped", line[:80], len(line)
                )
                continue
            item = decode_line(line)
            if item is not BLANK:
                yield item

    def finish(self) -> Iterator[Any]:
        """End of stream: a final line without a newline still counts."""
        if self._skipping:
            yield BadLine(
                f"line longer than {self._max_line} bytes dropped",
                self._skip_sample,
                self._skipped,
            )
        elif self._parts:
            line = b"".join(self._parts)
            item = decode_line(line)
            if item is not BLANK:
                yield item
        self._parts, self._pending, self._skipping = [], 0, False

    def _keep(self, tail: bytes) -> None:
        if not tail:
            return
        if self._skipping:
            self._skipped += len(tail)
            return
        self._parts.append(tail)
        self._pending += len(tail)
        if self._pending > self._max_line:
            joined = b"".join(self._parts)
            self._skip_sample = joined[:80]
            self._skipped = len(joined)
            self._skipping = True
            self._parts, self._pending = [], 0


BLANK = object()
"""What ``decode_line`` gives for a blank line (``None`` is JSON's ``null``)."""


def decode_line(line: bytes) -> Any:
    """One line's JSON value, a ``BadLine``, or ``BLANK`` for a blank line (and a lone
    ``\\r``), which is skipped silently."""
    try:
        return jsonio.loads(line)  # JSON allows the whitespace around it (CRLF's \r too)
    except (UnicodeDecodeError, ValueError, RecursionError):
        pass  # rare: worked out again below, to say why
    stripped = line.strip()
    if not stripped:
        return BLANK
    try:
        return jsonio.loads(stripped)
    except UnicodeDecodeError as exc:
        return BadLine(f"invalid UTF-8 at byte {exc.start}", stripped[:80], len(stripped))
    except (ValueError, RecursionError) as exc:
        return BadLine(f"not JSON ({exc.__class__.__name__})", stripped[:80], len(stripped))


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line (newlines inside strings are escaped)."""
    return jsonio.dumps(message) + b"\n"
