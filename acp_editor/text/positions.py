"""Where ACP coordinates meet LSP coordinates, and nowhere else.

ACP speaks absolute file paths and 1-based lines; LSP speaks ``file://`` URIs, 0-based lines and
columns counted in UTF-16 code units. Converting ad hoc at call sites is how off-by-one and
emoji-column bugs creep in, so every conversion lives here, is pure, and is table-tested.

Paths are POSIX paths: the sidecar runs beside the editor on Linux or macOS. Windows drive
letters and UNC shares are deliberately not interpreted (``/C:/x`` is just a POSIX path).

Lines follow LSP: ``\\n``, ``\\r\\n`` and a lone ``\\r`` all end a line, and a text ending in a
line break has one more, empty, line after it. Python's ``str.splitlines`` is not used because
it also breaks on form feeds, ``\\u2028`` and others, which editors treat as ordinary characters.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any, TypedDict
from urllib.parse import quote, unquote_to_bytes, urlsplit

__all__ = [
    "LineIndex",
    "Position",
    "Range",
    "acp_line_to_lsp",
    "index_to_utf16_col",
    "location_to_lsp",
    "lsp_line_to_acp",
    "normalize_uri",
    "offset_range",
    "offset_to_position",
    "path_to_uri",
    "position_to_offset",
    "split_lines",
    "uri_to_path",
    "utf16_col_to_index",
    "utf16_len",
]


class Position(TypedDict):
    """An LSP ``Position``: a 0-based line and a UTF-16 column."""

    line: int
    character: int


class Range(TypedDict):
    """An LSP ``Range``; ``end`` is exclusive."""

    start: Position
    end: Position


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines with their endings kept, broken where LSP breaks them (see the module docstring).

    Unlike ``str.splitlines`` a ``\\r\\n`` is never split and no other character ends a line.
    ``''.join(split_lines(t)) == t`` always holds.
    """
    lines: list[str] = []
    start = 0
    for match in _LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


# --- paths and URIs ---------------------------------------------------------------------------


def path_to_uri(path: str) -> str:
    """The ``file://`` URI of an absolute POSIX path.

    Everything except unreserved characters and ``/`` is percent-encoded (as VS Code does), so
    spaces, ``#``, ``?``, ``%`` and non-ASCII survive the trip. The path is encoded through
    ``os.fsencode`` so that names which are not valid UTF-8 (held as surrogate escapes) still
    round-trip. A lone surrogate that is no such escape (JSON allows ``"\\ud800"``) names no
    file on disk; it is still encoded rather than raised on. Raises ``ValueError`` for a
    relative path: a URI needs an anchor.
    """
    if not path.startswith("/"):
        raise ValueError(f"not an absolute path: {path!r}")
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "surrogatepass")
    return "file://" + quote(raw, safe="/")


def uri_to_path(uri: str) -> str | None:
    """The local path of a ``file://`` URI, or None when the URI names no local file.

    None for other schemes (``untitled:``, ``vscode-notebook-cell:``...) and for a remote host.
    ``localhost`` counts as local, as RFC 8089 says. Query and fragment are ignored.
    """
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = os.fsdecode(unquote_to_bytes(parts.path))
    return path if path.startswith("/") else None


def normalize_uri(uri: str) -> str:
    """One spelling per file, so URIs from the editor and from ``path_to_uri`` compare equal.

    Editors differ in what they percent-encode (``:``, ``@``, upper/lower hex), so a URI is only
    a safe dictionary key after decoding and re-encoding. Non-file URIs come back unchanged.
    """
    path = uri_to_path(uri)
    return uri if path is None else path_to_uri(path)


# --- lines --------------------------------------------------------------------------------------


def acp_line_to_lsp(line: int | None) -> int | None:
    """ACP's 1-based line to LSP's 0-based one; None (no line given) stays None.

    Agents send ``line: 0`` meaning "the top", and a few send negatives: both clamp to 0
    rather than pointing before the file.
    """
    if line is None:
        return None
    return max(line - 1, 0)


def lsp_line_to_acp(line: int) -> int:
    """LSP's 0-based line to ACP's 1-based one."""
    return max(line, 0) + 1


def location_to_lsp(location: Mapping[str, Any]) -> tuple[str, Range | None] | None:
    """An ACP ``ToolCallLocation`` as a URI plus a caret range at the start of its line.

    The range is None when the location has no line (the file as a whole). Returns None for a
    location the sidecar cannot show: no string path, or a relative one. A non-integer line
    is treated as absent rather than rejecting the whole location.
    """
    path = location.get("path")
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    raw = location.get("line")
    line = acp_line_to_lsp(raw if isinstance(raw, int) and not isinstance(raw, bool) else None)
    if line is None:
        return path_to_uri(path), None
    caret = Position(line=line, character=0)
    return path_to_uri(path), Range(start=caret, end=Position(line=line, character=0))


# --- columns ------------------------------------------------------------------------------------


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: characters beyond the BMP (emoji) count twice."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_col_to_index(line_text: str, col: int) -> int:
    """The string index of a UTF-16 column in one line (without its line ending).

    Clamped to ``[0, len(line_text)]``: LSP says a column past the end means the end. A column
    that falls between the two halves of a surrogate pair rounds down to the character's start.
    """
    if col <= 0:
        return 0
    if line_text.isascii():
        return min(col, len(line_text))
    units = 0
    for index, char in enumerate(line_text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > col:
            return index
    return len(line_text)


def index_to_utf16_col(line_text: str, index: int) -> int:
    """The UTF-16 column of a string index in one line, clamped to the line."""
    return utf16_len(line_text[: max(index, 0)])


# --- offsets in a whole document ----------------------------------------------------------------


class LineIndex:
    """Line starts of one text, so many offset/position conversions cost a bisect each.

    The free functions below build one per call; code converting many positions in the same
    text (the edit and hunk computations) keeps one around instead.
    """

    __slots__ = ("_ends", "_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0]
        self._ends: list[int] = []
        for match in _LINE_BREAK.finditer(text):
            self._ends.append(match.start())
            self._starts.append(match.end())
        self._ends.append(len(text))

    @property
    def line_count(self) -> int:
        """Lines as LSP counts them: never 0, and one more after a final line break."""
        return len(self._starts)

    def line_text(self, line: int) -> str:
        """The content of a line without its ending."""
        return self.text[self._starts[line] : self._ends[line]]

    def position(self, offset: int) -> Position:
        """The LSP position of a string offset; one inside a ``\\r\\n`` maps to the line end."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        end = min(offset, self._ends[line])
        return Position(line=line, character=utf16_len(self.text[start:end]))

    def offset(self, line: int, character: int) -> int:
        """The string offset of an LSP position, clamped to the document as LSP prescribes."""
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        return self._starts[line] + utf16_col_to_index(self.line_text(line), character)


def offset_to_position(text: str, offset: int) -> Position:
    """The LSP position of a string offset in ``text`` (clamped to the document)."""
    return LineIndex(text).position(offset)


def offset_range(text: str, start: int, end: int) -> Range:
    """The LSP range between two string offsets in ``text`` (each clamped to the document).

    Raises ``ValueError`` when ``start > end``: a reversed range is a caller bug, and silently
    swapping it would hide which end was meant.
    """
    if start > end:
        raise ValueError(f"range start {start} is after its end {end}")
    index = LineIndex(text)
    return Range(start=index.position(start), end=index.position(end))


def position_to_offset(text: str, line: int, character: int) -> int:
    """The string offset of an LSP position in ``text``, clamped to the document."""
    return LineIndex(text).offset(line, character)
