"""Client services: what the sidecar does for the agent when the agent asks.

``paths`` decides which paths an agent may touch, ``documents`` serves ``fs/*``, and
``terminals`` serves ``terminal/*``. The handlers take a request's raw ``params`` and return the
JSON result the ACP schema prescribes, raising ``acp_editor.errors.RpcError`` subclasses, so the
agent link only routes methods to them.
"""

from acp_editor.services.documents import DiskDocuments, DocumentSource, FileService, select_lines
from acp_editor.services.paths import PathPolicy
from acp_editor.services.terminals import TerminalManager

__all__ = [
    "DiskDocuments",
    "DocumentSource",
    "FileService",
    "PathPolicy",
    "TerminalManager",
    "select_lines",
]
