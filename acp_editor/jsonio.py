"""JSON in and out of the hot paths: orjson, with the standard library behind it.

Every ``session/update`` an agent sends is decoded here and every change we send an editor is
encoded here, so this is most of the sidecar's CPU under a flood. orjson decodes our messages
about 4.5x and encodes them about 13x faster than ``json`` (bench/README.md). What orjson refuses
and ``json`` accepts (NaN and Infinity from a careless agent, strings with lone surrogates; when
encoding, integers beyond 64 bits and dict keys that are not strings) falls back to ``json``, so
no message is lost to the faster library. One difference stays: orjson decodes an integer beyond
64 bits as the nearest float, which is what JavaScript (most agents and editors) reads anyway.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

LARGE = 1 << 20
"""From about this size (one long string: a file's text, a big diff) ``json`` decodes faster
than orjson, which validates and copies the whole UTF-8 buffer first: 10 MB took 7.3 ms with
``json`` and 11.0 ms with orjson, 1 MB 0.65 ms with either (bench/large.py)."""


def loads(data: bytes | str) -> Any:
    """Raises ``UnicodeDecodeError`` on bytes that are not UTF-8, ``ValueError``
    (``json.JSONDecodeError``) or ``RecursionError`` on bad JSON."""
    if len(data) < LARGE:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # the standard library decides, and says why
    return json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)


def dumps(value: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """Compact UTF-8 JSON (newlines inside strings escaped, so it is one line)."""
    try:
        return orjson.dumps(value, default=default)
    except TypeError:
        # ASCII-only: a lone surrogate becomes an escape, valid JSON either way.
        return json.dumps(value, default=default, separators=(",", ":")).encode("ascii")
