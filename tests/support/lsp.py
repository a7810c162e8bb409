"""A synthetic editor for end-to-end tests: pytest-lsp's client, acting like a real editor.

It starts the real sidecar (``python -m acp_editor --stdio -- AGENT``) as a subprocess, with the
recorded capabilities of a real editor (pytest-lsp ships VS Code's and Neovim's), keeps open
documents like an editor does (``workspace/applyEdit`` changes the buffer and is followed by
``didChange``), and records what the server shows.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls import uris
from pytest_lsp import ClientServerConfig, client_capabilities
from pytest_lsp.client import LanguageClient, register_lsp_features
from pytest_lsp.protocol import LanguageClientProtocol

from acp_editor.editor.lsp.server import UNTYPED_REQUESTS, converter_factory
from acp_editor.protocol import editor as proto
from acp_editor.session.reducer import apply_change, empty_snapshot
from acp_editor.text.edits import apply_edits
from acp_editor.text.positions import path_to_uri
from tests.support.starter import SCRIPTED_AGENT

VSCODE = "visual-studio-code"
NEOVIM = "neovim@v0.11.0"
EGLOT_1_9 = "eglot-1.9"
"""Emacs 28's eglot 1.9: Emacs 29's recorded capabilities without any ``window`` capability
(../shared/notes/real-editors.md: no showDocument, no work-done progress)."""


def capabilities_of(name: str) -> lsp.ClientCapabilities:
    if name == EGLOT_1_9:
        caps = client_capabilities("emacs@v29.1")
        caps.window = None
        return caps
    return client_capabilities(name)


class EditorProtocol(LanguageClientProtocol):
    """Reads the server's untyped requests as plain JSON, as a real editor would see them."""

    @lru_cache  # noqa: B019
    def get_message_type(self, method: str) -> type[Any] | None:
        if method in UNTYPED_REQUESTS:
            return None
        return super().get_message_type(method)  # type: ignore[no-any-return]

    @lru_cache  # noqa: B019
    def get_result_type(self, method: str) -> type[Any] | None:
        # Code actions too: lsprotocol reads a CodeAction as a Command (a union it resolves by
        # shape), losing its command; an editor reads the JSON itself.
        if method in UNTYPED_REQUESTS or method == lsp.TEXT_DOCUMENT_CODE_ACTION:
            return None
        return super().get_result_type(method)  # type: ignore[no-any-return]


Answer = Callable[[dict[str, Any]], Any]


@dataclass
class Editor:
    client: LanguageClient
    workspace: Path
    answer_permission: Answer
    """Answers ``window/showMessageRequest``, ``acp/requestPermission`` and ``acp/elicit`` (may
    be async)."""
    refuse_edits: bool = False
    reports_edits: bool = True
    """False: like eglot, the editor applies a server edit (and bumps the version) but reports
    the change only later, when ``report_changes`` is called (eglot: after 0.5 s idle)."""
    asked: list[dict[str, Any]] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    docs: dict[str, tuple[str, int]] = field(default_factory=dict)
    received: dict[str, list[Any]] = field(default_factory=dict)
    asked_event: asyncio.Event = field(default_factory=asyncio.Event)
    init_result: lsp.InitializeResult | None = None

    def uri(self, name: str) -> str:
        return path_to_uri(str(self.workspace / name))

    def open(self, name: str, text: str) -> str:
        uri = self.uri(name)
        self.docs[uri] = (text, 1)
        self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
            )
        )
        return uri

    def text(self, name: str) -> str:
        return self.docs[self.uri(name)][0]

    def type_unreported(self, name: str, text: str) -> None:
        """The user types ``text`` at the top of the buffer; the editor has not said so yet."""
        uri = self.uri(name)
        old, version = self.docs[uri]
        self.docs[uri] = (text + old, version + 1)

    def save(self, name: str) -> None:
        """The user (or the editor's hook: Emacs's setup saves after our edits) saves the
        buffer: its whole text goes to disk, and the server is told."""
        uri = self.uri(name)
        (self.workspace / name).write_text(self.docs[uri][0], encoding="utf-8")
        self.client.text_document_did_save(
            lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )

    def report_changes(self) -> None:
        """``didChange`` of each document's text now (what an editor sends when it gets to it)."""
        for uri, (text, version) in self.docs.items():
            self.client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    [lsp.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )

    async def command(self, name: str, *args: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command=name, arguments=list(args))
        )

    async def request(self, method: str, params: Any) -> Any:
        return await self.client.protocol.send_request_async(method, params)

    def of(self, method: str) -> list[Any]:
        return self.received.get(method, [])

    async def close(self) -> int | None:
        await self.client.shutdown_session()
        await self.client.stop()
        server = self.client._server
        return server.returncode if server is not None else None


