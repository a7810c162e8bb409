"""A JSON-RPC 2.0 peer over newline-delimited JSON: ids, deadlines, ordering, cancellation.

Rules this module guarantees (the agent link depends on each of them):

* Incoming notifications are handled synchronously, in arrival order, inside ``feed``: state
  never depends on task scheduling.
* An incoming request's handler is *called* synchronously in arrival order too (so whatever it
  does before its first ``await`` is ordered with the notifications around it); the awaitable it
  returns runs as its own task, so a request waiting for the user never holds up another.
* Every incoming request is answered exactly once: its result, the ``RpcError`` it raised,
  -32603 for any other exception, -32601 for an unknown method, -32800 when the peer cancelled it
  with ``$/cancel_request``.
* Every outgoing request has a deadline. When it passes (or the caller is cancelled) the peer is
  sent ``$/cancel_request`` and the caller gets ``RequestTimeout``. When the link closes, every
  pending request fails at once with ``ConnectionClosed``.
* Our ids are integers of our own; the peer's ids (integers or strings) are independent of them.
* Bad input (not JSON, not a message, a response to an id we never used) is logged and skipped.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from acp_editor.agent.link.framing import DEFAULT_MAX_LINE, BadLine, LineSplitter, encode
from acp_editor.errors import (
    ConnectionClosed,
    InternalError,
    MethodNotFound,
    RequestCancelled,
    RequestTimeout,
    RpcError,
)
from acp_editor.log import get_logger, snippet

CANCEL_REQUEST = "$/cancel_request"
DEFAULT_TIMEOUT = 60.0

RequestHandler = Callable[[Any], Awaitable[Any]]
NotificationHandler = Callable[[Any], None]
Tracer = Callable[[str, dict[str, Any]], None]
RequestId = int | str


class Translation(Protocol):
    """What the peer's messages say in our terms, and ours in the peer's (an agent that sees
    the workspace at other paths: ``agent.link.mapped_paths``)."""

    def outgoing(self, method: str, params: Any) -> Any:
        """The params of our request or notification; raising fails the call."""
        ...

    def incoming(self, method: str, params: Any) -> Any:
        """The params of the peer's; raising answers its request with the error (a
        notification is skipped, logged)."""
        ...

    def answer_in(self, method: str, result: Any) -> Any:
        """The peer's answer to our request ``method``."""
        ...

    def answer_out(self, method: str, result: Any) -> Any:
        """Our answer to the peer's request ``method``."""
        ...


class Writer:
    """Where outgoing lines go: a sync ``write`` plus an awaitable ``drain`` for back-pressure."""

    def __init__(self, write: Callable[[bytes], None], drain: Callable[[], Awaitable[None]]):
        self.write = write
        self.drain = drain


