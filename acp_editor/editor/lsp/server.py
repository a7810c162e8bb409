"""The language server: pygls plumbing and the ways of talking to the editor (``EditorChannel``).

It knows nothing of agents, sessions or its own handlers: ``editor.build`` assembles the editor
side around it, and ``serve_stdio()`` runs it on stdin/stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine, Generator, Mapping, Sequence
from functools import lru_cache
from typing import Any

import cattrs
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInternalError
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    LanguageServerProtocol,
    default_converter,
)
from pygls.protocol.language_server import lsp_method
from pygls.workspace import TextDocument

from acp_editor import __version__, jsonio
from acp_editor.editor.lsp.channel import new_request_id
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.log import get_logger

log = get_logger(__name__)

CANCEL_REQUEST = "$/cancelRequest"


UNTYPED_REQUESTS = frozenset(
    {lsp.WINDOW_SHOW_MESSAGE_REQUEST, lsp.WINDOW_SHOW_DOCUMENT, lsp.WORKSPACE_APPLY_EDIT}
)
"""Requests we send to the editor as plain JSON, and whose answers we read as plain JSON.

lsprotocol's ``MessageActionItem`` has only ``title``: typed, the ``optionId``/``kind`` an action
carries (``additionalPropertiesSupport``) would be dropped both ways. The other two are kept
untyped so every request we send is built the same way (a typed envelope with dict params fails
to serialise inside pygls, which then never resolves the request)."""


class AcpProtocol(LanguageServerProtocol):
    """LSP, with ``UNTYPED_REQUESTS`` sent and answered as plain JSON."""

    @lru_cache  # noqa: B019 - the base class caches these the same way
    def get_message_type(self, method: str) -> type[Any] | None:
        if method in UNTYPED_REQUESTS:
            return None
        return super().get_message_type(method)

    @lru_cache  # noqa: B019 - the base class caches these the same way
    def get_result_type(self, method: str) -> type[Any] | None:
        if method in UNTYPED_REQUESTS:
            return None
        return super().get_result_type(method)

    def _send_data(self, data: Any) -> None:
        """pygls's, with orjson and the length in bytes. A plain dict goes out as it is: pygls
        would first walk every nested dict and list of the message with cattrs (a third of our
        CPU under a flood); typed values inside it are unstructured as pygls does."""
        if not data:
            return
        if type(data) is JsonRPCResponseMessage:
            # The answer to one of our own requests (typed LSP answers have classes of their
            # own): its result is plain JSON, e.g. ``acp/prompt``'s summary of a 15k-tool-call
            # turn, which cattrs would copy whole first (5 MB more at the flood's peak).
            data = {"jsonrpc": "2.0", "id": data.id, "result": data.result}
        if self.writer is None:
            log.error("cannot send to the editor: no transport")
            return
        try:
            body = jsonio.dumps(data, default=self._serialize_message)
            self.writer.write(b"Content-Length: %d\r\n\r\n%b" % (len(body), body))
        except BrokenPipeError:
            log.warning("the editor closed the connection")
            raise
        except Exception as error:
            log.exception("could not send a message to the editor")
            self._server._report_server_error(error, JsonRpcInternalError)

    def notify_json(self, method: str, params: Any) -> None:
        """A notification whose params are plain JSON (typed values inside are allowed)."""
        self._send_data({"jsonrpc": "2.0", "method": method, "params": params})

    @lsp_method(lsp.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's own, except that it cancels the requests still in flight from a copy: each
        cancellation removes its request from the dict pygls iterated, so a ``shutdown`` while a
        turn ran failed with "dictionary changed size during iteration"."""
        handler = self.fm.features.get(lsp.SHUTDOWN)
        if handler is not None:
            yield handler, args, None
        current = self.msg_id  # this request's own future stays
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True


def _keep_json(obj: dict[str, Any], cls: type[Any]) -> Any:
    return cls(**obj)


def converter_factory() -> cattrs.Converter:
    """pygls's converter, but untyped params and results stay dicts (pygls makes namedtuples,
    which cannot hold keys like ``_meta`` and lose the JSON shape we forward)."""
    converter: cattrs.Converter = default_converter()  # type: ignore[no-untyped-call]
    for cls in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        converter.register_structure_hook(cls, _keep_json)
    return converter


