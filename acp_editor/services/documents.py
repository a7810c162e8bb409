"""Serving the agent's ``fs/read_text_file`` and ``fs/write_text_file``.

The request handling (validation, the path policy, line selection, the follow-along hook) is
kept apart from where text comes from: ``DiskDocuments`` reads and writes files, and the editor
link supplies a ``DocumentSource`` that answers from unsaved buffers and routes writes through
the editor, so the agent sees what the user sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from acp_editor.errors import InternalError, InvalidParams, ResourceNotFound, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol.acp import obj, optional_uint, require_str

if TYPE_CHECKING:
    from acp_editor.services.paths import PathPolicy

log = get_logger(__name__)

AccessHook = Callable[[str, Path, str], None]
"""Called with ``("read" | "write", path, session_id)`` before a request is served."""


class DocumentSource(Protocol):
    """Where document text comes from and goes to."""

    async def read_text(self, path: Path) -> str:
        """The text of ``path``: ``ResourceNotFound`` naming it when missing, ``InvalidParams``
        for a directory."""
        ...

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
        base: str | None = None,
    ) -> str | None:
        """Replace the whole text of ``path``, creating it (and its parents) when missing.

        ``label`` names the change where an editor shows it (its undo history); by default the
        editor link names it after the tool call. ``base``: the text the agent made ``text``
        from (what it last read of the file through us, else the disk's text): where the file
        is held with other text (an unsaved buffer), the agent's change is merged into that
        text instead of replacing it. None: ``text`` is meant as it is (a review decision).

        Returns the text the file holds now, as written (the merge, when there was one; the
        editor's report of it may come later and in pieces), or None when that is ``text``."""
        ...

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        """``path`` changed on disk behind our back (an agent wrote it itself, a command did;
        ``None``: it did not / does not exist): bring whatever holds it in memory in line."""
        ...

    def held_paths(self) -> frozenset[str]:
        """The files held in memory (open buffers): of a command's thousands of changed files,
        only these need ``disk_changed`` (and their texts read)."""
        ...

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        """Remove ``path`` (a creation rejected), and let whatever holds it in memory go, so
        that its text is not read back as the file's: ``OSError`` when it cannot be removed.
        ``keep``: the user's own unsaved lines of a buffer of it, which stay there (unsaved)."""
        ...


def umask() -> int:
    """The process umask, read without the set-and-restore race where /proc allows it."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_NEW_FILE_MODE = 0o666 & ~umask()


class DiskDocuments:
    """Files on disk, byte-faithful: UTF-8 both ways and no newline translation, so a CRLF
    file stays CRLF after an agent's edit."""

    async def read_text(self, path: Path) -> str:
        return await asyncio.to_thread(self._read, path)

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        label: str | None = None,
        base: str | None = None,
    ) -> str | None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate escaped in the JSON
            raise InvalidParams(f"content is not valid Unicode: {exc.reason}") from None
        await asyncio.to_thread(self._write, path, data)
        return None

    async def disk_changed(self, path: Path, before: str | None, after: str | None) -> None:
        return None  # the disk is the truth here: nothing holds the file in memory

    def held_paths(self) -> frozenset[str]:
        return frozenset()

    async def remove(self, path: Path, *, label: str, keep: str = "") -> None:
        await asyncio.to_thread(path.unlink, missing_ok=True)  # no buffer to keep text in

    @staticmethod
    def _read(path: Path) -> str:
        try:
            # stat first: opening a FIFO would block the worker thread forever.
            st = path.stat()
            if stat.S_ISDIR(st.st_mode):
                raise InvalidParams(f"path is a directory, not a file: {path}")
            if not stat.S_ISREG(st.st_mode):
                raise InvalidParams(f"path is not a regular file: {path}")
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                return f.read()
        except (FileNotFoundError, NotADirectoryError):
            raise ResourceNotFound(f"file not found: {path}", {"path": str(path)}) from None
        except OSError as exc:
            raise InternalError(f"cannot read {path}: {exc.strerror}") from None

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        """Write via a temp file in the same directory and ``os.replace``, so a reader (or a
        crash) never sees a half-written file, and keep an existing file's mode and owner."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                old: os.stat_result | None = path.stat()
            except FileNotFoundError:
                old = None
            if old is not None and stat.S_ISDIR(old.st_mode):
                raise InvalidParams(f"path is a directory, not a file: {path}")
            import tempfile  # at the first write: not before the initialize answer

            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        except (NotADirectoryError, FileExistsError):
            raise InvalidParams(f"a parent of {path} is not a directory") from None
        except OSError as exc:
            raise InternalError(f"cannot write {path}: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode) if old else _NEW_FILE_MODE)
                if old is not None:
                    with contextlib.suppress(PermissionError):
                        os.fchown(f.fileno(), old.st_uid, old.st_gid)
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                raise InternalError(f"cannot write {path}: {exc.strerror}") from None
            raise


def select_lines(text: str, line: int | None, limit: int | None) -> str:
    """Up to ``limit`` lines starting at 1-based ``line`` (0 counts as 1: agents send it).

    Lines end at ``\\n`` only, and each selected line keeps its ending as in the file (``\\r\\n``
    stays). A start past the end gives ``""``.
    """
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    start = 0
    for _ in range(max(line or 1, 1) - 1):
        nl = text.find("\n", start)
        if nl < 0:
            return ""
        start = nl + 1
    if limit is None:
        return text[start:]
    end = start
    for _ in range(limit):
        nl = text.find("\n", end)
        if nl < 0:
            return text[start:]
        end = nl + 1
    return text[start:end]


READS_KEPT = 256
"""Files whose last text an agent read through us is kept, per sidecar (the oldest go first:
a write to one of those is merged from the disk's text instead)."""


class FileService:
    """The ``fs/*`` handlers: take the raw params, answer exactly the schema's result shape.

    Every write carries the text the agent made it from: what it last read of the file through
    us, else the disk's text when the write arrives (agents such as opencode read the disk
    themselves and write through ``fs/write_text_file``: their text never saw the unsaved
    buffer, and must not take the user's unsaved lines away)."""

    def __init__(
        self, policy: PathPolicy, source: DocumentSource, *, on_access: AccessHook | None = None
    ) -> None:
        self.policy = policy
        self.source = source
        self.on_access = on_access
        self.disk = DiskDocuments()
        self._seen: OrderedDict[tuple[str, Path], str] = OrderedDict()
        """(session, path) -> the whole text the agent last read or wrote there through us."""

    async def read_text_file(self, params: Any) -> dict[str, Any]:
        """``fs/read_text_file`` → ``{"content": ...}``."""
        p = obj(params)
        session_id = require_str(p, "sessionId")
        line = optional_uint(p, "line")
        limit = optional_uint(p, "limit")
        path = await asyncio.to_thread(self.policy.check, p.get("path"), session=session_id)
        self._notify("read", path, session_id)
        try:
            text = await self.source.read_text(path)
        except ResourceNotFound:
            self._seen.pop((session_id, path), None)  # no file: what it writes next is all new
            raise
        self._saw(session_id, path, text)
        return {"content": select_lines(text, line, limit)}

    async def write_text_file(
        self,
        params: Any,
        *,
        tool_call_id: str | None = None,
        review_session: str | None = None,
    ) -> dict[str, Any]:
        """``fs/write_text_file`` → ``{}``. The request carries no tool call id; the agent link
        passes the one it correlated, if any, for the editor to attribute the edit, and the
        session whose work it is when that is not the writer's (a subagent's write is its
        parent's turn's); the writer's own reads are what it wrote from."""
        p = obj(params)
        session_id = require_str(p, "sessionId")
        content = require_str(p, "content")
        path = await asyncio.to_thread(self.policy.check, p.get("path"), session=session_id)
        self._notify("write", path, session_id)
        base, text = self._seen.get((session_id, path)), content
        if base is None:
            try:
                base = await self.disk.read_text(path)
            except ResourceNotFound:
                base = ""  # a new file: everything in it is the agent's
            except RpcError:
                base = None  # unreadable: the write says what of it (as it would without this)
        else:
            base, text = await self._since_seen(path, base, content)
        owner = review_session or session_id
        await self.source.write_text(
            path, text, session_id=owner, tool_call_id=tool_call_id, base=base
        )
        self._saw(session_id, path, content)
        return {}

    async def _since_seen(self, path: Path, seen: str, content: str) -> tuple[str, str]:
        """What a write changes (its base) and what it writes, when the agent saw the file
        before. The file may have changed since, as saved and shown alike (a turn undone, a
        change rejected, another session's write): that is not the user's unsaved typing, the
        only thing a write's merge with the buffer keeps from it. Where the agent changes lines
        that changed so, its write wins, as it would without us; the rest of it stays."""
        try:
            disk = await self.disk.read_text(path)
            shown = await self.source.read_text(path)
        except RpcError:
            return seen, content
        if disk == seen or shown != disk:  # unchanged, or unsaved text (or a save to come)
            return seen, content
        from acp_editor.text.merge import merge3, theirs_win  # not needed before a first write

        merged = merge3(seen, disk, content)
        return (disk, theirs_win(merged)) if merged.conflicts else (seen, content)

    def _saw(self, session_id: str, path: Path, text: str) -> None:
        self._seen[(session_id, path)] = text
        self._seen.move_to_end((session_id, path))
        while len(self._seen) > READS_KEPT:
            self._seen.popitem(last=False)

    def _notify(self, kind: str, path: Path, session_id: str) -> None:
        if self.on_access is None:
            return
        try:
            self.on_access(kind, path, session_id)
        except Exception:  # a follow-along bug must not fail the agent's request
            log.exception("on_access hook failed for %s %s", kind, path)
