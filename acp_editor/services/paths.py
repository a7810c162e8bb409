"""Which paths an agent may touch, and validation of the other fields it sends.

Every path in an agent's request is untrusted: it may be relative, climb out with ``..``, or
reach outside the project through a symlink. ``PathPolicy.check`` turns it into the real,
resolved path the request will act on, so that a handler never opens something other than what
was checked (a symlink swapped in later is the only gap, and it is the agent's own machine).

The small ``require_*`` helpers live here too: they are the rest of "is this request well
formed", and every service answers a malformed one the same way, with ``InvalidParams``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from acp_editor.errors import InvalidParams


def _resolve(path: str) -> Path:
    """The real path, symlinks and ``..`` resolved component by component.

    ``realpath`` (non-strict) follows every symlink that exists, including one whose target is
    missing, and keeps the not-yet-existing tail as written: the same place the kernel would
    create the file. ``..`` is applied after the component before it is resolved, as the kernel
    does, so ``root/link/../x`` is judged by where ``link`` really points.
    """
    return Path(os.path.realpath(path))


class PathPolicy:
    """Allows paths inside a set of roots (the session directories), or anywhere when
    ``unrestricted`` (a user who runs the agent unsandboxed on purpose).

    Roots added for a session bind that session only: one agent with sessions in two projects
    cannot reach the second project through a request of the first."""

    def __init__(self, roots: Sequence[str | Path], unrestricted: bool = False) -> None:
        self.unrestricted = unrestricted
        self._roots: tuple[Path, ...] = ()
        self._by_session: dict[str, tuple[Path, ...]] = {}
        for root in roots:
            self.add_root(root)

    @property
    def roots(self) -> tuple[Path, ...]:
        """The resolved roots, in the order they were added."""
        return self._roots

    def add_root(self, path: str | Path, *, session: str | None = None) -> None:
        """Allow ``path`` and everything below it: for every request, or with ``session`` only
        for that session's (its cwd, its additional directories)."""
        root = _resolve(os.fspath(path))
        # New tuples rather than mutation: ``check`` may run in a worker thread.
        if session is None:
            if root not in self._roots:
                self._roots = (*self._roots, root)
            return
        current = self._by_session.get(session, ())
        if root not in current:
            self._by_session = {**self._by_session, session: (*current, root)}

    def set_session_roots(self, session: str, paths: Sequence[str | Path]) -> None:
        """The session's own roots are now exactly ``paths`` (its workspace folders changed)."""
        roots = tuple(dict.fromkeys(_resolve(os.fspath(p)) for p in paths))
        self._by_session = {**self._by_session, session: roots}

    def roots_for(self, session: str | None) -> tuple[Path, ...]:
        return self._roots + (self._by_session.get(session, ()) if session is not None else ())

    def check(self, raw: Any, *, what: str = "path", session: str | None = None) -> Path:
        """The resolved path for ``raw``, or ``InvalidParams`` saying why it is refused.

        Does a few ``lstat``/``readlink`` calls: async callers run it via ``asyncio.to_thread``.
        """
        if not isinstance(raw, str):
            raise InvalidParams(f"{what} must be a string, got {type(raw).__name__}")
        if "\x00" in raw:
            raise InvalidParams(f"{what} contains a NUL byte: {raw!r}")
        if not os.path.isabs(raw):
            raise InvalidParams(f"{what} must be absolute: {raw!r}")
        resolved = _resolve(raw)
        roots = self.roots_for(session)
        if self.unrestricted or any(resolved.is_relative_to(root) for root in roots):
            return resolved
        allowed = ", ".join(str(root) for root in roots) or "(none)"
        shown = raw if str(resolved) == raw else f"{raw} (resolves to {resolved})"
        raise InvalidParams(
            f"{what} is outside the allowed roots: {shown}; allowed: {allowed}",
            {"path": raw, "resolved": str(resolved), "roots": [str(r) for r in roots]},
        )
