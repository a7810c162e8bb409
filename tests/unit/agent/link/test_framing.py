"""Framing edge cases: split reads, giant lines, invalid UTF-8, blank lines, several per read."""

from __future__ import annotations

import json

import pytest

from acp_editor.agent.link.framing import BadLine, LineSplitter, encode


def feed_all(splitter: LineSplitter, *chunks: bytes) -> list[object]:
    out: list[object] = []
    for chunk in chunks:
        out.extend(splitter.feed(chunk))
    out.extend(splitter.finish())
    return out


def values(items: list[object]) -> list[object]:
    return [("bad", i.reason.split(" ")[0]) if isinstance(i, BadLine) else i for i in items]


MSG = {"jsonrpc": "2.0", "method": "x", "params": {"text": "a\nb é"}}
LINE = encode(MSG)


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        pytest.param([LINE], [MSG], id="one message"),
        pytest.param([LINE + LINE], [MSG, MSG], id="two messages in one read"),
        pytest.param([LINE[:5], LINE[5:17], LINE[17:]], [MSG], id="split across reads"),
        pytest.param([bytes([b]) for b in LINE], [MSG], id="one byte per read"),
        pytest.param([b"\n\n" + LINE + b"\r\n \n"], [MSG], id="blank lines skipped"),
        pytest.param([LINE.rstrip(b"\n")], [MSG], id="last line without newline at EOF"),
        pytest.param([b'{"a":1}\r\n'], [{"a": 1}], id="CRLF line ending"),
        pytest.param([b"not json\n" + LINE], [("bad", "not"), MSG], id="garbage then message"),
        pytest.param([b"\xff\xfe{}\n" + LINE], [("bad", "invalid"), MSG], id="invalid UTF-8"),
        pytest.param([b"[1,2]\n"], [[1, 2]], id="JSON that is not a message still decodes"),
        pytest.param([b"null\n \nfalse\n"], [None, False], id="null is a value, not a blank"),
        pytest.param(
            ["é".encode()[:1], "é".encode()[1:] + b'"\n'], [("bad", "not")], id="split char"
        ),
    ],
)
def test_splitter(chunks: list[bytes], expected: list[object]) -> None:
    assert values(feed_all(LineSplitter(), *chunks)) == expected


def test_multibyte_character_split_across_reads_decodes() -> None:
    raw = json.dumps({"t": "héllo"}, ensure_ascii=False).encode() + b"\n"
    cut = raw.index("é".encode()) + 1
    assert values(feed_all(LineSplitter(), raw[:cut], raw[cut:])) == [{"t": "héllo"}]


def test_ten_megabyte_line_in_64k_reads() -> None:
    big = {"jsonrpc": "2.0", "method": "m", "params": {"text": "x" * (10 * 1024 * 1024)}}
    data = encode(big) + LINE
    chunks = [data[i : i + 65536] for i in range(0, len(data), 65536)]
    out = feed_all(LineSplitter(), *chunks)
    assert len(out) == 2
    assert out == [big, MSG]


@pytest.mark.parametrize("with_newline_in_same_read", [True, False])
def test_line_over_the_limit_is_dropped_and_the_stream_recovers(
    with_newline_in_same_read: bool,
) -> None:
    splitter = LineSplitter(max_line=1000)
    long = b'{"x":"' + b"y" * 5000 + b'"}\n'
    chunks = (
        [long + LINE]
        if with_newline_in_same_read
        else [long[:600], long[600:3000], long[3000:] + LINE]
    )
    out = feed_all(splitter, *chunks)
    assert isinstance(out[0], BadLine) and "longer than 1000" in out[0].reason
    assert out[0].size == len(long) - 1
    assert out[1] == MSG
    assert len(out) == 2


def test_encode_is_one_line_even_with_newlines_in_strings() -> None:
    data = encode({"text": "a\nb\r\nc\u2028"})
    assert data.count(b"\n") == 1 and data.endswith(b"\n")
    assert json.loads(data) == {"text": "a\nb\r\nc\u2028"}
