"""A fake editor for unit tests of the editor side: an ``EditorChannel`` that records what the
server would send and answers requests from a table, with no pygls server or subprocess."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from acp_editor.editor.lsp.features import ClientFeatures

Answer = Callable[[Any], Any]


class FakeProgress:
    """Records work-done progress the way pygls's ``Progress`` is called."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, Any]] = []
        self.changed = asyncio.Event()

    def _add(self, event: tuple[str, str, Any]) -> None:
        self.events.append(event)
        self.changed.set()

    async def until(self, count: int, timeout: float = 5.0) -> list[tuple[str, str, Any]]:
        """The events, once there are at least ``count`` (the progress queue has its own task)."""
        async with asyncio.timeout(timeout):
            while len(self.events) < count:
                self.changed.clear()
                await self.changed.wait()
        return self.events

    async def create_async(self, token: str) -> None:
        self._add(("create", token, None))

    def begin(self, token: str, value: lsp.WorkDoneProgressBegin) -> None:
        self._add(("begin", token, value.title))

    def report(self, token: str, value: lsp.WorkDoneProgressReport) -> None:
        self._add(("report", token, value.message))

    def end(self, token: str, value: lsp.WorkDoneProgressEnd) -> None:
        self._add(("end", token, value.message))


class FakeChannel:
    def __init__(self, features: ClientFeatures | None = None) -> None:
        self.features = features or ClientFeatures()
        self.initialized = True
        self.notes: list[tuple[str, Any]] = []
        self.requests: list[tuple[str, Any, str | None]] = []
        self.answers: dict[str, Answer] = {}
        """Method -> function of the params giving the editor's answer (default: None)."""
        self.messages: list[tuple[str, lsp.MessageType]] = []
        self.logged: list[str] = []
        self.diagnostics: dict[str, list[lsp.Diagnostic]] = {}
        self.documents: dict[str, TextDocument] = {}
        self.edits: list[tuple[str, int | None, list[Any], str]] = []
        self.can_apply_edit = True
        self.saves_after_apply = False
        self.can_delete_file = False
        self.deleted: list[tuple[str, str]] = []
        self.progress = FakeProgress()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.sent = asyncio.Event()

    # -- EditorChannel ------------------------------------------------------------------------

    def notify(self, method: str, params: Any) -> None:
        self.notes.append((method, params))
        self.sent.set()

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None, msg_id: str | None = None
    ) -> Any:
        self.requests.append((method, params, msg_id))
        self.sent.set()
        answer = self.answers.get(method)
        result = answer(params) if answer is not None else None
        if asyncio.iscoroutine(result):
            result = await asyncio.wait_for(result, timeout)  # as the real channel gives up
        return result

    def background(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def show_message(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
        self.messages.append((message, kind))

    def log_message(self, message: str) -> None:
        self.logged.append(message)

    def publish_diagnostics(self, uri: str, diagnostics: Sequence[lsp.Diagnostic]) -> None:
        self.diagnostics[uri] = list(diagnostics)

    @property
    def work_done_progress(self) -> Any:
        return self.progress

    @property
    def open_documents(self) -> Mapping[str, TextDocument]:
        return self.documents

    async def apply_edit(
        self, uri: str, version: int | None, edits: Sequence[Mapping[str, Any]], label: str
    ) -> tuple[bool, str | None]:
        self.edits.append((uri, version, list(edits), label))
        return True, None

    async def delete_file(self, uri: str, label: str) -> tuple[bool, str | None]:
        self.deleted.append((uri, label))
        return True, None

    # -- for tests ----------------------------------------------------------------------------

    async def settle(self) -> None:
        """Wait for every background task (jumps, review views) to finish."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks))

    def sent_methods(self) -> list[str]:
        return [m for m, _ in self.notes] + [m for m, _, _ in self.requests]

    def notes_of(self, method: str) -> list[Any]:
        return [p for m, p in self.notes if m == method]

    def requests_of(self, method: str) -> list[Any]:
        return [p for m, p, _ in self.requests if m == method]
