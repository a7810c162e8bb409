"""What an agent may ask of the editor through the editor-context MCP server (``editor``):
the open buffers, a buffer's text as the editor holds it (unsaved changes included), and the
agent's review (pending and rejected hunks, with the user's reason).

Agents that do their own I/O read the disk; ACP v2 has no client ``fs/*`` at all. These tools are
how such an agent sees what the user sees. Each call is for one session and answers only for
paths inside that session's roots: a path outside them is refused, never read.
The tools' names and schemas are the contract in docs/protocol.md ("The editor-context MCP
server"); the MCP side of it is ``acp_editor/context/bridge.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.uris import to_fs_path

from acp_editor.errors import ResourceNotFound, RpcError
from acp_editor.protocol import editor as proto
from acp_editor.protocol.editor_context import TOOLS

if TYPE_CHECKING:
    from acp_editor.context.calls import ContextCalls
    from acp_editor.editor.buffers.conflicts import Conflicts
    from acp_editor.editor.buffers.source import EditorDocuments
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.view import ReviewView
    from acp_editor.services.path_map import PathMap

ASK_TIMEOUT = 10.0
"""Seconds an editor has to answer ``acp/diagnostics`` or ``acp/selection``."""


class ToolRefused(Exception):
    """A call the agent may not make (a path outside the roots, bad arguments): its message
    goes back to the agent as the tool's error."""


@dataclass(frozen=True)
class Caller:
    """Who calls: the session the token was minted for (None while the agent is still setting
    it up: it has no id yet), and the roots it may see."""

    session_id: str | None
    roots: tuple[Path, ...]
    paths: PathMap | None = None
    """Where the agent sees the roots, when elsewhere: its answers name its paths."""

    def check(self, raw: Any) -> Path:
        if not isinstance(raw, str) or not raw:
            raise ToolRefused("path must be a non-empty string")
        path = Path(raw)
        if not path.is_absolute():
            raise ToolRefused(f"path must be absolute: {raw!r}")
        if not _inside(path, self.roots):
            raise ToolRefused(f"{raw} is outside this session's folders")
        return path.resolve()


