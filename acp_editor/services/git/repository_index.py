"""The first checkpoint of a repository's top folder starts from the repository's own index.

A copy of the user's index (its stat data with it) and the repository's object store borrowed
(``objects/info/alternates``) for the blobs it names: only files that differ from that index are
then read and hashed, so the first checkpoint of a 100,000-file repository costs about what
``git status`` costs there. Not done where the repository's blobs may differ from the files'
bytes (clean filters such as Git LFS, end-of-line conversion), for index formats a private copy
cannot use (split or sparse indexes, worktrees), nor while a merge is unfinished: the store
(``services.git.checkpoints``) then hashes every file, as in a folder that is not a repository.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import shutil
import struct
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

from acp_editor.services.git import environment

GitRun = Callable[..., Awaitable[bytes]]
"""A git run against the checkpoint store (its arguments, ``stdin=`` bytes): its stdout."""


async def borrow_index(root: Path, store: Path, git: GitRun) -> str | None:
    """Start ``store``'s index from the repository's own (see the module docstring): None when
    that is done and safe, else why not (then ``give_back``). Raises what ``git`` raises, and
    ``OSError``."""
    why = await asyncio.to_thread(_not_seedable, root)
    if why is None:
        await asyncio.to_thread(_borrow, root / ".git", _index(store), _alternates(store))
        why = await _unusable_copy(root, git)
    return why


def give_back(store: Path) -> None:
    """Undo a borrowing that cannot be used: no index (every file is read and hashed), and no
    borrowed objects unless a checkpoint kept already may need them."""
    _index(store).unlink(missing_ok=True)
    for shared in store.glob("sharedindex.*"):  # nothing links to it any more
        shared.unlink(missing_ok=True)
    if not any(True for _ in (store / "refs" / "acp").rglob("*")):
        _alternates(store).unlink(missing_ok=True)


def _index(store: Path) -> Path:
    return store / "acp-index"


def _alternates(store: Path) -> Path:
    return store / "objects" / "info" / "alternates"


async def _unusable_copy(root: Path, git: GitRun) -> str | None:
    """Why the copied index cannot be used as it is (after dropping submodule entries), or
    None. A file the copy names that is not on disk is simply found deleted."""
    if await git("ls-files", "-u", "-z"):
        return "the repository has unmerged paths (a merge is in progress)"
    if (root / ".gitmodules").exists():  # submodules are not checkpointed
        staged = await git("ls-files", "-s", "-z")
        links = [e.split(b"\t", 1)[1] for e in staged.split(b"\0") if e.startswith(b"160000 ")]
        if links:
            gone = b"".join(p + b"\0" for p in links)
            await git("update-index", "--force-remove", "-z", "--stdin", stdin=gone)
    for raw in (await git("ls-files", "-z", "--", ":(glob)**/.gitattributes")).split(b"\0"):
        if raw and _converts(root / os.fsdecode(raw)):
            return f"{os.fsdecode(raw)} converts files (filters or end of lines)"
    return None


_CONVERTING = frozenset({"text", "eol", "crlf", "filter", "ident", "working-tree-encoding"})
"""Attributes under which the blob git stores may differ from the file's bytes."""


def _converts(attributes: Path) -> bool:
    """Whether a gitattributes file sets an attribute that converts content (conservatively:
    any line, a macro's too; unsetting one (``-text``) converts nothing)."""
    try:
        text = attributes.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return False
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        for token in tokens[1:]:
            if token[:1] not in "-!" and re.split("=", token, maxsplit=1)[0] in _CONVERTING:
                return True
    return False