class JsonRpcPeer:
    """One side of a JSON-RPC link. Feed it bytes; it calls handlers and resolves requests."""

    def __init__(
        self,
        name: str,
        writer: Writer,
        *,
        default_timeout: float = DEFAULT_TIMEOUT,
        max_line: int = DEFAULT_MAX_LINE,
        logger: logging.Logger | None = None,
        translation: Translation | None = None,
    ) -> None:
        self.name = name
        self._translation = translation
        self._writer = writer
        self._default_timeout = default_timeout
        self._splitter = LineSplitter(max_line)
        self._log = logger or get_logger(f"rpc.{name}")
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._answered: dict[int, Callable[[], None]] = {}
        self._requests: dict[str, RequestHandler] = {}
        self._notifications: dict[str, NotificationHandler] = {}
        # Incoming requests being served, by the peer's id (kept as sent: 1 and "1" differ).
        self._serving: dict[RequestId, asyncio.Task[None]] = {}
        self._closed = False
        self.closed = asyncio.Event()
        self.tracers: list[Tracer] = []

    # -- registration -------------------------------------------------------------------------

    def on_request(self, method: str, handler: RequestHandler) -> None:
        self._requests[method] = handler

    def on_notification(self, method: str, handler: NotificationHandler) -> None:
        self._notifications[method] = handler

    # -- sending ------------------------------------------------------------------------------

    async def request(
        self,
        method: str,
        params: Any = None,
        *,
        timeout: float | None = None,
        answered: Callable[[], None] | None = None,
    ) -> Any:
        """Send a request and wait for its result; raises ``RpcError`` subclasses on failure.

        ``answered`` is called the moment the answer is read, before any message after it is
        dispatched (the caller resumes only later): for a caller that must know which of the
        agent's notifications came after the answer."""
        if self._closed:
            raise ConnectionClosed(f"{self.name}: link closed before {method} could be sent")
        if self._translation is not None:
            params = self._translation.outgoing(method, params)
        req_id = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[req_id] = fut
        if answered is not None:
            self._answered[req_id] = answered
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": req_id, "method": method}
        if params is not None:
            message["params"] = params
        deadline = self._default_timeout if timeout is None else timeout
        try:
            await self._send(message)
            result = await asyncio.wait_for(asyncio.shield(fut), deadline)
            if self._translation is not None:
                result = self._translation.answer_in(method, result)
            return result
        except TimeoutError:
            self._cancel_remote(req_id)
            raise RequestTimeout(f"{method} got no answer within {deadline:g} s") from None
        except asyncio.CancelledError:
            self._cancel_remote(req_id)
            raise
        finally:
            self._pending.pop(req_id, None)
            self._answered.pop(req_id, None)

    async def notify(self, method: str, params: Any = None) -> None:
        if self._translation is not None:
            params = self._translation.outgoing(method, params)
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)

    async def _send(self, message: dict[str, Any]) -> None:
        if self._closed:
            raise ConnectionClosed(f"{self.name}: link closed")
        self._write(message)
        try:
            await self._writer.drain()
        except (ConnectionError, BrokenPipeError) as exc:
            self._log.warning("%s: write failed: %s", self.name, exc)
            self.close()
            raise ConnectionClosed(f"{self.name}: {exc}") from exc

    def _write(self, message: dict[str, Any]) -> None:
        for trace in self.tracers:
            trace("send", message)
        try:
            self._writer.write(encode(message))
        except (ConnectionError, BrokenPipeError, RuntimeError) as exc:
            self._log.warning("%s: write failed: %s", self.name, exc)

    def _cancel_remote(self, req_id: int) -> None:
        if not self._closed:
            self._write(
                {"jsonrpc": "2.0", "method": CANCEL_REQUEST, "params": {"requestId": req_id}}
            )

    # -- receiving ----------------------------------------------------------------------------

    async def run(
        self, reader: asyncio.StreamReader, chunk: int = 1 << 16, *, close_at_eof: bool = True
    ) -> None:
        """Read until EOF, then close the link (failing whatever is still pending).

        With ``close_at_eof=False`` the caller closes it, e.g. once it knows why the peer left.
        """
        try:
            while data := await reader.read(chunk):
                self.feed(data)
            self.feed_eof()
        except BaseException:
            self.close()
            raise
        if close_at_eof:
            self.close()

    def feed(self, data: bytes) -> None:
        for item in self._splitter.feed(data):
            self._dispatch(item)

    def feed_eof(self) -> None:
        for item in self._splitter.finish():
            self._dispatch(item)

    def _dispatch(self, msg: Any) -> None:
        if type(msg) is not dict:
            self._skip(msg)
            return
        for trace in self.tracers:
            trace("recv", msg)
        method = msg.get("method")
        has_id = "id" in msg
        if isinstance(method, str):
            if has_id and _valid_id(msg["id"]):
                self._on_request(msg["id"], method, msg.get("params"))
            elif has_id:
                self._log.warning(
                    "%s: request with an invalid id skipped: %s", self.name, snippet(repr(msg))
                )
            else:
                self._on_notification(method, msg.get("params"))
        elif has_id and ("result" in msg or "error" in msg):
            self._on_response(msg)
        else:
            self._log.warning(
                "%s: skipped JSON that is not a message: %s", self.name, snippet(repr(msg))
            )

    def _skip(self, item: Any) -> None:
        if isinstance(item, BadLine):
            self._log.warning(
                "%s: skipped a line (%s, %d bytes): %s",
                self.name,
                item.reason,
                item.size,
                snippet(item.sample),
            )
        else:
            self._log.warning(
                "%s: skipped JSON that is not a message: %s", self.name, snippet(repr(item))
            )

    def _on_notification(self, method: str, params: Any) -> None:
        if method == CANCEL_REQUEST:
            req_id = params.get("requestId") if isinstance(params, dict) else None
            task = self._serving.get(req_id) if _valid_id(req_id) else None  # type: ignore[arg-type]
            if task is not None:
                task.cancel()
            else:
                self._log.debug("%s: cancel for a request not in flight: %r", self.name, req_id)
            return
        handler = self._notifications.get(method)
        if handler is None:
            self._log.info("%s: ignored unknown notification %s", self.name, method)
            return
        try:
            if self._translation is not None:
                params = self._translation.incoming(method, params)
            handler(params)
        except Exception:
            self._log.exception("%s: handler for notification %s failed", self.name, method)

    def _on_request(self, req_id: RequestId, method: str, params: Any) -> None:
        if req_id in self._serving:
            self._log.warning("%s: duplicate request id %r ignored (%s)", self.name, req_id, method)
            return
        handler = self._requests.get(method)
        if handler is None:
            self._respond_error(req_id, MethodNotFound(f"method not found: {method}"))
            return
        try:
            if self._translation is not None:
                params = self._translation.incoming(method, params)
            awaitable = handler(params)
        except Exception as exc:
            self._respond_failure(req_id, method, exc)
            return
        task = asyncio.ensure_future(self._serve(req_id, method, awaitable))
        self._serving[req_id] = task
        task.add_done_callback(lambda _t: self._serving.pop(req_id, None))

    async def _serve(self, req_id: RequestId, method: str, awaitable: Awaitable[Any]) -> None:
        try:
            result = await awaitable
            if self._translation is not None:
                result = self._translation.answer_out(method, result)
        except asyncio.CancelledError:
            if not self._closed:
                self._respond_error(req_id, RequestCancelled(f"{method} was cancelled"))
            return
        except Exception as exc:
            self._respond_failure(req_id, method, exc)
            return
        self._write({"jsonrpc": "2.0", "id": req_id, "result": result})

    def _respond_failure(self, req_id: RequestId, method: str, exc: Exception) -> None:
        """A handler's error as the answer: its own when it is one of ours, else an internal
        error (logged with its traceback: it is a bug of ours)."""
        if isinstance(exc, RpcError):
            self._respond_error(req_id, exc)
            return
        self._log.error("%s: handler for %s failed", self.name, method, exc_info=exc)
        self._respond_error(req_id, InternalError(f"{method} failed: {exc}"))

    def _respond_error(self, req_id: RequestId, error: RpcError) -> None:
        self._write({"jsonrpc": "2.0", "id": req_id, "error": error.to_json()})

    def _on_response(self, msg: dict[str, Any]) -> None:
        req_id = msg.get("id")
        if not isinstance(req_id, int) or isinstance(req_id, bool):
            req_id = None
        fut = self._pending.get(req_id) if req_id is not None else None
        if fut is None or fut.done():
            self._log.warning(
                "%s: response to an id we are not waiting for: %r", self.name, msg.get("id")
            )
            return
        if "error" in msg:
            fut.set_exception(RpcError.from_json(msg["error"]))
        else:
            fut.set_result(msg.get("result"))
            answered = self._answered.pop(req_id, None) if req_id is not None else None
            if answered is not None:
                answered()

    # -- closing ------------------------------------------------------------------------------

    @property
    def is_closed(self) -> bool:
        return self._closed

    def close(self, reason: str = "link closed") -> None:
        """Fail every pending request and stop serving; idempotent."""
        if self._closed:
            return
        self._closed = True
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ConnectionClosed(f"{self.name}: {reason}"))
                # Mark retrieved: a caller that already gave up must not cause a log warning.
                fut.exception()
        for task in list(self._serving.values()):
            task.cancel()
        self.closed.set()


def _valid_id(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)