class ContextTools:
    def __init__(
        self,
        documents: EditorDocuments,
        review: Callable[[], ReviewView | None],
        channel: EditorChannel | None = None,
        shown: ContextCalls | None = None,
        conflicts: Conflicts | None = None,
    ) -> None:
        self.documents = documents
        self.review = review
        self.channel = channel
        """Asked for diagnostics and the selection when it declared the ``context`` feature."""
        self.shown = shown
        """Shows each call in its session like a tool call."""
        self.conflicts = conflicts
        """What acp-editor itself knows is wrong: an agent's change overlapping unsaved text."""

    async def call(self, caller: Caller, name: str, arguments: Mapping[str, Any]) -> Any:
        """The tool's answer, its paths the agent's (the arguments came as ours: an agent
        elsewhere reaches these tools only over its own connection, ``agent.link``)."""
        result = await self._shown_call(caller, name, arguments)
        return caller.paths.outbound(result).value if caller.paths else result

    async def _shown_call(self, caller: Caller, name: str, arguments: Mapping[str, Any]) -> Any:
        if self.shown is None or caller.session_id is None:  # no session to show it in yet
            return await self._call(caller, name, arguments)
        shown = self.shown.begin(caller.session_id, caller.roots, name, arguments)
        try:
            result = await self._call(caller, name, arguments)
        except ToolRefused as exc:
            shown.end(str(exc))
            raise
        except BaseException:
            shown.end("the editor could not answer")
            raise
        shown.end()
        return result

    async def _call(self, caller: Caller, name: str, arguments: Mapping[str, Any]) -> Any:
        if name == "open_buffers":
            return await self.open_buffers(caller)
        if name == "read_buffer":
            return await self.read_buffer(caller, arguments)
        if name == "review_state":
            return self.review_state(caller)
        if name == "diagnostics":
            return await self.diagnostics(caller, arguments)
        if name == "selection":
            return await self.selection(caller)
        raise ToolRefused(f"no tool {name!r} (tools: {', '.join(TOOLS)})")

    async def open_buffers(self, caller: Caller) -> list[dict[str, Any]]:
        """The open documents inside the roots, and whether each differs from the disk."""
        found = []
        for uri, doc in sorted(self.documents.editor.open_documents.items()):
            path = to_fs_path(uri)
            if path is None or not _inside(Path(path), caller.roots):
                continue
            try:
                on_disk: str | None = await self.documents.disk.read_text(Path(path))
            except RpcError:
                on_disk = None  # a new file the user has not saved yet
            found.append({"path": path, "modified": doc.source != on_disk})
        return found

    async def read_buffer(self, caller: Caller, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The text as the editor holds it (a file not open: from the disk), ``line`` (1-based)
        and ``limit`` as in ``fs/read_text_file``."""
        path = caller.check(arguments.get("path"))
        line, limit = _positive(arguments, "line"), _positive(arguments, "limit")
        try:
            text = await self.documents.read_text(path)
        except ResourceNotFound as exc:
            raise ToolRefused(f"{path} does not exist") from exc
        except RpcError as exc:
            raise ToolRefused(exc.message) from exc
        open_doc = self.documents.open_document(path)
        if line is not None or limit is not None:
            lines = text.splitlines(keepends=True)
            start = (line or 1) - 1
            text = "".join(lines[start : start + limit if limit is not None else None])
        return {"path": str(path), "text": text, "open": open_doc is not None}

    def _asks_editor(self) -> bool:
        return self.channel is not None and self.channel.features.has(proto.FEATURE_CONTEXT)

    async def diagnostics(self, caller: Caller, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The editor's own diagnostics (its language servers'), and acp-editor's (unsaved text
        an agent's change overlaps), lines 1-based. An editor with no plugin shares none of its
        own with acp-editor: then only acp-editor's, and a note saying so."""
        raw = arguments.get("path")
        path = str(caller.check(raw)) if raw is not None else None
        own = self._own_diagnostics(caller, path)
        if not self._asks_editor():
            note = "this editor does not share its language servers' diagnostics"
            return {"diagnostics": own, "note": note}
        assert self.channel is not None
        params = {"path": path} if path else {}
        answer = await self.channel.request(proto.ACP_DIAGNOSTICS, params, timeout=ASK_TIMEOUT)
        found = answer.get("diagnostics") if isinstance(answer, dict) else None
        shared = [
            {**d, "range": _one_based(d.get("range"))}
            for d in (found if isinstance(found, list) else [])
            if isinstance(d, dict) and _inside(Path(str(d.get("path"))), caller.roots)
        ]
        return {"diagnostics": shared + own}

    def _own_diagnostics(self, caller: Caller, path: str | None) -> list[dict[str, Any]]:
        if self.conflicts is None:
            return []
        found = []
        for where in sorted(self.conflicts.by_path):
            if (path is not None and where != path) or not _inside(Path(where), caller.roots):
                continue
            for d in self.conflicts.diagnostics(where):
                found.append(
                    {
                        "path": where,
                        "range": _one_based(_range(d.range)),
                        "severity": "error",
                        "message": d.message,
                        "source": "acp-editor",
                        "code": "conflict",
                    }
                )
        return found

    async def selection(self, caller: Caller) -> dict[str, Any] | None:
        """The active editor's path, selected range (lines 1-based) and text; None when none,
        when the editor has no plugin, or when the file is outside the session's folders."""
        if not self._asks_editor():
            return None
        assert self.channel is not None
        answer = await self.channel.request(proto.ACP_SELECTION, {}, timeout=ASK_TIMEOUT)
        if not isinstance(answer, dict) or not isinstance(answer.get("path"), str):
            return None
        if not _inside(Path(answer["path"]), caller.roots):
            return None
        return {**answer, "range": _one_based(answer.get("range"))}

    def review_state(self, caller: Caller) -> dict[str, Any]:
        """The session's pending and rejected hunks (a rejection with the user's reason)."""
        queue = self.review()
        if queue is None or caller.session_id is None:  # no session yet: nothing of it to review
            return {"pending": [], "rejected": []}
        hunks = queue.select(session_id=caller.session_id)
        pending, rejected = [], []
        for hunk in hunks:
            if not _inside(Path(hunk.path), caller.roots):
                continue
            item: dict[str, Any] = {
                "path": hunk.path,
                "oldLines": list(hunk.anchor.old_lines),
                "newLines": list(hunk.anchor.new_lines),
            }
            if hunk.state == "pending":
                pending.append(item)
            elif hunk.state == "rejected":
                rejected.append({**item, "reason": hunk.message} if hunk.message else item)
        return {"pending": pending, "rejected": rejected}


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    resolved = path.resolve()
    return any(resolved == root or root in resolved.parents for root in roots)


def _range(r: Any) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def _one_based(lsp_range: Any) -> Any:
    """An LSP range (0-based lines) as the agent reads files: lines counted from 1."""
    if not isinstance(lsp_range, dict):
        return lsp_range
    moved = {}
    for end in ("start", "end"):
        point = lsp_range.get(end)
        if isinstance(point, dict) and isinstance(point.get("line"), int):
            point = {**point, "line": point["line"] + 1}
        moved[end] = point
    return moved


def _positive(arguments: Mapping[str, Any], name: str) -> int | None:
    value = arguments.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ToolRefused(f"{name} must be a positive integer")
    return value
