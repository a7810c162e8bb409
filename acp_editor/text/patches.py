"""Git patches (``git diff -p`` text) read into per-file hunks, and applied either way.

The ACP v2 draft describes a tool call's file changes as ``changes`` plus an optional
``git_patch``, not as whole texts. An editor previews a change from whole texts, so the patch is
applied to the file as the editor holds it: forward when the agent has not written it yet,
backward when it already has (``texts`` tries both). Hunks must fit exactly (no fuzz): a preview
of a patch that does not fit would show the user something the agent did not do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"
SEARCH = 50
"""How many lines away from its stated position a hunk may be found (earlier edits moved it)."""


class PatchError(ValueError):
    """Patch text that is not a git patch (or is cut short)."""


@dataclass
class PatchHunk:
    """One hunk of a unified diff as its text says it (1-based lines; ``text.hunks.Hunk`` is a
    computed one, 0-based)."""

    old_start: int
    """1-based first line of the old side (0 with no old lines: insert after that many)."""
    new_start: int
    old: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    old_eof_newline: bool = True
    """False when the old side's last line is the file's last and has no newline."""
    new_eof_newline: bool = True


@dataclass
class FilePatch:
    old_path: str | None
    """Before the change; None for a file the patch creates."""
    new_path: str | None
    """After the change; None for a file the patch deletes."""
    hunks: list[PatchHunk] = field(default_factory=list)
    is_binary: bool = False


def parse(text: str) -> list[FilePatch]:
    """The files of a patch, in order. Raises ``PatchError`` for text that is not one."""
    files: list[FilePatch] = []
    # Not splitlines(): it also splits at form feeds and other separators a line may hold.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        if lines[i].startswith("diff --git "):
            file, i = _file(lines, i)
            files.append(file)
        else:
            i += 1  # a preamble or a blank line between sections
    if not files and text.strip():
        raise PatchError("no 'diff --git' section")
    return files


def _file(lines: list[str], i: int) -> tuple[FilePatch, int]:
    old, new = _git_paths(lines[i])
    file = FilePatch(old, new)
    i += 1
    while i < len(lines) and not lines[i].startswith(("diff --git ", "@@")):
        line = lines[i]
        if line.startswith("--- "):
            file.old_path = _header_path(line[4:], old)
        elif line.startswith("+++ "):
            file.new_path = _header_path(line[4:], new)
        elif line.startswith(("rename from ", "copy from ")):
            file.old_path = line.split(" from ", 1)[1]
        elif line.startswith(("rename to ", "copy to ")):
            file.new_path = line.split(" to ", 1)[1]
        elif line.startswith("new file mode"):
            file.old_path = None
        elif line.startswith("deleted file mode"):
            file.new_path = None
        elif line.startswith(("Binary files ", "GIT binary patch")):
            file.is_binary = True
        i += 1
    while i < len(lines) and lines[i].startswith("@@"):
        hunk, i = _hunk(lines, i)
        file.hunks.append(hunk)
    return file, i


def _git_paths(line: str) -> tuple[str | None, str | None]:
    """The two paths of ``diff --git A B`` when they split evenly (paths may hold spaces;
    ``---``/``+++`` and rename lines, when present, say them exactly)."""
    rest = line[len("diff --git ") :]
    half = len(rest) // 2
    if len(rest) % 2 == 1 and rest[half] == " " and _strip(rest[:half]) == _strip(rest[half + 1 :]):
        return _strip(rest[:half]), _strip(rest[half + 1 :])
    parts = rest.split(" ")
    if len(parts) == 2:
        return _strip(parts[0]), _strip(parts[1])
    return None, None


def _strip(path: str) -> str:
    """Git's ``a/`` and ``b/`` prefixes (``git diff`` adds them; v2 asks for absolute paths,
    which never start that way)."""
    return path[2:] if path.startswith(("a/", "b/")) else path


def _header_path(text: str, fallback: str | None) -> str | None:
    path = text.split("\t", 1)[0]
    if path == "/dev/null":
        return None
    return _strip(path) if path else fallback


def _hunk(lines: list[str], i: int) -> tuple[PatchHunk, int]:
    match = _HUNK.match(lines[i])
    if match is None:
        raise PatchError(f"not a hunk header: {lines[i][:80]!r}")
    old_count = int(match.group(2)) if match.group(2) is not None else 1
    new_count = int(match.group(4)) if match.group(4) is not None else 1
    hunk = PatchHunk(int(match.group(1)), int(match.group(3)))
    i += 1
    last = ""
    while len(hunk.old) < old_count or len(hunk.new) < new_count or _marker(lines, i):
        if i >= len(lines):
            raise PatchError("a hunk is cut short")
        line = lines[i]
        kind, body = line[:1], line[1:]
        if line.startswith("\\"):
            if last in (" ", "-"):
                hunk.old_eof_newline = False
            if last in (" ", "+"):
                hunk.new_eof_newline = False
        elif kind in (" ", ""):  # an empty line: a context line some tools strip
            hunk.old.append(body)
            hunk.new.append(body)
        elif kind == "-":
            hunk.old.append(body)
        elif kind == "+":
            hunk.new.append(body)
        else:
            raise PatchError(f"not a hunk line: {line[:80]!r}")
        last = kind or " "
        i += 1
    return hunk, i


def _marker(lines: list[str], i: int) -> bool:
    return i < len(lines) and lines[i].startswith("\\")


def apply(file: FilePatch, text: str) -> str | None:
    """``text`` with the patch applied, or None when a hunk does not fit it."""
    return _apply(file.hunks, text, forward=True)


def unapply(file: FilePatch, text: str) -> str | None:
    """``text`` (the patched file) as it was before the patch, or None when it does not fit."""
    return _apply(file.hunks, text, forward=False)


def texts(
    file: FilePatch, current: str | None, *, written: bool = False
) -> tuple[str | None, str] | None:
    """The whole texts (before, after) of a file that holds ``current`` now (None: missing);
    None when the patch fits it neither way. ``written``: the agent has probably written the
    change already, so the backward reading is tried first (a patch that only inserts lines
    can fit both ways: its context is still there after the insertion)."""
    if file.old_path is None:  # created: before, it did not exist
        if current is None or current == "":
            made = apply(file, "")
            return (None, made) if made is not None else None
        return (None, current) if unapply(file, current) == "" else None
    if file.new_path is None:  # deleted
        if current is None:
            before = unapply(file, "")
            return (before, "") if before is not None else None
        return (current, "") if apply(file, current) == "" else None
    if current is None:
        return None
    for backward in (written, not written):
        other = unapply(file, current) if backward else apply(file, current)
        if other is not None:
            return (other, current) if backward else (current, other)
    return None


def _apply(hunks: list[PatchHunk], text: str, *, forward: bool) -> str | None:
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    ends_with_newline = text.endswith(newline) or text == ""
    if ends_with_newline:
        lines.pop()  # the empty piece after the last newline
    out: list[str] = []
    at = 0  # next line of `lines` not yet copied
    final_newline = ends_with_newline
    for hunk in hunks:
        find, put = (hunk.old, hunk.new) if forward else (hunk.new, hunk.old)
        start = (hunk.old_start if forward else hunk.new_start) - 1 + (0 if find else 1)
        found = _find(lines, find, max(start, at), at)
        if found is None:
            return None
        out += lines[at:found] + put
        at = found + len(find)
        if at == len(lines):  # the hunk reaches the end of the file: it says the last newline
            final_newline = hunk.new_eof_newline if forward else hunk.old_eof_newline
    out += lines[at:]
    if not out:
        return ""
    return newline.join(out) + (newline if final_newline else "")


def _find(lines: list[str], want: list[str], start: int, floor: int) -> int | None:
    """The position of ``want`` in ``lines`` nearest ``start`` (never before ``floor``)."""
    for offset in range(SEARCH + 1):
        for at in (start + offset, start - offset) if offset else (start,):
            if floor <= at <= len(lines) - len(want) and lines[at : at + len(want)] == want:
                return at
    return None
