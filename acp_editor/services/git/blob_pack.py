"""Many new blobs written into one pack ahead of ``git update-index``.

A checkpoint (``services.git.taking``) that stores ``PACKED_FROM`` files or more has their
blobs written into one pack by ``git fast-import``, fed from here, so that update-index finds
each one stored instead of creating a loose object per file.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from pathlib import Path

from acp_editor.log import get_logger

log = get_logger(__name__)

PACKED_FROM = 64
"""A checkpoint storing this many files or more writes their blobs into one pack, not a file
each (20,000 new files: 5.2 s of creating loose objects on this machine). Fewer stay loose: a
pack per turn slowed every lookup down over 300 turns. The pack is written ahead by ``git
fast-import`` (``prepack``), after which ``update-index`` finds every blob stored; taking every
file as "big" for that run instead (``core.bigFileThreshold=1``, what is left when fast-import
fails) streams each file through zlib set up anew: 20,000 changed files, an ``update-index``
of 0.6-1.3 s against 0.16-0.23 s of fast-import and 0.13 s of update-index."""


def prepack(root: Path, files: list[bytes], size_limit: int, env: dict[str, str]) -> bool:
    """Write the blobs of ``files`` into one pack, as they are now (``git fast-import``, fed
    from here), so that ``update-index`` finds each one already stored. Only a head start:
    update-index still reads, hashes and stats every file itself, and a file that changed
    in between is stored by it as well. False: fast-import failed."""
    root_bytes = os.fsencode(root) + b"/"
    args = ["git", "-c", f"fastimport.unpackLimit={PACKED_FROM - 1}", "fast-import"]
    try:
        proc = subprocess.Popen(
            [*args, "--quiet", "--depth=0"],  # no deltas: as the packed update-index
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=root,
            env=env,
        )
    except OSError as exc:
        log.info("could not start git fast-import: %s", exc)
        return False
    assert proc.stdin is not None and proc.stderr is not None
    try:
        for raw in files:
            data = read_plain(root_bytes + raw, size_limit)
            if data is not None:
                proc.stdin.write(b"blob\ndata %d\n" % len(data))
                proc.stdin.write(data)
                proc.stdin.write(b"\n")
        proc.stdin.close()
    except OSError:  # it stopped reading (it says why below)
        with contextlib.suppress(OSError):
            proc.stdin.close()
    with proc.stderr:
        err = proc.stderr.read()
    if proc.wait() != 0:
        log.info("git fast-import failed: %s", err.decode(errors="replace").strip())
        return False
    return True


def read_plain(path: bytes, limit: int) -> bytes | None:
    """The bytes of a plain file of at most ``limit`` bytes; None for anything else (gone, a
    symlink, a FIFO: opened without waiting for a writer, then left alone)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        parts = [os.read(fd, info.st_size + 1)]  # one read for a file that keeps its size
        while parts[-1] and sum(map(len, parts)) <= limit:
            parts.append(os.read(fd, 1 << 20))
        data = b"".join(parts)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)