def _not_seedable(root: Path) -> str | None:
    """Why the repository at ``root`` (if any) cannot lend its index, or None."""
    git = root / ".git"
    if not git.is_dir() or not (git / "index").is_file():
        return "no repository index at the folder's top"
    if (git / "info" / "sparse-checkout").exists() or any(git.glob("sharedindex.*")):
        return "a sparse or split index"
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    for attributes in (git / "info" / "attributes", home / "git" / "attributes"):
        if _converts(attributes):
            return f"{attributes} converts files"
    env = environment.inherited()
    asked = ["git", "config", "--get-regexp", r"^core\.(autocrlf|attributesfile)$"]
    try:  # as the user's git sees it: their own and global settings
        said = subprocess.run(asked, cwd=root, env=env, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"git config: {exc}"
    for line in said.stdout.splitlines():
        name, _, value = line.partition(" ")
        if name == "core.autocrlf" and value.lower() in ("true", "input"):
            return "core.autocrlf converts end of lines"
        if name == "core.attributesfile" and _converts(Path(os.path.expanduser(value))):
            return f"{value} converts files"
    return None


def _borrow(git: Path, index: Path, alternates: Path) -> None:
    """Our index starts as a copy of the repository's (its stat data with it, and its time, so
    git's check for entries written in the same instant as the index still holds); the blobs it
    names are read from the repository's object store.

    The copy is the shared part of a split index (``core.splitIndex``, ``store_setup``), and
    our index only links to it: had the copy been our index, git's first write of it made
    the shared part, a second copy (17.6 MB written for a 100,000-file repository instead of
    8.8). An index without a checksum (``index.skipHash``) cannot be linked to: copied whole."""
    alternates.parent.mkdir(parents=True, exist_ok=True)
    alternates.write_text(f"{(git / 'objects').resolve()}\n", encoding="utf-8")
    copy = index.with_name("acp-index.copy")
    shutil.copy2(git / "index", copy)
    with copy.open("rb") as copied:
        copied.seek(-HASH_SIZE, os.SEEK_END)
        checksum = copied.read(HASH_SIZE)
    if checksum == bytes(HASH_SIZE):
        os.replace(copy, index)
        return
    shared = index.with_name(f"sharedindex.{checksum.hex()}")
    os.replace(copy, shared)
    index.write_bytes(_link_only(checksum, _cache_tree(shared.read_bytes())))
    times = os.stat(index.with_name(f"sharedindex.{checksum.hex()}"))
    os.utime(index, ns=(times.st_atime_ns, times.st_mtime_ns))


HASH_SIZE = 20
"""The length of an index's checksum (SHA-1; a SHA-256 repository's objects cannot be
borrowed by a SHA-1 store anyway)."""


def _cache_tree(index: bytes) -> bytes:
    """An index's ``TREE`` extension (every folder's tree id, and how many entries it holds),
    whole, or nothing when the index has none or is of a version not known here. Our split
    index carries it: without it, git's first ``write-tree`` made every tree again (550 ms
    at 100,000 files, against 20 ms)."""
    version, count = struct.unpack(">II", index[4:12])
    if index[:4] != b"DIRC" or version not in (2, 3, 4):
        return b""
    at = 12
    for _ in range(count):  # entries: skipped to reach the extensions
        flags = int.from_bytes(index[at + 60 : at + 62], "big")
        name = at + 62 + (2 if version >= 3 and flags & 0x4000 else 0)
        if version == 4:  # a varint (how much of the last name to drop), then the rest
            while index[name] & 0x80:
                name += 1
            at = index.index(b"\0", name + 1) + 1
        else:
            length = flags & 0xFFF
            if length == 0xFFF:
                length = index.index(b"\0", name) - name
            at += (name - at + length + 8) & ~7
    end = len(index) - HASH_SIZE
    while at + 8 <= end:
        size = int.from_bytes(index[at + 4 : at + 8], "big")
        if index[at : at + 4] == b"TREE":
            return index[at : at + 8 + size]
        at += 8 + size
    return b""


def _link_only(shared: bytes, cache_tree: bytes = b"") -> bytes:
    """A split index with no entries of its own: all of them are the shared index's (its
    checksum ``shared``): the header, the ``link`` extension (the checksum, and no entry
    deleted or replaced: two empty EWAH bitmaps, which git 2.39 needs there), the shared
    index's ``cache_tree`` (its ``TREE`` extension, or nothing), the checksum of all."""
    empty = struct.pack(">IIQI", 0, 1, 0, 0)  # no bits; one run-length word, at 0
    link = shared + empty + empty
    body = b"DIRC" + struct.pack(">II", 2, 0) + b"link" + struct.pack(">I", len(link)) + link
    body += cache_tree
    return body + hashlib.sha1(body, usedforsecurity=False).digest()
