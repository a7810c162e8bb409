"""Coordinate conversions: ACP paths and 1-based lines to LSP URIs, 0-based lines, UTF-16 columns.

Paths are POSIX only: the sidecar does not interpret Windows drive letters or UNC shares, and
the tables check that it leaves them alone rather than half-supporting them.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from acp_editor.text.positions import (
    LineIndex,
    acp_line_to_lsp,
    index_to_utf16_col,
    location_to_lsp,
    lsp_line_to_acp,
    normalize_uri,
    offset_range,
    offset_to_position,
    path_to_uri,
    position_to_offset,
    split_lines,
    uri_to_path,
    utf16_col_to_index,
    utf16_len,
)

PATHS = [
    pytest.param("/tmp/a.py", "file:///tmp/a.py", id="plain"),
    pytest.param("/", "file:///", id="root"),
    pytest.param("/my docs/a b.py", "file:///my%20docs/a%20b.py", id="spaces"),
    pytest.param("/src/#1.py", "file:///src/%231.py", id="hash"),
    pytest.param("/src/100%.py", "file:///src/100%25.py", id="percent"),
    pytest.param("/src/a%20b", "file:///src/a%2520b", id="percent that looks encoded"),
    pytest.param("/src/what?.py", "file:///src/what%3F.py", id="question mark"),
    pytest.param("/src/a;b+c@d:e", "file:///src/a%3Bb%2Bc%40d%3Ae", id="reserved characters"),
    pytest.param("/src/~a_b-c.d", "file:///src/~a_b-c.d", id="unreserved stay"),
    pytest.param("/x/é.py", "file:///x/%C3%A9.py", id="latin accent"),
    pytest.param("/x/中文/😀.txt", "file:///x/%E4%B8%AD%E6%96%87/%F0%9F%98%80.txt", id="cjk emoji"),
    pytest.param("/x/\udcff.bin", "file:///x/%FF.bin", id="not utf-8 (surrogate escape)"),
    pytest.param("/C:/x", "file:///C%3A/x", id="drive-letter-like is just a path"),
    pytest.param("//double/slash", "file:////double/slash", id="leading double slash"),
]


@pytest.mark.parametrize(("path", "uri"), PATHS)
def test_path_to_uri_and_back(path: str, uri: str) -> None:
    assert path_to_uri(path) == uri
    assert uri_to_path(uri) == path


@pytest.mark.parametrize("path", ["", "a.py", "src/a.py", "./a", "~/a", "C:\\x"])
def test_path_to_uri_rejects_relative_paths(path: str) -> None:
    with pytest.raises(ValueError, match="absolute"):
        path_to_uri(path)


@given(st.text().map(lambda s: "/" + s))
def test_any_absolute_path_round_trips(path: str) -> None:
    uri = path_to_uri(path)
    assert uri.isascii()
    assert uri_to_path(uri) == path


def test_path_with_a_stray_surrogate_still_gets_a_uri() -> None:
    assert path_to_uri("/x/\ud800") == "file:///x/%ED%A0%80"


@pytest.mark.parametrize(
    ("uri", "path"),
    [
        pytest.param("file:///a%20b/c.py", "/a b/c.py", id="encoded space"),
        pytest.param("file:///a%c3%a9", "/aé", id="lowercase hex"),
        pytest.param("file:///a b", "/a b", id="unencoded space (lenient)"),
        pytest.param("file:///a:b/@c", "/a:b/@c", id="unencoded reserved (as Neovim sends)"),
        pytest.param("file:///a;b", "/a;b", id="semicolon is not a parameter"),
        pytest.param("file:///a%20b#frag", "/a b", id="fragment ignored"),
        pytest.param("file:///a?q=1", "/a", id="query ignored"),
        pytest.param("file://localhost/etc/x", "/etc/x", id="localhost is local"),
        pytest.param("file:/etc/x", "/etc/x", id="no authority"),
        pytest.param("FILE:///etc/x", "/etc/x", id="scheme case-insensitive"),
        pytest.param("file:///C:/x", "/C:/x", id="no drive-letter rewriting"),
        pytest.param("file://server/share/x", None, id="remote host"),
        pytest.param("untitled:Untitled-1", None, id="untitled"),
        pytest.param("vscode-notebook-cell:/a.ipynb#W0", None, id="notebook cell"),
        pytest.param("https://example.com/a.py", None, id="http"),
        pytest.param("file:", None, id="no path"),
        pytest.param("", None, id="empty"),
        pytest.param("file://[bad/x", None, id="unparsable"),
    ],
)
def test_uri_to_path(uri: str, path: str | None) -> None:
    assert uri_to_path(uri) == path


@pytest.mark.parametrize(
    ("uri", "normal"),
    [
        ("file:///a%3ab", "file:///a%3Ab"),
        ("file:///a:b", "file:///a%3Ab"),
        ("file://localhost/x%20y", "file:///x%20y"),
        ("file:///%E4%B8%AD", "file:///%E4%B8%AD"),
        ("untitled:Untitled-1", "untitled:Untitled-1"),
    ],
)
def test_normalize_uri(uri: str, normal: str) -> None:
    assert normalize_uri(uri) == normal


@pytest.mark.parametrize(
    ("acp", "lsp"), [(None, None), (0, 0), (1, 0), (2, 1), (100, 99), (-1, 0), (-50, 0)]
)
def test_acp_line_to_lsp(acp: int | None, lsp: int | None) -> None:
    assert acp_line_to_lsp(acp) == lsp


@pytest.mark.parametrize(("lsp", "acp"), [(0, 1), (1, 2), (99, 100), (-3, 1)])
def test_lsp_line_to_acp(lsp: int, acp: int) -> None:
    assert lsp_line_to_acp(lsp) == acp


def caret(line: int) -> dict[str, Any]:
    return {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        pytest.param({"path": "/a.py", "line": 10}, ("file:///a.py", caret(9)), id="line 10"),
        pytest.param({"path": "/a.py", "line": 1}, ("file:///a.py", caret(0)), id="line 1"),
        pytest.param({"path": "/a.py", "line": 0}, ("file:///a.py", caret(0)), id="line 0 is top"),
        pytest.param({"path": "/a.py", "line": -4}, ("file:///a.py", caret(0)), id="negative"),
        pytest.param({"path": "/a.py"}, ("file:///a.py", None), id="missing line"),
        pytest.param({"path": "/a.py", "line": None}, ("file:///a.py", None), id="null line"),
        pytest.param({"path": "/a.py", "line": "3"}, ("file:///a.py", None), id="string line"),
        pytest.param({"path": "/a.py", "line": True}, ("file:///a.py", None), id="bool line"),
        pytest.param(
            {"path": "/my src/é.py", "line": 3, "_meta": {"x": 1}},
            ("file:///my%20src/%C3%A9.py", caret(2)),
            id="encoded path, extra fields ignored",
        ),
        pytest.param({"line": 3}, None, id="no path"),
        pytest.param({"path": 7, "line": 3}, None, id="path not a string"),
        pytest.param({"path": "src/a.py", "line": 3}, None, id="relative path"),
        pytest.param({"path": "", "line": 3}, None, id="empty path"),
    ],
)
def test_location_to_lsp(location: dict[str, Any], expected: object) -> None:
    assert location_to_lsp(location) == expected


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("", 0),
        ("abc", 3),
        ("é", 1),
        ("中文", 2),
        ("😀", 2),
        ("a😀b", 4),
        ("👍🏽", 4),
        ("e\u0301", 2),
    ],
)
def test_utf16_len(text: str, units: int) -> None:
    assert utf16_len(text) == units


@pytest.mark.parametrize(
    ("line", "col", "index"),
    [
        pytest.param("abc", 2, 2, id="ascii"),
        pytest.param("abc", 9, 3, id="ascii past end clamps"),
        pytest.param("abc", -1, 0, id="negative clamps"),
        pytest.param("éa", 1, 1, id="accent is one unit"),
        pytest.param("中文x", 2, 2, id="cjk is one unit each"),
        pytest.param("😀x", 2, 1, id="after emoji"),
        pytest.param("😀x", 3, 2, id="end after emoji"),
        pytest.param("😀x", 1, 0, id="inside surrogate pair rounds down"),
        pytest.param("a😀😀b", 5, 3, id="two emoji"),
        pytest.param("a😀😀b", 4, 2, id="inside second pair"),
        pytest.param("😀", 7, 1, id="non-ascii past end clamps"),
    ],
)
def test_utf16_col_to_index(line: str, col: int, index: int) -> None:
    assert utf16_col_to_index(line, col) == index


@pytest.mark.parametrize(
    ("line", "index", "col"),
    [("abc", 2, 2), ("é中😀x", 3, 4), ("é中😀x", 4, 5), ("😀", 5, 2), ("😀", -1, 0), ("", 0, 0)],
)
def test_index_to_utf16_col(line: str, index: int, col: int) -> None:
    assert index_to_utf16_col(line, index) == col


@given(st.text(), st.integers(-3, 40))
def test_columns_round_trip(line: str, index: int) -> None:
    clamped = min(max(index, 0), len(line))
    assert utf16_col_to_index(line, index_to_utf16_col(line, index)) == clamped
    assert index_to_utf16_col(line, utf16_col_to_index(line, index)) <= max(index, 0)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a\n"]),
        ("a\r\nb\rc\nd", ["a\r\n", "b\r", "c\n", "d"]),
        ("\r\r\n\n", ["\r", "\r\n", "\n"]),
        ("a\x0cb\x0bc\u2028d\x85e", ["a\x0cb\x0bc\u2028d\x85e"]),
    ],
)
def test_split_lines(text: str, lines: list[str]) -> None:
    assert split_lines(text) == lines


@pytest.mark.parametrize(
    ("text", "count"), [("", 1), ("a", 1), ("a\n", 2), ("a\r\nb", 2), ("\r\r\n\n", 4)]
)
def test_line_count(text: str, count: int) -> None:
    assert LineIndex(text).line_count == count


DOC = "ab\r\né😀x\rlast\n中"

POSITIONS = [
    pytest.param(0, 0, 0, id="start"),
    pytest.param(0, 2, 2, id="end of first line"),
    pytest.param(0, 99, 2, id="past end of CRLF line clamps before the break"),
    pytest.param(1, 0, 4, id="after CRLF"),
    pytest.param(1, 1, 5, id="after accent"),
    pytest.param(1, 3, 6, id="after emoji"),
    pytest.param(1, 2, 5, id="inside emoji rounds down"),
    pytest.param(1, 4, 7, id="end of line before lone CR"),
    pytest.param(2, 0, 8, id="after lone CR"),
    pytest.param(3, 1, 14, id="last line after cjk"),
    pytest.param(4, 0, 14, id="line past end is end of document"),
    pytest.param(-1, 5, 0, id="negative line is start"),
    pytest.param(2, -3, 8, id="negative character is line start"),
]


@pytest.mark.parametrize(("line", "character", "offset"), POSITIONS)
def test_position_to_offset(line: int, character: int, offset: int) -> None:
    assert position_to_offset(DOC, line, character) == offset


@pytest.mark.parametrize(
    ("offset", "line", "character"),
    [
        (0, 0, 0),
        (2, 0, 2),
        (3, 0, 2),  # between \r and \n: LSP has no position there, so the line end
        (4, 1, 0),
        (6, 1, 3),
        (8, 2, 0),
        (13, 3, 0),
        (14, 3, 1),
        (99, 3, 1),
        (-5, 0, 0),
    ],
)
def test_offset_to_position(offset: int, line: int, character: int) -> None:
    assert offset_to_position(DOC, offset) == {"line": line, "character": character}


def test_offset_range() -> None:
    assert offset_range(DOC, 5, 9) == {
        "start": {"line": 1, "character": 1},
        "end": {"line": 2, "character": 1},
    }
    assert offset_range("", 0, 0) == {
        "start": {"line": 0, "character": 0},
        "end": {"line": 0, "character": 0},
    }
    with pytest.raises(ValueError, match="after its end"):
        offset_range(DOC, 3, 2)


def test_document_ending_in_a_break_has_an_empty_last_line() -> None:
    assert offset_to_position("a\r\n", 3) == {"line": 1, "character": 0}
    assert position_to_offset("a\r\n", 1, 5) == 3


LINE_TEXT = st.lists(st.sampled_from(["a", "é", "中", "😀", "\n", "\r\n", "\r", " "])).map("".join)


@given(LINE_TEXT, st.integers(0, 30))
def test_offset_position_round_trip(text: str, offset: int) -> None:
    offset = min(offset, len(text))
    position = offset_to_position(text, offset)
    back = position_to_offset(text, position["line"], position["character"])
    inside_crlf = 0 < offset < len(text) and text[offset - 1 : offset + 1] == "\r\n"
    assert back == (offset - 1 if inside_crlf else offset)