def _apply(editor: Editor, params: dict[str, Any]) -> dict[str, Any]:
    editor.edits.append(params)
    if editor.refuse_edits:
        return {"applied": False, "failureReason": "the user closed the buffer"}
    edit = params["edit"]
    texts = [c for c in edit.get("documentChanges", []) if "textDocument" in c]
    changes = edit.get("changes") or {c["textDocument"]["uri"]: c["edits"] for c in texts}
    for change in texts:  # checked as eglot and VS Code check them
        wanted, (_, version) = (
            change["textDocument"].get("version"),
            editor.docs[change["textDocument"]["uri"]],
        )
        if wanted is not None and wanted != version:
            return {
                "applied": False,
                "failureReason": f"require version {wanted}, you have {version}",
            }
    for uri, edits in changes.items():
        text, version = editor.docs[uri]
        new = apply_edits(text, edits)
        editor.docs[uri] = (new, version + 1)
        if editor.reports_edits:
            editor.client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
                    [lsp.TextDocumentContentChangeWholeDocument(text=new)],
                )
            )
    for change in edit.get("documentChanges", []):
        if change.get("kind") == "delete":  # as VS Code: the file goes, and its editor closes
            _delete(editor, change["uri"])
    return {"applied": True}


def _delete(editor: Editor, uri: str) -> None:
    Path(uris.to_fs_path(uri) or "").unlink(missing_ok=True)
    if editor.docs.pop(uri, None) is not None:
        editor.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )


async def start_editor(
    workspace: Path,
    *,
    capabilities: str = VSCODE,
    features: list[str] | None = None,
    agent: list[str] | None = None,
    agent_flags: tuple[str, ...] = (),
    server_args: tuple[str, ...] = (),
    answer_permission: Answer | None = None,
    saves_after_apply: bool = False,
    env: dict[str, str] | None = None,
    init_options: dict[str, Any] | None = None,
    folders: bool = True,
    root: bool = True,
    extra_folders: tuple[Path, ...] = (),
) -> Editor:
    command = [sys.executable, "-m", "acp_editor", "--stdio", *server_args]
    if agent != []:  # [] : no agent after --, so presets (or the demo agent) decide
        command += ["--", *(agent or SCRIPTED_AGENT), *agent_flags]

    def factory() -> LanguageClient:
        client = LanguageClient(protocol_cls=EditorProtocol, converter_factory=converter_factory)
        register_lsp_features(client)
        return client

    config = ClientServerConfig(server_command=command, client_factory=factory, server_env=env)
    client = await config.start()
    assert isinstance(client, LanguageClient)
    editor = Editor(client, workspace, answer_permission or allow_once)

    async def ask(params: dict[str, Any]) -> Any:
        editor.asked.append(params)
        editor.asked_event.set()
        try:
            answer = editor.answer_permission(params)
            return await answer if inspect.isawaitable(answer) else answer
        except asyncio.CancelledError:
            editor.withdrawn.append(str(params.get("message", params.get("toolCall"))))
            raise

    # pygls passes handlers only the params (it injects the client only into a first
    # parameter named ``ls``).
    client.feature(lsp.WINDOW_SHOW_MESSAGE_REQUEST)(ask)
    client.feature(proto.ACP_REQUEST_PERMISSION)(ask)
    client.feature(proto.ACP_ELICIT)(ask)
    client.feature(proto.ACP_CHOOSE_AUTH_METHOD)(ask)
    client.feature(proto.ACP_SIGN_IN_TERMINAL)(ask)
    client.feature(lsp.WORKSPACE_APPLY_EDIT)(lambda p: _apply(editor, p))
    for message in proto.MESSAGES.values():
        if message.direction == "server → editor" and message.kind == "notification":
            client.feature(message.method)(
                lambda p, m=message.method: editor.received.setdefault(m, []).append(p)
            )

    options: dict[str, Any] = {
        "acp": {"features": features or [], "savesAfterApply": saves_after_apply}
    }
    options.update(init_options or {})
    uri = path_to_uri(str(workspace))
    editor.init_result = await client.initialize_session(
        lsp.InitializeParams(
            capabilities=capabilities_of(capabilities),
            root_uri=uri if root else None,
            workspace_folders=[
                lsp.WorkspaceFolder(uri=path_to_uri(str(f)), name=f.name)
                for f in (workspace, *extra_folders)
            ]
            if folders
            else None,
            initialization_options=options,
        )
    )
    return editor


def allow_once(params: dict[str, Any]) -> Any:
    """Choose the allow_once option, the way the given request shape allows."""
    return choose_kind(params, "allow_once")


def choose_kind(params: dict[str, Any], kind: str) -> Any:
    if "options" in params:  # acp/requestPermission
        option = next(o for o in params["options"] if o["kind"] == kind)
        return {"optionId": option["optionId"]}
    actions = params.get("actions") or []
    with_ids = [a for a in actions if "kind" in a]
    if with_ids:
        return next(a for a in with_ids if a["kind"] == kind)
    # Without additional properties only titles come: the scripted agent names by kind.
    titles = {"allow_once": "Allow", "reject_once": "Reject"}
    return next(a for a in actions if a["title"] == titles[kind])


async def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll for something the server sends on its own schedule (progress, coalesced frames)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)  # the poll's interval: the predicate has no event to await


def session_mirror(
    notifications: list[dict[str, Any]], session_id: str, version: int = 1
) -> dict[str, Any]:
    """What an editor's mirror of a session holds after the ``acp/sessionChanged`` it was sent:
    an empty snapshot, every change applied in order, and the agent every notification names."""
    mirror = empty_snapshot(session_id, version)
    for note in notifications:
        if note["sessionId"] == session_id:
            mirror["agent"] = note["agent"]
            for change in note["changes"]:
                apply_change(mirror, change)
    return mirror
