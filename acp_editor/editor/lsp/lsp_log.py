"""Log records forwarded to the editor as ``window/logMessage`` (its output/log panel)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from acp_editor.editor.lsp.server import AcpLanguageServer

LEVELS = [
    (logging.ERROR, lsp.MessageType.Error),
    (logging.WARNING, lsp.MessageType.Warning),
    (logging.INFO, lsp.MessageType.Info),
    (logging.NOTSET, lsp.MessageType.Log),
]


class LspLogHandler(logging.Handler):
    def __init__(self, server: AcpLanguageServer, level: int = logging.INFO) -> None:
        super().__init__(level)
        self.server = server
        self._busy = False  # sending may log (pygls does): never recurse

    def emit(self, record: logging.LogRecord) -> None:
        if self._busy or not self.server.initialized:
            return
        self._busy = True
        try:
            kind = next(t for level, t in LEVELS if record.levelno >= level)
            text = f"{record.name.removeprefix('acp_editor.')}: {record.getMessage()}"
            self.server.window_log_message(lsp.LogMessageParams(type=kind, message=text))
        except Exception:
            self.handleError(record)
        finally:
            self._busy = False
