"""What an ``@`` in a prompt completes (``acp/findFiles``): the editor's open documents that
match, then the workspace folders' files (``services.workspace_files``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from acp_editor.editor.lsp.handling import register_requests
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.buffers.source import EditorDocuments
    from acp_editor.editor.supervisor import AgentSupervisor
    from acp_editor.services.workspace_files.listing import WorkspaceFiles

DEFAULT_LIMIT = 50
MOST = 500


class Mentions:
    def __init__(self, agents: AgentSupervisor, documents: EditorDocuments) -> None:
        self.agents = agents
        self.documents = documents
        self._files: WorkspaceFiles | None = None

    @property
    def files(self) -> WorkspaceFiles:
        """The workspace's files, listed from the first search on (``editor/late.py``)."""
        if self._files is None:
            from acp_editor.services.workspace_files.listing import WorkspaceFiles

            self._files = WorkspaceFiles()
        return self._files

    def register(self, server: LanguageServer) -> None:
        register_requests(server, {proto.ACP_FIND_FILES: self.find_files})

    async def find_files(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.FIND_FILES, params)
        query = p["query"]
        limit = proto.whole(p.get("limit", DEFAULT_LIMIT), "limit", 1, MOST)
        roots = [Path(r) for r in self.agents.roots()]
        opened = self._open(roots, query, limit)
        found = await self.files.find([str(r) for r in roots], query, limit)
        taken = set(opened)
        files = [self._entry(p, roots, True) for p in opened]
        files += [self._entry(p, roots, False) for p in found.paths if p not in taken]
        return {"files": files[:limit], "complete": found.complete}

    def _open(self, roots: list[Path], query: str, limit: int) -> list[Path]:
        """The open documents below a workspace folder that match, ranked the same way (a bare
        ``@`` matches them all: they come first, marked open, as they do once a letter is
        typed)."""
        from acp_editor.services.workspace_files.match import PathTable

        held = [Path(p) for p in sorted(self.documents.held_paths())]
        inside = {_relative(p, roots): p for p in held if _root_of(p, roots) is not None}
        best = PathTable(list(inside)).best(query, limit)
        return [inside[name] for name in best]

    @staticmethod
    def _entry(path: Path, roots: list[Path], open_: bool) -> dict[str, Any]:
        return {"uri": from_fs_path(str(path)), "path": _relative(path, roots), "open": open_}

    async def close(self) -> None:
        if self._files is not None:
            await self._files.close()


def _root_of(path: Path, roots: list[Path]) -> Path | None:
    return next((r for r in roots if path.is_relative_to(r)), None)


def _relative(path: Path, roots: list[Path]) -> str:
    root = _root_of(path, roots)
    return path.relative_to(root).as_posix() if root is not None else path.as_posix()
