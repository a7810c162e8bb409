"""Random bytes into the line reader and the JSON-RPC peer: never an exception, and the link
still works afterwards."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from acp_editor.agent.link.framing import BadLine, LineSplitter
from acp_editor.agent.link.rpc import JsonRpcPeer, Writer

chunks = st.lists(st.binary(max_size=200), max_size=30)
jsonish = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(chunks)
def test_random_bytes_never_crash_the_splitter(data: list[bytes]) -> None:
    splitter = LineSplitter(max_line=256)
    items: list[Any] = []
    for chunk in data:
        items.extend(splitter.feed(chunk))
    items.extend(splitter.finish())
    json_types = (BadLine, dict, list, str, int, float, bool, type(None))
    assert all(isinstance(item, json_types) for item in items)


@settings(max_examples=200, deadline=None)
@given(chunks, st.lists(jsonish, max_size=10))
def test_random_input_never_crashes_the_peer(data: list[bytes], values: list[Any]) -> None:
    async def run() -> None:
        last = {"jsonrpc": "2.0", "id": "last", "result": 1}
        answered = asyncio.Event()

        def write(data: bytes) -> None:
            if last in (json.loads(line) for line in data.splitlines()):
                answered.set()

        async def drain() -> None:
            return None

        peer = JsonRpcPeer("fuzz", Writer(write, drain), max_line=1024)

        async def echo(params: Any) -> Any:
            return params

        peer.on_request("echo", echo)
        peer.on_notification("note", lambda params: None)
        for chunk in data:
            peer.feed(chunk)
        for value in values:  # well-formed JSON of any shape, some of it message-like
            peer.feed(json.dumps(value).encode() + b"\n")
        peer.feed(
            b"\n"
            + json.dumps({"jsonrpc": "2.0", "id": "last", "method": "echo", "params": 1}).encode()
            + b"\n"
        )
        await asyncio.wait_for(answered.wait(), 10)  # the link still answers

    asyncio.run(run())
