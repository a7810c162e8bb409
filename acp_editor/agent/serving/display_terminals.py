"""Terminals the agent runs itself, shown like the ones it asks us to run.

Current agents run commands on their own and report them for display only:

* v1 agents in a tool call's ``_meta``: ``terminal_info`` (the terminal and its command),
  ``terminal_output`` / ``terminal_output_delta`` (output to append, as text), ``terminal_exit``
  (``exit_code``, ``signal``), next to a ``terminal`` content item whose id we never created;
* the ACP v2 draft in session updates: ``terminal_update`` (an upsert: ``output.data`` replaces
  what was shown, ``exitStatus`` says it ended) and ``terminal_output_chunk`` (``data`` to
  append). Both are base64 bytes, and a chunk may split a UTF-8 sequence: each terminal keeps
  its own incremental decoder.

Each becomes the same two front-end events client terminals produce (``terminal_output``,
``terminal_exited``), so editors show both kinds the same way. The raw updates are read here,
before the session state stores them: consecutive identical chunks are distinct output. A v2
terminal's ``capabilities`` (schema 1.25) are kept too: ``terminal/cancel`` goes to the agent only
while the terminal advertises it and has not exited (``cancel_refused``).
"""

from __future__ import annotations

import base64
import binascii
import codecs
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from acp_editor.log import get_logger
from acp_editor.protocol import tool_call

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend

log = get_logger(__name__)

_DECODER = codecs.getincrementaldecoder("utf-8")


_TERMINAL_META = frozenset({"terminal_output", "terminal_output_delta", "terminal_exit"})
"""The ``_meta`` keys of a v1 tool call that carry a terminal (most tool calls have none)."""

KEEP_EXITED = 64
"""Exited terminals remembered, the oldest forgotten first: a late update of one that ended a
moment ago is still shown as before and its exit is not told twice, while a long session does not
keep every command's terminal (bench/scale.py: one per turn, 0.1 MB over 300 turns). One forgotten
and then updated again starts afresh (its exit told again): that takes 64 commands in between."""


@dataclass
class _Terminal:
    decoder: codecs.IncrementalDecoder = field(default_factory=lambda: _DECODER(errors="replace"))
    shown: bool = False
    exited: bool = False
    cancellable: bool = False
    """v2: its last ``terminal_update`` that said so advertised ``capabilities.cancel``."""


