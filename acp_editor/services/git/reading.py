"""Reading from checkpoints: what differs between two, what a file held in one, many blobs
streamed, the folders one holds files in."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from acp_editor.services.git.store import PrivateStore

Status = Literal["added", "modified", "deleted"]
STATUS_LETTERS: dict[str, Status] = {"A": "added", "M": "modified", "D": "deleted", "T": "modified"}
"""What a letter of `git diff-tree --raw` says of a file (a type change counts as a change)."""


@dataclass(frozen=True)
class Change:
    path: Path
    status: Status
    old: str | None = field(default=None, compare=False)
    """The blob the file had in the older checkpoint (None: it was not there)..."""
    new: str | None = field(default=None, compare=False)
    """...and in the newer one (None: it is gone)."""
    old_mode: str | None = field(default=None, compare=False)
    """Its mode in the older checkpoint (``100644``, ``100755``, ``120000`` for a symlink)."""


class Reading(PrivateStore):
    """A store's checkpoints read and compared."""

    async def changes(self, old: str, new: str) -> list[Change]:
        """What differs between two checkpoints, file by file."""
        if old == new:
            return []
        await self._ensure()
        out = await self._git("diff-tree", "-r", "-z", "--no-renames", "--raw", old, new)
        fields = out.split(b"\0")
        found = []
        # Each path made from one string: ``root / name`` parses both (a third of the time at
        # 20,000 files, bench/bulk.py).
        base = str(self.root).rstrip("/") + "/"
        for info, raw in zip(fields[0::2], fields[1::2], strict=False):
            # ":OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS"
            parts = info.decode().lstrip(":").split()
            kind = STATUS_LETTERS.get(parts[4][:1]) if len(parts) == 5 else None
            if kind is not None and raw:
                before = parts[2] if kind != "added" else None
                after = parts[3] if kind != "deleted" else None
                mode = parts[0] if kind != "added" else None
                found.append(Change(Path(base + os.fsdecode(raw)), kind, before, after, mode))
        return found

    async def directories(self, tree: str) -> list[Path]:
        """The root and every directory below it that holds a file of the checkpoint: where
        changes that matter can happen (ignored directories such as ``node_modules`` are not
        among them)."""
        await self._ensure()
        out = await self._git("ls-tree", "-r", "-d", "-z", "--name-only", tree)
        return [self.root, *(self.root / os.fsdecode(raw) for raw in out.split(b"\0") if raw)]

    async def blobs(self, ids: list[str]) -> AsyncIterator[tuple[str, bytes | None]]:
        """The contents of the blobs ``ids`` (None: missing), in order, one git run: read as
        they come, so thousands of files never sit in memory together."""
        await self._ensure()
        proc = await asyncio.create_subprocess_exec(
            "git",
            "cat-file",
            "--batch",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            cwd=self.root,
            env=self._env(),
            limit=1 << 20,
        )
        assert proc.stdin is not None and proc.stdout is not None
        feeding = asyncio.ensure_future(_feed(proc.stdin, "".join(f"{i}\n" for i in ids)))
        try:
            for blob in ids:
                header = (await proc.stdout.readline()).split()
                if len(header) != 3 or header[1] != b"blob":
                    yield blob, None
                    continue
                body = await proc.stdout.readexactly(int(header[2]) + 1)
                yield blob, body[:-1]
        finally:
            feeding.cancel()
            if proc.returncode is None:
                proc.kill()
            await proc.wait()

    async def read(self, tree: str, path: Path) -> bytes | None:
        """The content ``path`` had in a checkpoint, or None when it did not exist there."""
        rel = path.relative_to(self.root).as_posix()  # a resolved path below the root
        if "\n" in rel:  # --batch reads names a line each
            if not await self._git("ls-tree", "-z", tree, "--", rel):
                return None
            return await self._git("cat-file", "blob", f"{tree}:{rel}")
        # One git run either way: --batch says "missing" instead of failing.
        out = await self._git("cat-file", "--batch", stdin=f"{tree}:{rel}\n".encode())
        header, _, body = out.partition(b"\n")
        fields = header.split()
        if len(fields) != 3 or fields[1] != b"blob":
            return None  # missing, or not a file there (a directory)
        return body[: int(fields[2])]


async def _feed(stdin: asyncio.StreamWriter, lines: str) -> None:
    """Write a batch's questions while its answers are read (a full pipe would stall both)."""
    try:
        stdin.write(lines.encode())
        await stdin.drain()
        stdin.close()
    except (BrokenPipeError, ConnectionResetError):
        pass
