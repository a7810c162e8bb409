"""A prompt as people read it: the typed text, each attachment an item of its own (a file by its
name, a page by its address, an attached text by its first line), and a title from the text or a
file's name, never a URI."""

from __future__ import annotations

from typing import Any

from acp_editor.protocol.prompt import Attachment, attachments, file_name, title, typed_text

HELLO = "file:///w/src/hello%20there.py"


def text(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words}


def link(uri: str, name: str | None = None) -> dict[str, Any]:
    return {"type": "resource_link", "uri": uri, "name": name or uri}


def resource(uri: str, body: str, mime: str = "text/plain") -> dict[str, Any]:
    return {"type": "resource", "resource": {"uri": uri, "text": body, "mimeType": mime}}


PROMPT = [
    text("explain @hello there.py"),
    link(HELLO, "hello there.py"),
    resource(HELLO, "print(1)\nprint(2)\n"),  # the linked file's text: one item with its link
    text("Problems the editor reports in hello there.py:\n- hello there.py:1:1 error: no"),
    resource("file:///w/data.json", '{"a": 1}', "application/json"),
    resource("file:///w/src/hello%20there.py#L2-2", "print(2)\n"),
    link("https://example.com/docs/page"),
    {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
    {"type": "audio", "data": "..."},
]


def test_the_typed_text_is_the_first_text_block_and_each_attachment_an_item() -> None:
    assert typed_text(PROMPT) == "explain @hello there.py"
    assert attachments(PROMPT) == [
        Attachment("file", "hello there.py", HELLO),
        Attachment("text", "Problems the editor reports in hello there.py:", detail="2 lines"),
        Attachment("file", "data.json", "file:///w/data.json", "1 line"),
        Attachment("file", "hello there.py#L2-2", "file:///w/src/hello%20there.py#L2-2", "1 line"),
        Attachment("link", "https://example.com/docs/page", "https://example.com/docs/page"),
        Attachment("image", "image", None, "image/png, 8 B"),
        Attachment("audio", "audio"),
    ]


def test_a_long_attached_text_is_labelled_by_its_first_line_shortened() -> None:
    (item,) = attachments([text("hi"), text("\n" + "x" * 200 + "\nmore")])
    assert item.label == "x" * 59 + "…" and item.detail == "3 lines"


def test_a_title_is_the_typed_text_else_a_file_name_never_a_uri() -> None:
    assert title(PROMPT) == "explain @hello there.py"
    assert title([text("  \n  first line  \nsecond")]) == "first line"
    attached_only = [text(""), link(HELLO, "hello there.py"), resource(HELLO, "x")]
    assert title(attached_only) == "hello there.py"
    assert title([link("https://example.com/x")]) == ""  # an address is no title
    assert title([text("y" * 100)]) == "y" * 59 + "…"
    assert file_name("file:///w/") == "w" and file_name("https://example.com") == "example.com"
