"""The JSON-RPC peer: answers exactly once, ordering, deadlines, cancellation, bad input."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from acp_editor.agent.link.rpc import JsonRpcPeer, Writer
from acp_editor.errors import ConnectionClosed, InvalidParams, RequestTimeout, RpcError


class Wire:
    """Collects what a peer writes, one decoded message per line."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.arrived = asyncio.Event()

    def write(self, data: bytes) -> None:
        for line in data.splitlines():
            self.sent.append(json.loads(line))
        self.arrived.set()

    async def drain(self) -> None:
        return None

    async def next_where(self, pred: Any, timeout: float = 2.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                for msg in self.sent:
                    if pred(msg):
                        return msg
                self.arrived.clear()
                await self.arrived.wait()


def make_peer(**kwargs: Any) -> tuple[JsonRpcPeer, Wire]:
    wire = Wire()
    return JsonRpcPeer("test", Writer(wire.write, wire.drain), **kwargs), wire


def line(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg).encode() + b"\n"


def response_to(req_id: Any) -> Any:
    return lambda m: m.get("id") == req_id and ("result" in m or "error" in m)


@pytest.mark.parametrize("req_id", [7, "7", "0b8e0a52-uuid", 0])
async def test_request_ids_are_echoed_as_sent(req_id: Any) -> None:
    peer, wire = make_peer()

    async def echo(params: Any) -> Any:
        return {"got": params}

    peer.on_request("echo", echo)
    peer.feed(line({"jsonrpc": "2.0", "id": req_id, "method": "echo", "params": {"a": 1}}))
    reply = await wire.next_where(response_to(req_id))
    assert reply == {"jsonrpc": "2.0", "id": req_id, "result": {"got": {"a": 1}}}
    assert type(reply["id"]) is type(req_id)


async def test_int_and_string_ids_with_the_same_digits_are_different_requests() -> None:
    peer, wire = make_peer()
    release = asyncio.Event()

    async def wait(params: Any) -> Any:
        await release.wait()
        return params

    peer.on_request("wait", wait)
    peer.feed(line({"jsonrpc": "2.0", "id": 1, "method": "wait", "params": "int"}))
    peer.feed(line({"jsonrpc": "2.0", "id": "1", "method": "wait", "params": "str"}))
    release.set()
    assert (await wire.next_where(response_to(1)))["result"] == "int"
    assert (await wire.next_where(response_to("1")))["result"] == "str"


async def test_a_slow_request_does_not_hold_up_another() -> None:
    peer, wire = make_peer()
    user_answered = asyncio.Event()

    async def permission(params: Any) -> Any:
        await user_answered.wait()
        return "allowed"

    async def read(params: Any) -> Any:
        return "text"

    peer.on_request("permission", permission)
    peer.on_request("read", read)
    peer.feed(line({"jsonrpc": "2.0", "id": 1, "method": "permission"}))
    peer.feed(line({"jsonrpc": "2.0", "id": 2, "method": "read"}))
    assert (await wire.next_where(response_to(2)))["result"] == "text"
    assert not any(m.get("id") == 1 for m in wire.sent)
    user_answered.set()
    assert (await wire.next_where(response_to(1)))["result"] == "allowed"


async def test_notifications_and_request_preludes_apply_in_arrival_order() -> None:
    peer, _wire = make_peer()
    seen: list[str] = []
    done = asyncio.Event()

    def note(params: Any) -> None:
        seen.append(f"note {params}")

    def req(params: Any) -> Any:
        seen.append(f"req {params}")  # the synchronous part of a handler

        async def later() -> None:
            await asyncio.sleep(0.01)  # the handler's own work, which takes a while on purpose
            seen.append(f"req {params} done")
            done.set()

        return later()

    peer.on_notification("note", note)
    peer.on_request("req", req)
    data = b"".join(
        [
            line({"jsonrpc": "2.0", "method": "note", "params": 1}),
            line({"jsonrpc": "2.0", "id": 1, "method": "req", "params": 2}),
            line({"jsonrpc": "2.0", "method": "note", "params": 3}),
        ]
    )
    peer.feed(data)
    assert seen == ["note 1", "req 2", "note 3"]
    await asyncio.wait_for(done.wait(), 10)
    assert seen[-1] == "req 2 done"


@pytest.mark.parametrize(
    ("raise_it", "code", "text"),
    [
        (InvalidParams("path must be absolute"), -32602, "path must be absolute"),
        (RpcError("custom", code=-32042), -32042, "custom"),
        (ValueError("boom"), -32603, "boom"),
    ],
)
async def test_handler_errors_become_error_responses(
    raise_it: Exception, code: int, text: str
) -> None:
    peer, wire = make_peer()

    async def fail(params: Any) -> Any:
        raise raise_it

    peer.on_request("fail", fail)
    peer.feed(line({"jsonrpc": "2.0", "id": 3, "method": "fail"}))
    reply = await wire.next_where(response_to(3))
    assert reply["error"]["code"] == code and text in reply["error"]["message"]


async def test_unknown_request_gets_method_not_found_and_unknown_notification_is_ignored() -> None:
    peer, wire = make_peer()
    peer.feed(line({"jsonrpc": "2.0", "method": "nobody/listens"}))
    peer.feed(line({"jsonrpc": "2.0", "id": "x", "method": "nobody/answers"}))
    reply = await wire.next_where(response_to("x"))
    assert reply["error"]["code"] == -32601 and "nobody/answers" in reply["error"]["message"]
    assert len(wire.sent) == 1


async def test_cancel_request_from_the_peer_answers_request_cancelled() -> None:
    peer, wire = make_peer()

    started = asyncio.Event()

    async def forever(params: Any) -> Any:
        started.set()
        await asyncio.sleep(3600)  # a handler that never ends: only the cancel ends it

    peer.on_request("forever", forever)
    peer.feed(line({"jsonrpc": "2.0", "id": "f", "method": "forever"}))
    await asyncio.wait_for(started.wait(), 10)
    peer.feed(line({"jsonrpc": "2.0", "method": "$/cancel_request", "params": {"requestId": "f"}}))
    reply = await wire.next_where(response_to("f"))
    assert reply["error"]["code"] == -32800


async def test_our_request_resolves_with_result_or_error() -> None:
    peer, wire = make_peer()
    ok = asyncio.ensure_future(peer.request("a", {"x": 1}))
    bad = asyncio.ensure_future(peer.request("b"))
    sent_a = await wire.next_where(lambda m: m.get("method") == "a")
    sent_b = await wire.next_where(lambda m: m.get("method") == "b")
    assert "params" not in sent_b and sent_a["params"] == {"x": 1}
    peer.feed(
        line({"jsonrpc": "2.0", "id": sent_b["id"], "error": {"code": -32000, "message": "auth"}})
    )
    peer.feed(line({"jsonrpc": "2.0", "id": sent_a["id"], "result": {"ok": True}}))
    assert await ok == {"ok": True}
    with pytest.raises(RpcError) as err:
        await bad
    assert err.value.code == -32000


async def test_deadline_sends_cancel_request_and_raises() -> None:
    peer, wire = make_peer()
    with pytest.raises(RequestTimeout, match="slow/method"):
        await peer.request("slow/method", timeout=0.05)
    sent = await wire.next_where(lambda m: m.get("method") == "$/cancel_request")
    assert sent["params"] == {"requestId": wire.sent[0]["id"]}


async def test_caller_cancelled_sends_cancel_request() -> None:
    peer, wire = make_peer()
    task = asyncio.ensure_future(peer.request("long"))
    first = await wire.next_where(lambda m: m.get("method") == "long")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    sent = await wire.next_where(lambda m: m.get("method") == "$/cancel_request")
    assert sent["params"]["requestId"] == first["id"]


async def test_close_fails_every_pending_request_at_once() -> None:
    peer, wire = make_peer()
    pending = [asyncio.ensure_future(peer.request(f"m{i}")) for i in range(3)]
    for i in range(3):  # all three are out, waiting for their answers
        await wire.next_where(lambda m, i=i: m.get("method") == f"m{i}")
    peer.close("agent exited")
    for fut in pending:
        with pytest.raises(ConnectionClosed, match="agent exited"):
            await fut
    with pytest.raises(ConnectionClosed):
        await peer.request("after")


async def test_eof_closes_the_link() -> None:
    peer, _wire = make_peer()
    reader = asyncio.StreamReader()
    reader.feed_data(line({"jsonrpc": "2.0", "method": "x"}))
    reader.feed_eof()
    pending = asyncio.ensure_future(peer.request("m"))
    await peer.run(reader)
    assert peer.closed.is_set()
    with pytest.raises(ConnectionClosed):
        await pending


@pytest.mark.parametrize(
    "junk",
    [
        b"garbage\n",
        b"[1, 2, 3]\n",
        b'"a string"\n',
        b'{"jsonrpc": "2.0"}\n',
        b'{"id": 99, "result": 1}\n',  # a response to an id we never used
        b'{"id": true, "method": "echo"}\n',  # a bool is no valid id
        b"\xc3\x28\n",
    ],
)
async def test_bad_input_is_skipped_and_the_link_goes_on(junk: bytes) -> None:
    peer, wire = make_peer()

    async def echo(params: Any) -> Any:
        return params

    peer.on_request("echo", echo)
    peer.feed(junk + line({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": "still here"}))
    assert (await wire.next_where(response_to(1)))["result"] == "still here"
    assert all(m.get("id") == 1 for m in wire.sent)


async def test_duplicate_id_in_flight_is_ignored_and_the_first_still_answered() -> None:
    peer, wire = make_peer()
    release = asyncio.Event()
    calls: list[Any] = []

    async def wait(params: Any) -> Any:
        calls.append(params)
        await release.wait()
        return params

    peer.on_request("wait", wait)
    peer.feed(line({"jsonrpc": "2.0", "id": 5, "method": "wait", "params": "first"}))
    peer.feed(line({"jsonrpc": "2.0", "id": 5, "method": "wait", "params": "second"}))
    release.set()
    assert (await wire.next_where(response_to(5)))["result"] == "first"
    await asyncio.sleep(0.01)  # a window in which a second answer must NOT come
    assert calls == ["first"] and sum(1 for m in wire.sent if m.get("id") == 5) == 1
