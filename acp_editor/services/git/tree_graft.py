"""A checkpoint made from the one before it and the few files a file watch named, without the
store's index.

Each git run that reads the index of a 100,000-file workspace spends tens of milliseconds
reading it, and a checkpoint through the index takes three in a row (what changed, the update,
the tree): about 100 ms where a turn's agent changed one file (bench/scale_lsp.py). Here the
trees above the named files are read from the last checkpoint, the files hashed, and the trees
made again (``cat-file``, ``hash-object``, ``mktree``: none reads the index). The index is
left behind for those files: ``services.git.taking`` hands them to its next update.

A file is taken as the index would take it: a regular file of at most the size limit, at its
mode; not at all when it is gone, too large or no plain file; a new one only when no
``.gitignore`` rule leaves it out. What this cannot do the same way (a folder, a symbolic link,
a name with a line break) is answered ``None``: the index does it.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path

GitRun = Callable[..., Awaitable[bytes]]
"""A git run against the checkpoint store (its arguments, ``stdin=`` bytes, ``ok=`` exit
codes): its stdout."""
TREE = b"40000"
Tree = dict[bytes, tuple[bytes, bytes]]
"""One folder of a checkpoint: name -> (mode, binary object id)."""
Found = dict[bytes, bytes | None]
"""Path below the root -> the mode it is taken at, None: not in the checkpoint."""


async def graft(
    git: GitRun, root: Path, tree: str, paths: list[bytes], limit: int
) -> tuple[str, list[bytes]] | None:
    """``tree`` with ``paths`` (below ``root``, as bytes) as they are now: its id and the paths
    it took in or left out (not those an ignore rule leaves out: as the index would not have
    them), or None when the index must make it (see the module docstring)."""
    found = await asyncio.to_thread(_look, root, paths, limit)
    if found is None:
        return None
    folders = await _read(git, tree, {_parent(p) for p in found})
    if folders is None:
        return None
    taken = [p for p, mode in found.items() if mode is not None]
    new = [p for p in taken if _name(p) not in folders[_parent(p)]]
    if new:
        ignored = await git("check-ignore", "--no-index", "-z", "--stdin", stdin=_z(new), ok=(0, 1))
        for path in ignored.split(b"\0"):
            found.pop(path, None)
    kept = [p for p in taken if p in found]
    ids = await git("hash-object", "-w", "--stdin-paths", stdin=_lines(kept)) if kept else b""
    blobs = dict(zip(kept, (bytes.fromhex(i.decode()) for i in ids.split()), strict=False))
    if len(blobs) != len(kept):
        return None
    for path, mode in found.items():
        folder = folders[_parent(path)]
        if mode is None:
            folder.pop(_name(path), None)
        else:
            folder[_name(path)] = (mode, blobs[path])
    made = await _write(git, folders)
    return (made, list(found)) if made is not None else None


def _look(root: Path, paths: list[bytes], limit: int) -> Found | None:
    """How each path is taken now (see the module docstring); None for a folder or a link."""
    base = os.fsencode(root) + b"/"
    found: Found = {}
    for path in paths:
        if b".git" in path.split(b"/") or b"\n" in path:
            return None
        try:
            info = os.lstat(base + path)
        except (FileNotFoundError, NotADirectoryError):
            found[path] = None
            continue
        if stat.S_ISDIR(info.st_mode) or stat.S_ISLNK(info.st_mode):
            return None
        regular = stat.S_ISREG(info.st_mode) and info.st_size <= limit
        found[path] = (b"100755" if info.st_mode & 0o100 else b"100644") if regular else None
    return found


async def _read(git: GitRun, tree: str, parents: set[bytes]) -> dict[bytes, Tree] | None:
    """Every folder above ``parents`` (and they) in ``tree``, by path (b"" the root); a folder
    it does not have is empty. None when one of them is a file there."""
    folders = sorted({a for p in parents for a in _ancestors(p)})
    asked = b"".join(tree.encode() + (b":" + f if f else b"") + b"\n" for f in folders)
    out = await git("cat-file", "--batch", stdin=asked)
    read: dict[bytes, Tree] = {}
    at = 0
    for folder in folders:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if header[-1] == b"missing":
            read[folder] = {}
            continue
        if header[1] != b"tree":
            return None
        size = int(header[2])
        read[folder] = _entries(out[at : at + size])
        at += size + 1
    return read


def _entries(body: bytes) -> Tree:
    entries: Tree = {}
    at = 0
    while at < len(body):
        space = body.index(b" ", at)
        nul = body.index(b"\0", space)
        entries[body[space + 1 : nul]] = (body[at:space], body[nul + 1 : nul + 21])
        at = nul + 21
    return entries


async def _write(git: GitRun, folders: dict[bytes, Tree]) -> str | None:
    """The folders' trees written, the deepest first, each into the one above it (an empty one
    left out, as the index leaves it out): the root's id. None if git names a tree otherwise
    than it is computed here (it is written all the same: nothing refers to it)."""
    asked: list[bytes] = []
    made: list[bytes] = []
    for folder in sorted(folders, key=lambda f: -f.count(b"/") - bool(f)):
        body = _serialized(folders[folder])
        made.append(hashlib.sha1(b"tree %d\0" % len(body) + body, usedforsecurity=False).digest())
        asked.append(_listing(folders[folder]))
        if folder:
            above = folders[_parent(folder)]
            if body:
                above[_name(folder)] = (TREE, made[-1])
            else:
                above.pop(_name(folder), None)
    out = await git("mktree", "-z", "--missing", "--batch", stdin=b"".join(asked))
    if out.split() != [m.hex().encode() for m in made]:
        return None
    return made[-1].hex()


def _serialized(tree: Tree) -> bytes:
    """A tree object's body, in git's order (a folder's name sorts as if it ended in "/")."""
    names = sorted(tree, key=lambda n: n + b"/" if tree[n][0] == TREE else n)
    return b"".join(tree[n][0] + b" " + n + b"\0" + tree[n][1] for n in names)


def _listing(tree: Tree) -> bytes:
    """The tree as ``mktree -z`` reads it, ended by an empty line."""
    kinds = {TREE: b"tree", b"160000": b"commit"}
    lines = [
        b"%s %s %s\t%s\0" % (mode, kinds.get(mode, b"blob"), oid.hex().encode(), name)
        for name, (mode, oid) in tree.items()
    ]
    return b"".join(lines) + b"\0"


def _ancestors(path: bytes) -> list[bytes]:
    """``path`` (a folder) and every folder above it, up to the root (b"")."""
    found = [path]
    while path:
        path = _parent(path)
        found.append(path)
    return found


def _parent(path: bytes) -> bytes:
    return path.rpartition(b"/")[0]


def _name(path: bytes) -> bytes:
    return path.rpartition(b"/")[2]


def _z(paths: list[bytes]) -> bytes:
    return b"".join(p + b"\0" for p in paths)


def _lines(paths: list[bytes]) -> bytes:
    return b"".join(p + b"\n" for p in paths)
