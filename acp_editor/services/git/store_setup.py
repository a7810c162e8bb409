"""A checkpoint store's own files, set up by us rather than by more git processes: whose store
it is, its settings, and what it ignores and how it keeps bytes."""

from __future__ import annotations

import re
from pathlib import Path

from acp_editor.log import get_logger
from acp_editor.storage import below

log = get_logger(__name__)

CONFIG = """[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tautocrlf = false
\tsplitIndex = true
[gc]
\tauto = 0
"""
"""Our store's settings: a work tree of our own choosing, no automatic gc (it would collect
unnamed checkpoints). A split index: a checkpoint after a few changes writes those entries (tens
of KB), not the whole index again (8 MB at 100,000 files)."""
BYTES_AS_THEY_ARE = b"* -text !eol -crlf -filter -ident -working-tree-encoding\n"
"""Our store's ``info/attributes`` (above every ``.gitattributes``): a checkpoint keeps a file's
bytes, never a normalized copy (``text=auto`` would have put a CRLF file back with LF)."""


def settle(store: Path, root: Path) -> None:
    """After ``git init``: the root the store is of (``services.retention`` reads it) and our
    settings, written whole (a store made by an older version gets today's)."""
    root_file = store / "acp-root"
    if not root_file.exists():
        root_file.write_text(str(root), encoding="utf-8")
    config = store / "config"
    if config.read_text(encoding="utf-8") != CONFIG:
        config.write_text(CONFIG, encoding="utf-8")


def copy_excludes(store: Path, root: Path) -> None:
    """The repository's own ``info/exclude`` counts too (``.gitignore`` files are read from the
    work tree by git itself), and the state directory when it is inside the root (our own
    files: this store among them); our ``info/attributes`` keeps bytes as they are."""
    theirs = root / ".git" / "info" / "exclude"
    try:
        text = theirs.read_bytes() if theirs.is_file() else b""
        own = below(root)
        if own is not None:
            text += b"\n" if text and not text.endswith(b"\n") else b""
            text += b"/" + _literal(own).encode() + b"/\n"
        _write_if_changed(store / "info" / "exclude", text)
        _write_if_changed(store / "info" / "attributes", BYTES_AS_THEY_ARE)
    except OSError as exc:
        log.info("could not copy %s: %s", theirs, exc)


def _literal(name: str) -> str:
    """``name`` as an exclude pattern that matches only itself (git's wildcards escaped)."""
    return re.sub(r"([\\*?\[\]!# ])", r"\\\1", name)


def _write_if_changed(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
