"""Log records in the editor's log (``window/logMessage``): at the level they were logged, once
the editor is initialized, and never in a loop when sending itself logs."""

from __future__ import annotations

import logging

from lsprotocol import types as lsp

from acp_editor.editor.lsp.lsp_log import LspLogHandler


class Server:
    """The one method and flag of the language server the handler uses."""

    def __init__(self) -> None:
        self.initialized = True
        self.sent: list[tuple[lsp.MessageType, str]] = []
        self.logger: logging.Logger | None = None

    def window_log_message(self, params: lsp.LogMessageParams) -> None:
        self.sent.append((params.type, params.message))
        if self.logger is not None:
            self.logger.warning("sending logged this")  # as pygls may


def logger_with(server: Server, level: int = logging.INFO) -> logging.Logger:
    logger = logging.getLogger("acp_editor.editor.lsp_log_test")
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    logger.handlers[:] = [LspLogHandler(server, level)]  # type: ignore[arg-type]
    return logger


def test_each_record_arrives_at_its_level_without_the_package_prefix() -> None:
    server = Server()
    logger = logger_with(server, logging.DEBUG)
    logger.error("e")
    logger.warning("w")
    logger.info("i %s", "x")
    logger.debug("d")
    name = "editor.lsp_log_test"
    assert server.sent == [
        (lsp.MessageType.Error, f"{name}: e"),
        (lsp.MessageType.Warning, f"{name}: w"),
        (lsp.MessageType.Info, f"{name}: i x"),
        (lsp.MessageType.Log, f"{name}: d"),
    ]


def test_nothing_is_sent_before_initialized_or_below_the_level() -> None:
    server = Server()
    logger = logger_with(server)
    server.initialized = False
    logger.error("too early")
    server.initialized = True
    logger.debug("too detailed")
    assert server.sent == []


def test_a_record_logged_while_sending_is_not_sent_again() -> None:
    server = Server()
    server.logger = logger = logger_with(server)
    logger.info("once")
    assert [message for _, message in server.sent] == ["editor.lsp_log_test: once"]
