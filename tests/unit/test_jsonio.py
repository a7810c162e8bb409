"""The hot-path JSON codec: orjson's speed, the standard library's tolerance."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types as lsp

from acp_editor import jsonio


@pytest.mark.parametrize(
    "line",
    [
        b'{"x": NaN, "y": Infinity}',  # not JSON, but json accepts it from a careless agent
        b'{"s": "\\ud800"}',  # a lone surrogate
        json.dumps({"text": "x" * (jsonio.LARGE + 10)}).encode(),  # the large-message path
    ],
)
def test_decodes_whatever_the_standard_library_decodes(line: bytes) -> None:
    got, want = jsonio.loads(line), json.loads(line)
    assert json.dumps(got) == json.dumps(want)


def test_an_integer_beyond_64_bits_is_read_as_javascript_reads_it() -> None:
    assert jsonio.loads(b'{"n": 123456789012345678901234567890}') == {"n": 1.2345678901234568e29}


def test_bad_input_raises_as_the_standard_library_does() -> None:
    with pytest.raises(ValueError):
        jsonio.loads(b'{"a": ')
    with pytest.raises(UnicodeDecodeError):
        jsonio.loads(b'{"a": "\xff"}')


@pytest.mark.parametrize(
    "value",
    [
        {"n": 2**70},
        {"s": "\ud800"},
        {1: "int key"},
        {"text": "line\nbreak", "unicode": "é"},
    ],
)
def test_encodes_one_line_of_valid_json(value: object) -> None:
    data = jsonio.dumps(value)
    assert b"\n" not in data
    assert json.loads(data) == json.loads(json.dumps(value))


def test_typed_values_go_through_the_default() -> None:
    def unstructure(value: object) -> object:
        assert isinstance(value, lsp.Position)
        return {"line": value.line, "character": value.character}

    data = jsonio.dumps({"at": lsp.Position(line=1, character=2)}, default=unstructure)
    assert json.loads(data) == {"at": {"line": 1, "character": 2}}