class DisplayTerminals:
    def __init__(self, frontend: Frontend) -> None:
        self.frontend = frontend
        self._terminals: dict[tuple[str, str], _Terminal] = {}
        self._exited: dict[tuple[str, str], None] = {}
        """The exited ones among them, oldest first (a dict as an ordered set)."""

    def update(self, session_id: str, update: Any) -> None:
        """A raw ``session/update`` payload, in arrival order."""
        if not isinstance(update, dict):
            return
        kind = update.get("sessionUpdate")
        if kind in ("tool_call", "tool_call_update"):
            meta = update.get("_meta")
            if isinstance(meta, dict) and not _TERMINAL_META.isdisjoint(meta):
                self._v1_meta(session_id, update.get("toolCallId"), meta)
        elif kind == "terminal_update":
            self._v2_update(session_id, update)
        elif kind == "terminal_output_chunk":
            terminal_id = update.get("terminalId")
            if isinstance(terminal_id, str):
                self._append(session_id, terminal_id, _bytes(update.get("data")))

    # -- v1: _meta on tool calls ------------------------------------------------------------------

    def _v1_meta(self, session_id: str, call_id: Any, meta: dict[str, Any]) -> None:
        for key in ("terminal_output", "terminal_output_delta"):
            part = meta.get(key)
            if isinstance(part, dict) and isinstance(part.get("data"), str):
                terminal_id = _terminal_id(part, call_id)
                if terminal_id is not None:
                    self._text(session_id, terminal_id, part["data"])
        end = meta.get("terminal_exit")
        if isinstance(end, dict):
            terminal_id = _terminal_id(end, call_id)
            if terminal_id is not None:
                code = end.get("exit_code", end.get("exitCode"))
                self._exit(session_id, terminal_id, code, end.get("signal"))

    # -- v2: terminal updates -------------------------------------------------------------------

    def _v2_update(self, session_id: str, update: dict[str, Any]) -> None:
        terminal_id = update.get("terminalId")
        if not isinstance(terminal_id, str):
            return
        term = self._terminal(session_id, terminal_id)
        if "capabilities" in update:  # an upsert: omitted leaves them, null clears them
            term.cancellable = tool_call.can_cancel(update)
        output = update.get("output")
        if isinstance(output, dict):
            # A replacement snapshot: what was shown is replaced, so start the text afresh.
            term.decoder = _DECODER(errors="replace")
            if term.shown:
                self._emit(session_id, terminal_id, "\x1bc")  # ESC c: a terminal's full reset
            self._append(session_id, terminal_id, _bytes(output.get("data")))
        status = update.get("exitStatus")
        if isinstance(status, dict):
            self._exit(session_id, terminal_id, status.get("exitCode"), status.get("signal"))

    # -- both -----------------------------------------------------------------------------------

    def cancel_refused(self, session_id: str, terminal_id: str) -> str | None:
        """Why ``terminal/cancel`` must not go to the agent for this terminal now (None: it
        may): one it never reported, one that exited, or one not advertising it."""
        term = self._terminals.get((session_id, terminal_id))
        if term is None:
            return f"the agent reported no terminal {terminal_id!r} in session {session_id}"
        if term.exited:
            return f"terminal {terminal_id} has exited"
        if not term.cancellable:
            return f"the agent does not offer to cancel terminal {terminal_id}"
        return None

    def remembered(self) -> int:
        """How many terminals are remembered (running, or among the last exited)."""
        return len(self._terminals)

    def forget_session(self, session_id: str) -> None:
        """The session is closed: nothing of it is shown any more."""
        for key in [k for k in self._terminals if k[0] == session_id]:
            del self._terminals[key]
            self._exited.pop(key, None)

    def _terminal(self, session_id: str, terminal_id: str) -> _Terminal:
        return self._terminals.setdefault((session_id, terminal_id), _Terminal())

    def _append(self, session_id: str, terminal_id: str, data: bytes) -> None:
        self._text(
            session_id, terminal_id, self._terminal(session_id, terminal_id).decoder.decode(data)
        )

    def _text(self, session_id: str, terminal_id: str, text: str) -> None:
        if text:
            self._emit(session_id, terminal_id, text)

    def _emit(self, session_id: str, terminal_id: str, text: str) -> None:
        self._terminal(session_id, terminal_id).shown = True
        self.frontend.terminal_output(session_id, terminal_id, text)

    def _exit(self, session_id: str, terminal_id: str, code: Any, signal: Any) -> None:
        term = self._terminal(session_id, terminal_id)
        self._text(session_id, terminal_id, term.decoder.decode(b"", final=True))
        if term.exited:
            return
        term.exited = True
        self._exited[(session_id, terminal_id)] = None
        while len(self._exited) > KEEP_EXITED:
            oldest = next(iter(self._exited))
            del self._exited[oldest]
            self._terminals.pop(oldest, None)
        status = {
            "exitCode": code if isinstance(code, int) and not isinstance(code, bool) else None,
            "signal": signal if isinstance(signal, str) else None,
        }
        self.frontend.terminal_exited(session_id, terminal_id, status)


def _terminal_id(part: dict[str, Any], call_id: Any) -> str | None:
    """The terminal a ``_meta`` part is about; agents that name none mean the tool call's."""
    for key in ("terminal_id", "terminalId"):
        if isinstance(part.get(key), str):
            return str(part[key])
    return call_id if isinstance(call_id, str) else None


def _bytes(data: Any) -> bytes:
    if not isinstance(data, str):
        return b""
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        log.warning("terminal output that is not base64 skipped (%d characters)", len(data))
        return b""
