"""Paths as the agent sees them and as the editor sees them, when the two differ (issue 38).

An agent in a sandbox, a container or on another machine sees the workspace at another path
(``/workspace`` for the editor's ``/home/me/project``, through a bind mount or a synced
folder). A ``PathMap`` holds the pairs, ``AGENT_PATH=EDITOR_PATH`` (``--map-path``, a preset's
``mapPaths``), and rewrites every path in a message that crosses the ACP link: the keys that
hold one (``path``, ``cwd``, ``oldPath``, ``additionalDirectories``, a ``file://`` ``uri``),
wherever they are in it (requests, tool calls' locations and diffs, ``rawInput``, ``_meta``).
An absolute path outside every pair is left as it is and reported, so that what reads or writes
a file can refuse it by name (``unmapped``) rather than touch a file elsewhere.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlsplit

PATH_KEYS = frozenset({"path", "cwd", "oldPath"})
"""Keys whose string value is a path (the ACP schema's, v1 and v2: fs requests, locations,
diffs and their v2 path changes, terminals, sessions; tools' ``rawInput`` by convention)."""
LIST_KEYS = frozenset({"additionalDirectories"})
URI_KEYS = frozenset({"uri"})


class MappingError(ValueError):
    """A ``--map-path`` that is not ``AGENT_PATH=EDITOR_PATH`` with two absolute paths."""


@dataclass(frozen=True)
class PathMap:
    """Pairs of (agent path, editor path), longest first, so the most specific one wins."""

    pairs: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, specs: Iterable[str]) -> PathMap:
        """``AGENT_PATH=EDITOR_PATH`` each."""
        pairs = []
        for spec in specs:
            agent, sep, editor = spec.partition("=")
            if not sep or not posixpath.isabs(agent) or not posixpath.isabs(editor):
                raise MappingError(
                    f"--map-path {spec!r}: expected AGENT_PATH=EDITOR_PATH, both absolute"
                )
            pairs.append((_clean(agent), _clean(editor)))
        return cls.of(pairs)

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, str]]) -> PathMap:
        ordered = sorted(dict.fromkeys(pairs), key=lambda p: -len(p[0]))
        return cls(tuple(ordered))

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def describe(self) -> str:
        """The pairs as a user wrote them, for an error that names them."""
        return ", ".join(f"{agent}={editor}" for agent, editor in self.pairs) or "none"

    def to_editor(self, path: str) -> str | None:
        """The editor's path for the agent's ``path`` (None: outside every pair)."""
        return _swap(path, list(self.pairs))

    def to_agent(self, path: str) -> str | None:
        """The agent's path for the editor's ``path`` (None: outside every pair)."""
        return _swap(path, sorted(((e, a) for a, e in self.pairs), key=lambda p: -len(p[0])))

    def inbound(self, message: Any) -> Mapped:
        """A message from the agent, its paths the editor's."""
        return _walk(message, self.to_editor)

    def outbound(self, message: Any) -> Mapped:
        """A message to the agent, its paths the agent's."""
        return _walk(message, self.to_agent)


@dataclass
class Mapped:
    """A message rewritten, and the absolute paths in it that no pair holds (left as they
    were)."""

    value: Any
    unmapped: list[str] = field(default_factory=list)


def _clean(path: str) -> str:
    cleaned = posixpath.normpath(path)
    return "/" if cleaned == "//" else cleaned


def _swap(path: str, pairs: list[tuple[str, str]]) -> str | None:
    if not posixpath.isabs(path):
        return path  # relative: the same on both sides, read against the session's folder
    cleaned = _clean(path)
    for source, target in pairs:
        if cleaned == source:
            return target
        prefix = source if source.endswith("/") else source + "/"
        if cleaned.startswith(prefix):
            return posixpath.join(target, cleaned[len(prefix) :])
    return None


Swap = Callable[[str], "str | None"]


def _walk(value: Any, swap: Swap) -> Mapped:
    unmapped: list[str] = []
    return Mapped(_rewrite(value, swap, unmapped, None), unmapped)


def _rewrite(value: Any, swap: Swap, unmapped: list[str], key: str | None) -> Any:
    if isinstance(value, dict):
        return {k: _rewrite(v, swap, unmapped, k) for k, v in value.items()}
    if isinstance(value, list):
        inner = key if key in LIST_KEYS else None
        return [_rewrite(v, swap, unmapped, inner) for v in value]
    if not isinstance(value, str):
        return value
    if key in PATH_KEYS or key in LIST_KEYS:
        return _one(value, value, swap, unmapped)
    if key in URI_KEYS and value.startswith("file://"):
        parts = urlsplit(value)
        path = unquote(parts.path)
        mapped = _one(path, path, swap, unmapped)
        return value if mapped == path else f"file://{parts.netloc}{quote(mapped)}"
    return value


def _one(path: str, original: str, swap: Swap, unmapped: list[str]) -> str:
    mapped = swap(path)
    if mapped is None:
        unmapped.append(original)
        return original
    return str(mapped)
