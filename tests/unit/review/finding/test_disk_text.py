"""What review counts as a file's text: UTF-8 without NUL bytes; anything else is not text."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.disk_text import decode, read_text


def test_text_is_utf8_without_nul_bytes() -> None:
    assert decode("naïve\n".encode()) == "naïve\n"
    assert decode(b"") == ""
    assert decode(b"a\0b") is None  # a NUL: binary, as git judges it too
    assert decode(b"\xff\xfe") is None  # not UTF-8


async def test_a_missing_file_reads_as_none(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\n")
    (tmp_path / "b.bin").write_bytes(b"\x00\x01")
    assert await read_text(tmp_path / "a.txt") == "one\n"
    assert await read_text(tmp_path / "b.bin") is None
    assert await read_text(tmp_path / "gone.txt") is None
    assert await read_text(tmp_path) is None  # a directory
