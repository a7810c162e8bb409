"""Review in the editor: pending hunks as ``acp/reviewChanged`` for rich editors, or as
diagnostics with code actions for every other LSP editor.

Hunk positions are looked up in the file's current text each time they are shown, so they follow
the user's edits (a diagnostic stays on the agent's lines after the user adds lines above them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.editor.buffers.review_groups import EditorGroups
from acp_editor.errors import InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri, uri_to_path

if TYPE_CHECKING:
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.buffers.conflicts import Conflicts
    from acp_editor.editor.buffers.source import EditorDocuments
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.review.view import ReviewView

log = get_logger(__name__)
REPUBLISH_DELAY = 0.1
"""After the user types, diagnostics move with the text: at most every 100 ms per file."""


class EditorReview:
    def __init__(
        self,
        channel: EditorChannel,
        documents: EditorDocuments,
        slot: AgentSlot,
        conflicts: Conflicts,
        review_view: Callable[[], ReviewView | None],
    ) -> None:
        self.channel = channel
        self.documents = documents
        self.review_view = review_view
        """Review of the server's life, read and decided through its view only (built at its
        first use: ``editor/late.py``)."""
        self.conflicts = conflicts
        conflicts.listeners.append(self._conflicts_changed)
        self._published: set[str] = set()  # paths with (or once with) pending hunks shown
        self._conflicted: set[str] = set()  # paths with (or once with) conflicts, rich editors
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self.groups = EditorGroups(channel, slot, review_view)
        """Bulk changes: many files as one item (``editor.buffers.review_groups``)."""

    def hunks(self) -> list[ReviewHunk]:
        view = self.review_view()
        return view.hunks() if view is not None else []

    def pending_in(self, path: str) -> list[ReviewHunk]:
        """One file's pending hunks (without a walk of every hunk of every file)."""
        view = self.review_view()
        return [h for h in view.of_path(path) if h.state == "pending"] if view else []

    def _view(self, hunk: ReviewHunk, text: str | None) -> dict[str, Any]:
        view = self.review_view()
        known = view.known(hunk.path) if view is not None else None
        return hunk.view(text, known)

    # -- showing --------------------------------------------------------------------------------

    def changed(self, hunks: list[ReviewHunk]) -> None:
        self.channel.background(self._show(sorted({h.path for h in hunks}), hunks))

    def saved(self, uri: str) -> None:
        """The editor saved a file (``didSave``; it reported its changes before): what the disk
        holds now is the user's, not a change of the agent's to review."""
        path = uri_to_path(uri)
        view = self.review_view()
        doc = self.documents.open_document(Path(path)) if path is not None else None
        if view is not None and doc is not None:
            view.saved_by_editor(Path(doc.path), doc.source)

    def opened(self, uri: str) -> None:
        """A plain editor opened a file: its pending hunks as diagnostics again, placed in the
        text it opened (some editors drop diagnostics of files they do not hold open: eglot)."""
        path = uri_to_path(uri)
        if path is None or self.channel.features.has(proto.FEATURE_REVIEW):
            return
        if path in self._published or self.pending_in(path):
            self.channel.background(self._show([path], []))

    def text_changed(self, uri: str) -> None:
        """The user edited a file: move its diagnostics along (debounced)."""
        path = uri_to_path(uri)
        if path is None or path not in self._published:
            return
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self._timers[path] = loop.call_later(
            REPUBLISH_DELAY, lambda: self.channel.background(self._show([path], []))
        )

    async def _show(self, paths: list[str], hunks: list[ReviewHunk]) -> None:
        texts = {path: await self._text(path) for path in paths}
        if self.channel.features.has(proto.FEATURE_REVIEW):
            # The changed hunks, and every pending hunk of those files: their lines may have
            # moved (an edit, a decision above them), and the editor keeps the latest view.
            chosen = {h.hunk_id: h for h in hunks}
            for path in texts:
                for hunk in self.pending_in(path):
                    chosen.setdefault(hunk.hunk_id, hunk)
            for path in paths:
                self._track(path)
                self._publish_conflicts(path)
            if chosen:
                views = [self._view(h, texts.get(h.path)) for h in chosen.values()]
                self.channel.notify(proto.ACP_REVIEW_CHANGED, {"hunks": views})
            return
        for path in paths:
            self._publish(path, texts[path])

    def _track(self, path: str) -> None:
        if self.pending_in(path):
            self._published.add(path)

    async def _text(self, path: str) -> str | None:
        try:
            return await self.documents.read_text(Path(path))
        except RpcError:
            return None

    def _publish(self, path: str, text: str | None) -> None:
        diagnostics = []
        pending = self.pending_in(path)
        # Tracked even when nothing can be placed yet: the editor may report the agent's edit
        # (didChange) after telling us it applied it; then we publish again.
        self._track(path)
        for hunk in pending:
            view = self._view(hunk, text)
            if view["range"] is None:
                continue
            diagnostics.append(
                lsp.Diagnostic(
                    range=_lsp_range(view["range"]),
                    message=_message(hunk),
                    severity=lsp.DiagnosticSeverity.Information,
                    source=proto.DIAGNOSTIC_SOURCE,
                    code=hunk.hunk_id,
                    data={"hunkId": hunk.hunk_id},
                )
            )
        diagnostics += self.conflicts.diagnostics(path)
        if diagnostics or path in self._published:
            self._published.add(path)
            self.channel.publish_diagnostics(path_to_uri(path), diagnostics)

    def _publish_conflicts(self, path: str) -> None:
        """Rich editors show hunks themselves; conflicts are diagnostics for every editor."""
        diagnostics = self.conflicts.diagnostics(path)
        if diagnostics or path in self._conflicted:
            self._conflicted.add(path)
            self.channel.publish_diagnostics(path_to_uri(path), diagnostics)

    def _conflicts_changed(self, path: str) -> None:
        self.channel.background(self._show([path], []))

    def views(self) -> list[dict[str, Any]]:
        return [h.view(None) for h in self.hunks()]

    # -- code actions ---------------------------------------------------------------------------

    def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        path = uri_to_path(params.text_document.uri)
        conflicts = self.conflicts.code_actions(path, params.text_document.uri) if path else []
        return conflicts + self._hunk_actions(path, params) + self.groups.code_actions(path)

    def _hunk_actions(self, path: str | None, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        wanted = {
            d.data.get("hunkId")
            for d in params.context.diagnostics
            if d.source == proto.DIAGNOSTIC_SOURCE and isinstance(d.data, dict)
        }
        pending = self.pending_in(path) if path is not None else []
        if not pending:
            return []
        if not wanted:  # no diagnostic under the cursor was given: offer the hunks on its lines
            doc = self.channel.open_documents.get(params.text_document.uri)
            text = doc.source if doc is not None else None
            line = params.range.start.line
            for hunk in pending:
                where = self._view(hunk, text)["range"]
                if where and where["start"]["line"] <= line <= max(
                    where["end"]["line"], where["start"]["line"]
                ):
                    wanted.add(hunk.hunk_id)
        actions = []
        for hunk in pending:
            if hunk.hunk_id in wanted:
                actions.append(_action("Accept hunk", proto.CMD_ACCEPT_HUNK, hunk.hunk_id))
                actions.append(_action("Reject hunk", proto.CMD_REJECT_HUNK, hunk.hunk_id))
        uri = params.text_document.uri
        actions.append(_action("Accept all in file", proto.CMD_ACCEPT_FILE, uri))
        actions.append(_action("Reject all in file", proto.CMD_REJECT_FILE, uri))
        return actions

    # -- decisions ------------------------------------------------------------------------------

    async def take_theirs(self, uri: str) -> dict[str, Any]:
        """A conflict resolved the agent's way: the buffer becomes the agent's version."""
        path = uri_to_path(uri)
        conflict = self.conflicts.by_path.get(path) if path else None
        if conflict is None:
            return {"resolved": False}
        if not await self.documents.take_theirs(conflict):
            raise InvalidParams(f"the editor did not apply the agent's version of {path}")
        self.conflicts.resolve(conflict.path)
        return {"resolved": True}

    def keep_mine(self, uri: str) -> dict[str, Any]:
        """A conflict resolved the user's way: the buffer stays; saving it writes it."""
        path = uri_to_path(uri)
        return {"resolved": bool(path) and self.conflicts.resolve(path or "") is not None}

    async def decide(
        self,
        accept: bool,
        *,
        hunk_ids: list[str] | None = None,
        group_ids: list[str] | None = None,
        uri: str | None = None,
        tool_call_id: str | None = None,
        everything: bool = False,
    ) -> dict[str, Any]:
        path = None
        if uri is not None:
            path = uri_to_path(uri)
            if path is None:
                raise InvalidParams(f"not a file URI: {uri!r}")
        hunks_named = hunk_ids is not None or path is not None or tool_call_id is not None
        if not hunks_named and group_ids is None and not everything:
            raise InvalidParams("say which hunks: hunkIds, groupIds, uri, toolCallId or all")
        view = self.review_view()
        if view is None:
            if hunk_ids or group_ids:
                unknown = [*(hunk_ids or []), *(group_ids or [])]
                raise InvalidParams(f"unknown ids: {', '.join(sorted(unknown))}")
            return {"results": []}
        groups = self.groups.chosen(group_ids, tool_call_id, everything)
        results = await self._decide_hunks(
            accept, hunk_ids, path, tool_call_id, hunks_named or everything
        )
        return {"results": results + await view.decide_groups(groups, accept)}

    async def _decide_hunks(
        self,
        accept: bool,
        hunk_ids: list[str] | None,
        path: str | None,
        tool_call_id: str | None,
        wanted: bool,
    ) -> list[dict[str, Any]]:
        view = self.review_view()
        if view is None or not wanted:
            return []
        chosen = view.select(hunk_ids=hunk_ids, path=path, tool_call_id=tool_call_id)
        if hunk_ids is not None:
            unknown = set(hunk_ids) - {h.hunk_id for h in chosen}
            if unknown:
                raise InvalidParams(f"unknown hunk ids: {', '.join(sorted(unknown))}")
        chosen = [h for h in chosen if h.state == "pending" or h.hunk_id in (hunk_ids or [])]
        results = await view.decide(chosen, accept)
        # Show the outcome before answering, so the editor never sees a stale hunk after the
        # answer (the queue's own notice of the change is shown again later: harmless).
        await self._show(sorted({h.path for h in chosen}), chosen)
        return results


def _message(hunk: ReviewHunk) -> str:
    old, new = len(hunk.anchor.old_lines), len(hunk.anchor.new_lines)
    what = "held until you accept it" if not hunk.applied else "pending review"
    text = f"Agent change (+{new} -{old}), {what}"
    if hunk.message:
        text += f": {hunk.message}"
    return text


def _action(title: str, command: str, argument: str) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        command=lsp.Command(title=title, command=command, arguments=[argument]),
    )


def _lsp_range(r: Any) -> lsp.Range:
    return lsp.Range(
        start=lsp.Position(line=r["start"]["line"], character=r["start"]["character"]),
        end=lsp.Position(line=r["end"]["line"], character=r["end"]["character"]),
    )