class AcpLanguageServer(LanguageServer):
    """The ``EditorChannel`` of the editor side."""

    def __init__(self) -> None:
        super().__init__(
            "acp-editor",
            __version__,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=AcpProtocol,
            converter_factory=converter_factory,
        )
        assert isinstance(self.protocol, AcpProtocol)
        self.acp_protocol: AcpProtocol = self.protocol
        self.features = ClientFeatures()
        self.initialized = False
        self._background: set[asyncio.Task[Any]] = set()
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        """Run when the editor is gone (``exit``, or its pipe closed): the agent goes too."""
        self.on_initialized: list[Callable[[], None]] = []
        """Run once the editor has its ``initialize`` answer: work that would delay it."""

    def background(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a coroutine we do not wait for, owned here so shutdown can cancel it."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def cancel_background(self) -> None:
        for task in list(self._background):
            task.cancel()

    # -- for editor.documents -------------------------------------------------------------------

    @property
    def open_documents(self) -> Mapping[str, TextDocument]:
        if not self.initialized:
            return {}
        docs: dict[str, TextDocument] = self.workspace.text_documents
        return docs

    @property
    def can_apply_edit(self) -> bool:
        return self.features.apply_edit

    @property
    def saves_after_apply(self) -> bool:
        return self.features.saves_after_apply

    @property
    def can_delete_file(self) -> bool:
        return self.features.apply_edit and self.features.delete_file

    async def apply_edit(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]], label: str
    ) -> tuple[bool, str | None]:
        if self.features.document_changes:
            edit: dict[str, Any] = {
                "documentChanges": [
                    {"textDocument": {"uri": uri, "version": version}, "edits": list(edits)}
                ]
            }
        else:
            edit = {"changes": {uri: list(edits)}}
        return await self._workspace_edit(label, edit)

    async def delete_file(self, uri: str, label: str) -> tuple[bool, str | None]:
        delete = {"kind": "delete", "uri": uri, "options": {"ignoreIfNotExists": True}}
        return await self._workspace_edit(label, {"documentChanges": [delete]})

    async def _workspace_edit(self, label: str, edit: dict[str, Any]) -> tuple[bool, str | None]:
        result = await self.request(lsp.WORKSPACE_APPLY_EDIT, {"label": label, "edit": edit})
        if not isinstance(result, dict):
            return False, f"unexpected answer to workspace/applyEdit: {result!r}"[:200]
        reason = result.get("failureReason")
        return result.get("applied") is True, reason if isinstance(reason, str) else None

    # -- talking to the editor ------------------------------------------------------------------

    def notify(self, method: str, params: Any) -> None:
        self.acp_protocol.notify_json(method, params)

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None, msg_id: str | None = None
    ) -> Any:
        """A request to the editor that is withdrawn (``$/cancelRequest``) when we stop waiting."""
        msg_id = msg_id or new_request_id()
        future = asyncio.wrap_future(self.protocol.send_request(method, params, msg_id=msg_id))
        try:
            return await asyncio.wait_for(future, timeout)
        except (asyncio.CancelledError, TimeoutError):
            self.protocol._request_futures.pop(msg_id, None)
            with contextlib.suppress(Exception):
                self.notify(CANCEL_REQUEST, lsp.CancelParams(id=msg_id))
            raise

    def show_message(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=message))

    def log_message(self, message: str) -> None:
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=message))

    def publish_diagnostics(self, uri: str, diagnostics: Sequence[lsp.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=list(diagnostics))
        )

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop up a message for every failed request; the error already went back to
        # the editor in the response, so the log is enough.
        log.warning("request failed: %s", error)


async def _serve(server: AcpLanguageServer) -> None:
    stop = threading.Event()
    server._stop_event = stop
    reader = StdinAsyncReader(sys.stdin.buffer, server.thread_pool)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    try:
        await run_async(stop_event=stop, reader=reader, protocol=server.protocol, logger=log)
    finally:
        for close in server.on_close:
            await asyncio.shield(close())


EXIT_GRACE = 2.0
"""Seconds the tasks still running at ``exit`` get to end once cancelled."""
CLOSE_S = 10.0
"""Seconds ``exit`` waits for the teardown ``shutdown`` began (the agent's shutdown ladder:
about 0.5 s for one that ignores SIGTERM) before what still runs is cancelled and killed."""


def serve_stdio(server: AcpLanguageServer) -> int:
    """Serve LSP on stdin/stdout until ``exit`` or EOF; the process exit code per LSP."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(_serve(server))
        code = 0 if server.protocol._shutdown else 1
    except SystemExit as done:  # pygls's ``exit`` handler: 0 after ``shutdown``, else 1
        code = int(done.code or 0)
    except (BrokenPipeError, KeyboardInterrupt):
        code = 1
    _closed(loop, server)
    _finish(loop)
    return code


def _closed(loop: asyncio.AbstractEventLoop, server: AcpLanguageServer) -> None:
    """The teardown finished before anything is cancelled: ``exit`` stops the loop at once,
    while what ``shutdown`` began (it answers before the agent has ended) may still run."""

    async def close_all() -> None:
        for close in server.on_close:
            await close()

    try:
        loop.run_until_complete(asyncio.wait_for(close_all(), CLOSE_S))
    except Exception as exc:  # what is left is cancelled, and killed: procs.kill_leftovers
        log.warning("the teardown did not finish: %r", exc)


def _finish(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what still runs and give it ``EXIT_GRACE``. Unlike ``asyncio.run``, never wait
    longer: one task that outlives its cancellation (seen under load in the Neovim tests, the
    agent's exit never reported) kept the sidecar alive and the editor waiting for it. Whatever
    such a task leaves behind, ``procs.kill_leftovers`` and the reaper end."""
    tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        _, pending = loop.run_until_complete(asyncio.wait(tasks, timeout=EXIT_GRACE))
        for task in pending:
            log.warning("still running at exit, left behind: %r", task)
