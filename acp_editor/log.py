"""Logging that never touches stdout.

stdout carries the LSP stream (and, for the agent, ACP), so every log record goes to stderr or a
file. The editor link adds a handler that forwards records as ``window/logMessage``.
"""

from __future__ import annotations

import logging
import sys

LOGGER_NAME = "acp_editor"


def get_logger(name: str = "") -> logging.Logger:
    """A child of the package logger, so one handler configuration covers the whole sidecar:
    a module's ``__name__`` as it is, any other name under the package's."""
    if name == LOGGER_NAME or name.startswith(f"{LOGGER_NAME}."):
        return logging.getLogger(name)
    return logging.getLogger(f"{LOGGER_NAME}.{name}" if name else LOGGER_NAME)


def snippet(data: bytes | str, limit: int = 120) -> str:
    """A short printable excerpt of untrusted input for a log line."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


def configure(level: str = "INFO", log_file: str | None = None) -> None:
    """Send the package's records to stderr, or to ``log_file`` when one is given."""
    root = logging.getLogger(LOGGER_NAME)
    root.setLevel(level.upper())
    handler: logging.Handler = (
        logging.FileHandler(log_file, encoding="utf-8")
        if log_file
        else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.handlers[:] = [handler]
    root.propagate = False
