"""fs/read_text_file and fs/write_text_file served from real files in a temp directory."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from acp_editor.errors import InternalError, InvalidParams, ResourceNotFound
from acp_editor.services.documents import DiskDocuments, FileService, select_lines
from acp_editor.services.paths import PathPolicy

SID = "sess_1"

ABC = "a\nb\nc\n"


@pytest.mark.parametrize(
    ("text", "line", "limit", "expected"),
    [
        (ABC, None, None, ABC),
        (ABC, 1, None, ABC),
        (ABC, 0, None, ABC),  # line 0 is the first line
        (ABC, 2, None, "b\nc\n"),
        (ABC, 3, None, "c\n"),
        (ABC, 4, None, ""),  # the empty "line" after the last newline
        (ABC, 99, 5, ""),
        (ABC, 2, 1, "b\n"),
        (ABC, 0, 2, "a\nb\n"),
        (ABC, None, 0, ""),
        (ABC, 2, 0, ""),
        (ABC, 1, 99, ABC),
        ("a\nb", 2, None, "b"),  # no trailing newline
        ("a\nb", 1, 5, "a\nb"),
        ("a\r\nb\r\nc", 2, 1, "b\r\n"),  # CRLF kept
        ("a\r\nb\r\nc", 2, None, "b\r\nc"),
        ("x\ry\nz", 1, 1, "x\ry\n"),  # a lone CR does not end a line
        ("é\n日本\n😀\n", 2, 2, "日本\n😀\n"),
        ("a\u2028b\nc", 1, 1, "a\u2028b\n"),  # nor does a Unicode line separator
        ("", 1, None, ""),
        ("", None, 3, ""),
        ("\n\n", 2, None, "\n"),
    ],
)
def test_select_lines(text: str, line: int | None, limit: int | None, expected: str) -> None:
    assert select_lines(text, line, limit) == expected


def test_select_lines_refuses_negative_limit() -> None:
    with pytest.raises(ValueError):
        select_lines("a", 1, -1)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


@pytest.fixture
def accesses() -> list[tuple[str, Path, str]]:
    return []


@pytest.fixture
def files(root: Path, accesses: list[tuple[str, Path, str]]) -> FileService:
    def record(kind: str, path: Path, session_id: str) -> None:
        accesses.append((kind, path, session_id))

    return FileService(PathPolicy([root]), DiskDocuments(), on_access=record)


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def real(path: Path) -> Path:
    return path.resolve()


async def read(files: FileService, path: Path | str, **extra: Any) -> str:
    result = await files.read_text_file({"sessionId": SID, "path": str(path), **extra})
    assert set(result) == {"content"}
    content: str = result["content"]
    return content


async def write(files: FileService, path: Path | str, content: str) -> None:
    result = await files.write_text_file({"sessionId": SID, "path": str(path), "content": content})
    assert result == {}


async def test_read_whole_and_partial(files: FileService, root: Path) -> None:
    (root / "f.txt").write_bytes("one\r\ntwo é\r\nthree".encode())
    assert await read(files, root / "f.txt") == "one\r\ntwo é\r\nthree"
    assert await read(files, root / "f.txt", line=2, limit=1) == "two é\r\n"
    assert await read(files, root / "f.txt", line=0, limit=None) == "one\r\ntwo é\r\nthree"


async def test_invalid_utf8_is_replaced_not_fatal(files: FileService, root: Path) -> None:
    (root / "bin").write_bytes(b"ok \xff\xfe end")
    assert await read(files, root / "bin") == "ok \ufffd\ufffd end"


async def test_read_missing_file_is_resource_not_found(files: FileService, root: Path) -> None:
    missing = root / "nope" / "missing.py"
    with pytest.raises(ResourceNotFound) as info:
        await read(files, missing)
    assert info.value.code == -32002
    assert str(missing) in info.value.message


async def test_read_directory_is_invalid_params(files: FileService, root: Path) -> None:
    with pytest.raises(InvalidParams, match="directory"):
        await read(files, root)


async def test_read_fifo_is_refused_without_blocking(files: FileService, root: Path) -> None:
    os.mkfifo(root / "pipe")
    with pytest.raises(InvalidParams, match="not a regular file"):
        await read(files, root / "pipe")


async def test_read_unreadable_file_is_a_clear_error(files: FileService, root: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    (root / "locked").write_text("x")
    (root / "locked").chmod(0)
    with pytest.raises(InternalError, match="cannot read"):
        await read(files, root / "locked")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (None, "params must be an object"),
        ({"path": "/x"}, "missing required field 'sessionId'"),
        ({"sessionId": SID}, "path must be a string"),
        ({"sessionId": SID, "path": "rel.txt"}, "must be absolute"),
        ({"sessionId": SID, "path": "/etc/passwd"}, "outside the allowed roots"),
        ({"sessionId": SID, "path": "/x", "line": -1}, "'line' must be a non-negative"),
        ({"sessionId": SID, "path": "/x", "limit": "10"}, "'limit' must be a non-negative"),
    ],
)
async def test_read_bad_params(files: FileService, params: Any, message: str) -> None:
    with pytest.raises(InvalidParams, match=message):
        await files.read_text_file(params)


async def test_write_creates_parents_and_keeps_bytes(files: FileService, root: Path) -> None:
    target = root / "new" / "dir" / "f.txt"
    await write(files, target, "line1\r\nligne é\n日本")
    assert target.read_bytes() == "line1\r\nligne é\n日本".encode()
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert await read(files, target) == "line1\r\nligne é\n日本"


async def test_write_is_atomic_and_keeps_mode(files: FileService, root: Path) -> None:
    target = root / "script.sh"
    target.write_text("old\n")
    target.chmod(0o750)
    before = target.stat().st_ino
    await write(files, target, "#!/bin/sh\necho new\n")
    assert target.read_text() == "#!/bin/sh\necho new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert target.stat().st_ino != before  # replaced by rename, never rewritten in place
    assert names(root) == ["script.sh"]  # no temp file left


async def test_write_through_symlink_replaces_the_target(files: FileService, root: Path) -> None:
    (root / "real.txt").write_text("old")
    (root / "link.txt").symlink_to(root / "real.txt")
    await write(files, root / "link.txt", "new")
    assert (root / "link.txt").is_symlink()
    assert (root / "real.txt").read_text() == "new"


async def test_write_outside_root_creates_nothing(files: FileService, tmp_path: Path) -> None:
    with pytest.raises(InvalidParams, match="outside the allowed roots"):
        await write(files, tmp_path / "elsewhere" / "f.txt", "x")
    assert not (tmp_path / "elsewhere").exists()


async def test_write_errors(files: FileService, root: Path) -> None:
    (root / "file").write_text("x")
    with pytest.raises(InvalidParams, match="not a directory"):
        await write(files, root / "file" / "child.txt", "x")
    with pytest.raises(InvalidParams, match="is a directory"):
        await write(files, root, "x")
    with pytest.raises(InvalidParams, match="not valid Unicode"):
        await write(files, root / "s.txt", "lone \ud800 surrogate")
    with pytest.raises(InvalidParams, match="'content' must be a string"):
        await files.write_text_file({"sessionId": SID, "path": str(root / "a"), "content": 1})
    assert names(root) == ["file"]


async def test_on_access_sees_resolved_paths_and_cannot_break_requests(
    files: FileService, root: Path, accesses: list[tuple[str, Path, str]]
) -> None:
    await write(files, root / "sub" / ".." / "a.txt", "x")
    await read(files, root / "a.txt")
    target = real(root / "a.txt")
    assert accesses == [("write", target, SID), ("read", target, SID)]

    def broken(kind: str, path: Path, session_id: str) -> None:
        raise RuntimeError("follow-along bug")

    files.on_access = broken
    assert await read(files, root / "a.txt") == "x"


class MemorySource:
    """A DocumentSource standing in for the editor's buffers: the service only routes."""

    def __init__(self) -> None:
        self.texts: dict[Path, str] = {}
        self.writes: list[tuple[Path, str, str, str | None]] = []
        self.bases: list[str | None] = []

    async def read_text(self, path: Path) -> str:
        return self.texts[path]

    async def write_text(
        self,
        path: Path,
        text: str,
        *,
        session_id: str,
        tool_call_id: str | None,
        base: str | None = None,
    ) -> None:
        self.writes.append((path, text, session_id, tool_call_id))
        self.bases.append(base)


