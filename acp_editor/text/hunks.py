"""Diff hunks that an editor draws inline and that a person accepts or rejects one at a time.

Hunks are about *lines*, as people read a diff, with the line model LSP uses: a text is its
lines joined by line breaks, so ``"a\\n"`` is the two lines ``"a"`` and ``""``. That model makes
"the last line has no newline" an ordinary line change rather than a special flag, and keeps
every hunk's line numbers equal to the editor's.

Line endings are the file's business, not the hunk's: a hunk holds line contents only, and
``apply_hunks`` keeps every untouched line's own ending and gives inserted lines the file's
dominant one. A change that only swaps line endings therefore produces no hunk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from acp_editor.text.edits import Opcode, line_opcodes
from acp_editor.text.positions import Position, Range, utf16_len

__all__ = ["Hunk", "apply_hunks", "compute_hunks", "dominant_newline", "unified_line_counts"]

_BREAK = re.compile(r"(\r\n|\r|\n)")


def _lines(text: str) -> list[tuple[str, str]]:
    """(content, ending) per LSP line; the last line's ending is always empty."""
    parts = _BREAK.split(text)
    return list(zip(parts[0::2], [*parts[1::2], ""], strict=True))


@dataclass(frozen=True)
class Hunk:
    """One contiguous change: ``old_lines`` at ``old_start`` become ``new_lines``."""

    old_start: int
    """0-based line in the old text where the removed lines start (or the insertion point)."""
    old_lines: list[str]
    """Removed lines, without line endings; empty for a pure insertion."""
    new_start: int
    """0-based line in the new text where the added lines start."""
    new_lines: list[str]
    """Added lines, without line endings; empty for a pure deletion."""

    @property
    def old_range(self) -> Range:
        """The span of the removed lines in the old text; empty at the insertion point.

        It ends at the end of the last removed line's content, so it is computable from the
        hunk alone. An insertion after the last line points one line past the end of the file,
        which LSP clamps to the end of the document.
        """
        start = Position(line=self.old_start, character=0)
        if not self.old_lines:
            return Range(start=start, end=Position(line=self.old_start, character=0))
        last = self.old_start + len(self.old_lines) - 1
        end = Position(line=last, character=utf16_len(self.old_lines[-1]))
        return Range(start=start, end=end)

    def to_json(self) -> dict[str, Any]:
        """The wire shape, camelCase as in the editor protocol."""
        return {
            "oldStart": self.old_start,
            "oldLines": list(self.old_lines),
            "newStart": self.new_start,
            "newLines": list(self.new_lines),
            "range": self.old_range,
        }


def _groups(opcodes: list[Opcode], context: int) -> list[tuple[int, int, int, int]]:
    """Line spans (old start, old end, new start, new end) of hunks with ``context`` lines.

    Changes closer than ``2 * context`` unchanged lines share a hunk, since their context
    would otherwise overlap and accepting one would rewrite the other's lines.
    """
    spans: list[list[int]] = []
    for _tag, i1, i2, j1, j2 in opcodes:
        if spans and i1 - spans[-1][1] <= 2 * context and context > 0:
            spans[-1][1], spans[-1][3] = i2, j2
        else:
            spans.append([i1, i2, j1, j2])
    return [(i1, i2, j1, j2) for i1, i2, j1, j2 in spans]


def compute_hunks(old: str, new: str, context: int = 0) -> list[Hunk]:
    """The hunks turning ``old`` into ``new``, in order.

    With ``context=0`` each changed region is its own hunk, so each can be reviewed on its own.
    With ``context > 0`` each hunk also carries up to that many unchanged lines on each side
    (in both ``old_lines`` and ``new_lines``).
    """
    old_text = [content for content, _ in _lines(old)]
    new_text = [content for content, _ in _lines(new)]
    hunks = []
    for i1, i2, j1, j2 in _groups(line_opcodes(old_text, new_text), max(context, 0)):
        before = min(context, i1) if context > 0 else 0
        after = min(context, len(old_text) - i2) if context > 0 else 0
        a1, a2, b1, b2 = i1 - before, i2 + after, j1 - before, j2 + after
        hunks.append(Hunk(a1, old_text[a1:a2], b1, new_text[b1:b2]))
    return hunks


def dominant_newline(text: str, default: str = "\n") -> str:
    """The line ending used most in ``text`` (ties favour ``\\n``), or ``default`` if none."""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    best = max(lf, crlf, cr)
    if best == 0:
        return default
    return "\n" if lf == best else "\r\n" if crlf == best else "\r"


def apply_hunks(
    old: str, hunks: Sequence[Hunk], accepted: AbstractSet[int], newline: str | None = None
) -> str:
    """``old`` with only the hunks whose indexes are in ``accepted`` applied.

    Rejected hunks leave their lines exactly as in ``old``. Untouched lines keep their own
    endings; inserted lines get ``newline``, by default the dominant ending of ``old`` (``\\n``
    when ``old`` has no line break). The result's last line never gets an ending: in the LSP
    line model a final newline is an empty last line, which hunks add or remove like any other.
    Raises ``ValueError`` when hunks overlap or do not match ``old``, or for an unknown
    ``newline``.
    """
    if newline not in (None, "\n", "\r\n", "\r"):
        raise ValueError(f"not a line ending: {newline!r}")
    lines = _lines(old)
    eol = newline if newline is not None else dominant_newline(old)
    out: list[tuple[str, str]] = []
    cursor = 0
    for number, hunk in enumerate(hunks):
        if hunk.old_start < cursor:
            raise ValueError(f"hunk {number} overlaps or is out of order")
        end = hunk.old_start + len(hunk.old_lines)
        if [content for content, _ in lines[hunk.old_start : end]] != hunk.old_lines:
            raise ValueError(f"hunk {number} does not match the text at line {hunk.old_start}")
        out.extend(lines[cursor : hunk.old_start])
        out.extend(lines[hunk.old_start : end] if number not in accepted else [])
        if number in accepted:
            out.extend((content, eol) for content in hunk.new_lines)
        cursor = end
    out.extend(lines[cursor:])
    return _join(out, eol)


def _join(lines: list[tuple[str, str]], eol: str) -> str:
    """The text of (content, ending) lines; the last loses its ending, the others keep one.

    Where hunks meet untouched lines, a lone ``\r`` can land right before a ``\n`` that
    starts an empty line, and the two would read back as one ``\r\n``, merging the lines.
    That ``\r`` becomes ``\r\n`` instead, the only ending ever rewritten.
    """
    chunks: list[str] = []
    for content, ending in lines[:-1]:
        if chunks and not content and (ending or eol) == "\n" and chunks[-1].endswith("\r"):
            chunks[-1] += "\n"
        chunks.append(content + (ending or eol))
    if lines:
        chunks.append(lines[-1][0])
    return "".join(chunks)


def unified_line_counts(old: str, new: str) -> tuple[int, int]:
    """(added, removed) line counts, for summaries such as "+3 -1"."""
    added = removed = 0
    for hunk in compute_hunks(old, new):
        added += len(hunk.new_lines)
        removed += len(hunk.old_lines)
    return added, removed
