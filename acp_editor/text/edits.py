"""The smallest LSP text edits that turn one text into another.

When the agent rewrites a file the editor has open, replacing the whole buffer would move the
cursor, drop marks and folds, and make undo jump. Sending only what changed keeps all of that,
so the diff is done in two steps: lines first (``difflib``), then, inside each changed region,
the characters the old and new regions share at either end are left alone.

Every range is against the *original* text, as ``workspace/applyEdit`` expects, with UTF-16
columns. No edit starts or ends between the ``\\r`` and ``\\n`` of a line break: LSP has no
position there, so such an edit could not be expressed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any, TypedDict

from acp_editor.text.positions import LineIndex, Range, split_lines

__all__ = ["Opcode", "TextEdit", "apply_edits", "line_opcodes", "minimal_edits"]

Opcode = tuple[str, int, int, int, int]
"""A ``difflib`` opcode that is not ``equal``: (tag, old start, old end, new start, new end)."""


class TextEdit(TypedDict):
    """An LSP ``TextEdit``."""

    range: Range
    newText: str


def line_opcodes(old: Sequence[str], new: Sequence[str]) -> list[Opcode]:
    """The changed regions between two lists of lines, in order.

    Common leading and trailing lines are cut off first: that is the usual shape of an agent's
    edit (a few changes in a big file) and it keeps ``SequenceMatcher`` working on a small
    middle. ``autojunk`` stays on: in a large middle it stops blank lines and lone braces from
    making the matcher quadratic, at worst giving a slightly larger (still correct) diff.
    """
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid = old[head : len(old) - tail]
    new_mid = new[head : len(new) - tail]
    if not old_mid and not new_mid:
        return []
    matcher = SequenceMatcher(None, old_mid, new_mid)
    return [
        (tag, i1 + head, i2 + head, j1 + head, j2 + head)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _splits_crlf(text: str, offset: int) -> bool:
    return 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"


def _trimmed(old: str, start: int, end: int, new: str) -> tuple[int, int, str] | None:
    """Shrink the replacement of ``old[start:end]`` by ``new`` to the part that differs.

    Returns the shrunk (start, end, new text), or None when nothing differs.
    """
    region = old[start:end]
    limit = min(len(region), len(new))
    prefix = 0
    while prefix < limit and region[prefix] == new[prefix]:
        prefix += 1
    if _splits_crlf(old, start + prefix):
        prefix -= 1
    suffix = 0
    limit -= prefix
    while suffix < limit and region[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    if _splits_crlf(old, end - suffix):
        suffix -= 1
    cut_start, cut_end = start + prefix, end - suffix
    text = new[prefix : len(new) - suffix]
    if cut_start == cut_end and not text:
        return None
    return cut_start, cut_end, text


def minimal_edits(old: str, new: str) -> list[TextEdit]:
    """Sorted, non-overlapping edits against ``old`` whose application gives exactly ``new``.

    A region that replaces as many lines as it removes is diffed line by line, so changing a
    word on each of three lines yields three small edits rather than one spanning them.
    """
    if old == new:
        return []
    old_lines, new_lines = split_lines(old), split_lines(new)
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    pieces: list[tuple[int, int, str]] = []
    for tag, i1, i2, j1, j2 in line_opcodes(old_lines, new_lines):
        if tag == "replace" and i2 - i1 == j2 - j1:
            pairs = [
                (i, i + 1, j, j + 1) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
        else:
            pairs = [(i1, i2, j1, j2)]
        for a1, a2, b1, b2 in pairs:
            piece = _trimmed(old, starts[a1], starts[a2], "".join(new_lines[b1:b2]))
            if piece is not None:
                pieces.append(_not_after_final_newline(old, piece))
    index = LineIndex(old)
    return [
        TextEdit(range=Range(start=index.position(s), end=index.position(e)), newText=text)
        for s, e, text in pieces
    ]


def _not_after_final_newline(old: str, piece: tuple[int, int, str]) -> tuple[int, int, str]:
    """Move an insertion at the very end of a file that ends with a newline to just before
    that newline: ``(end, end, "x\n")`` becomes ``(end - 1, end - 1, "\nx")``.

    Both give the same text, but Neovim 0.11 turns an insertion on the empty line after the
    final newline into an extra blank line at the end of the buffer.
    """
    start, end, text = piece
    if start != len(old) or end != len(old) or not text:
        return piece
    newline = next((n for n in ("\r\n", "\n", "\r") if old.endswith(n)), None)
    if newline is None or not text.endswith(newline):
        return piece
    at = len(old) - len(newline)
    return at, at, newline + text[: -len(newline)]


def apply_edits(text: str, edits: Sequence[Mapping[str, Any]]) -> str:
    """Apply LSP text edits whose ranges all refer to ``text``, as ``workspace/applyEdit`` does.

    Edits may come in any order; inserts at the same position keep their given order. Raises
    ``ValueError`` for overlapping ranges, which LSP forbids and which have no single meaning.
    """
    index = LineIndex(text)
    spans: list[tuple[int, int, int, str]] = []
    for order, edit in enumerate(edits):
        rng = edit["range"]
        start = index.offset(rng["start"]["line"], rng["start"]["character"])
        end = index.offset(rng["end"]["line"], rng["end"]["character"])
        if start > end:
            raise ValueError(f"edit {order} has its start after its end")
        spans.append((start, end, order, str(edit["newText"])))
    spans.sort()
    out: list[str] = []
    cursor = 0
    for start, end, order, new_text in spans:
        if start < cursor:
            raise ValueError(f"edit {order} overlaps an earlier one")
        out.append(text[cursor:start])
        out.append(new_text)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)