async def test_service_routes_to_any_source(root: Path) -> None:
    source = MemorySource()
    files = FileService(PathPolicy([root]), source)
    source.texts[real(root) / "buf.py"] = "unsaved\nbuffer\n"
    assert await read(files, root / "buf.py", line=2) == "buffer\n"
    params = {"sessionId": SID, "path": str(root / "buf.py"), "content": "y"}
    assert await files.write_text_file(params, tool_call_id="call_1") == {}
    assert source.writes == [(real(root) / "buf.py", "y", SID, "call_1")]
    assert not (root / "buf.py").exists()


async def test_a_write_carries_the_text_the_agent_made_it_from(root: Path) -> None:
    """What the agent last read or wrote of the file through us; else the disk's text (an agent
    that reads the disk itself); else nothing (a new file)."""
    source = MemorySource()
    files = FileService(PathPolicy([root]), source)
    (root / "disk.py").write_text("on disk\n")
    buf = real(root) / "buf.py"
    source.texts[buf] = "unsaved\n"

    await read(files, root / "buf.py", line=1, limit=1)  # part of it: the whole is the base
    await write(files, root / "buf.py", "agent\n")
    await write(files, root / "buf.py", "agent again\n")
    await write(files, root / "disk.py", "changed\n")
    await write(files, root / "new.py", "made\n")
    assert source.bases == ["unsaved\n", "agent\n", "on disk\n", ""]


async def test_a_file_read_as_missing_is_written_from_nothing(root: Path) -> None:
    """What it wrote before does not count once it read that the file is gone (a creation the
    user rejected): the next write is all new."""
    source = MemorySource()
    files = FileService(PathPolicy([root]), source)
    notes = real(root) / "NOTES.md"
    await write(files, notes, "# Notes\n")
    source.texts.pop(notes, None)

    async def missing(path: Path) -> str:
        raise ResourceNotFound(f"file not found: {path}")

    source.read_text = missing  # type: ignore[method-assign]
    with pytest.raises(ResourceNotFound):
        await read(files, notes)
    await write(files, notes, "# Notes\n")
    assert source.bases == ["", ""]
