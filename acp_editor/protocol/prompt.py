"""What a prompt says, as people read it: the text the user typed, and each attachment as an item
of its own (a file by its name, a web page by its address, an attached text by a short label).

The editors send a prompt as content blocks, the typed text first and what was attached after it
(files as links, and their text too for agents that take it; a selection or a file's problems as
text; images). Every place that shows a prompt to people, or names a session after it, reads it
here, so a prompt never reads as its blocks run together, and a title never shows a URI.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

LABEL_MAX = 60
"""At most this many characters of an attached text's first line in its label."""


@dataclass(frozen=True)
class Attachment:
    """One thing attached to a prompt."""

    kind: str
    """``file`` (a link to it, its text perhaps along), ``link`` (a web page or another URI),
    ``text`` (a selection or a file's problems sent as text), ``image``, else the block's type."""
    label: str
    """What it is called: a file's name (with the lines of a selection), a page's address, an
    attached text's first line; never a whole text."""
    uri: str | None = None
    detail: str = ""
    """How much it holds, when that helps: ``3 lines``, ``image/png, 70 B``."""


def _text_block(block: Any) -> str | None:
    if isinstance(block, Mapping) and block.get("type") == "text":
        text = block.get("text")
        return text if isinstance(text, str) else None
    return None


def _first_text(blocks: Sequence[Any]) -> int | None:
    return next((i for i, b in enumerate(blocks) if _text_block(b) is not None), None)


def typed_text(blocks: Sequence[Any]) -> str:
    """What the user typed: the prompt's first text block (what follows it is attached)."""
    first = _first_text(blocks)
    return (_text_block(blocks[first]) or "").strip() if first is not None else ""


def file_name(uri: str) -> str:
    """A URI's last path segment, decoded (``file:///w/a%20b.py#L2-4`` is ``a b.py#L2-4``:
    a selection keeps its lines); the URI itself when it has no path."""
    parts = urlsplit(uri)
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1]) or parts.netloc or uri
    return f"{name}#{parts.fragment}" if parts.fragment else name


def _lines(text: str) -> str:
    count = len(text.splitlines())
    return f"{count} line{'' if count == 1 else 's'}"


def _short(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= LABEL_MAX else line[: LABEL_MAX - 1].rstrip() + "…"


def _size(data: Any) -> str:
    try:
        size = len(base64.b64decode(data, validate=False)) if isinstance(data, str) else 0
    except (binascii.Error, ValueError):
        return ""
    return f"{size} B" if size < 1024 else f"{round(size / 1024)} KB"


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _one(block: Any, linked: set[str]) -> Attachment | None:
    if not isinstance(block, Mapping):
        return Attachment("content", "content")
    kind = block.get("type")
    text = _text_block(block)
    if text is not None:
        first = next((line for line in text.splitlines() if line.strip()), "")
        return Attachment("text", _short(first) or "(empty text)", detail=_lines(text))
    if kind == "resource_link" and isinstance(block.get("uri"), str):
        uri = str(block["uri"])
        if uri.startswith("file:"):
            return Attachment("file", file_name(uri), uri)
        name = block.get("name")
        return Attachment("link", name if isinstance(name, str) and name else uri, uri)
    if kind == "resource":
        resource = block.get("resource")
        fields = resource if isinstance(resource, Mapping) else {}
        named = _str(fields.get("uri"))
        if named is not None and named in linked:
            return None  # a linked file's text sent along: the link says it
        body = fields.get("text")
        detail = _lines(body) if isinstance(body, str) else str(fields.get("mimeType") or "")
        return Attachment("file", file_name(named) if named else "resource", named, detail)
    if kind == "image":
        mime = str(block.get("mimeType") or "image")
        size = _size(block.get("data"))
        shown = _str(block.get("uri"))
        label = file_name(shown) if shown else "image"
        return Attachment("image", label, shown, ", ".join(filter(None, [mime, size])))
    return Attachment(str(kind or "content"), str(kind or "content"))


def attachments(blocks: Sequence[Any]) -> list[Attachment]:
    """Every block but the typed text, one item each; a file sent both as a link and with its
    text is one item."""
    first = _first_text(blocks)
    rest = [b for i, b in enumerate(blocks) if i != first]
    linked = {
        str(b["uri"])
        for b in rest
        if isinstance(b, Mapping)
        and b.get("type") == "resource_link"
        and isinstance(b.get("uri"), str)
    }
    found = (_one(b, linked) for b in rest)
    return [a for a in found if a is not None]


def title(blocks: Sequence[Any], limit: int = LABEL_MAX) -> str:
    """A session's title from its first prompt: the typed text's first line, else the name of
    the first file attached (never its URI), else ""."""
    line = next((ln for ln in typed_text(blocks).splitlines() if ln.strip()), "")
    if not line:
        named = [a for a in attachments(blocks) if a.kind in ("file", "image")]
        line = named[0].label if named else ""
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
