"""Message chunks and the user's own prompt: which entry a chunk lands in, and text merging.

Rules under test (from the brief's "Rules" and the schema's ContentChunk):
  R1  a chunk whose messageId names an existing message of that role appends to it;
  R2  a new messageId starts a new message entry;
  R3  without messageId, a chunk appends to the last entry if it is a message of the same role,
      else starts a new message;
  R4  consecutive plain text blocks ({"type","text"} only) merge; anything else is its own block;
  R5  the schema reads an invalid messageId as absent.
"""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.session import InvalidUpdate

KINDS = {
    "user": "user_message_chunk",
    "agent": "agent_message_chunk",
    "thought": "agent_thought_chunk",
}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def chunk(role: str, content: Any, message_id: Any = "<absent>") -> dict[str, Any]:
    update = {"sessionUpdate": KINDS[role], "content": content}
    if message_id != "<absent>":
        update["messageId"] = message_id
    return update


def message(role: str, content: list[Any], message_id: str | None = None) -> dict[str, Any]:
    return {"kind": "message", "role": role, "messageId": message_id, "content": content}


IMAGE = {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}
ANNOTATED = {"type": "text", "text": "!", "annotations": {"audience": ["user"]}}
WITH_META = {"type": "text", "text": "?", "_meta": {"x": 1}}
UNKNOWN = {"type": "_hologram", "payload": [1, 2]}
RESOURCE = {"type": "resource", "resource": {"uri": "file:///a.py", "text": "x = 1"}}
TOOL_CALL = {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Read"}

CASES = [
    pytest.param(
        [chunk("agent", text("Hel")), chunk("agent", text("lo"))],
        [message("agent", [text("Hello")])],
        id="R3+R4 text fragments without id merge into one block",
    ),
    pytest.param(
        [chunk("agent", text("a")), chunk("thought", text("b")), chunk("agent", text("c"))],
        [
            message("agent", [text("a")]),
            message("thought", [text("b")]),
            message("agent", [text("c")]),
        ],
        id="R3 a different role in between starts new messages",
    ),
    pytest.param(
        [
            chunk("agent", text("a"), "m1"),
            chunk("thought", text("x"), "t1"),
            chunk("agent", text("b"), "m1"),
        ],
        [message("agent", [text("ab")], "m1"), message("thought", [text("x")], "t1")],
        id="R1 a known messageId appends even when it is not the last entry",
    ),
    pytest.param(
        [chunk("agent", text("a"), "m1"), chunk("agent", text("b"), "m2")],
        [message("agent", [text("a")], "m1"), message("agent", [text("b")], "m2")],
        id="R2 a new messageId starts a message even right after the same role",
    ),
    pytest.param(
        [chunk("agent", text("a"), "m1"), chunk("agent", text("b"))],
        [message("agent", [text("ab")], "m1")],
        id="R3 no messageId appends to the last same-role message whatever its id",
    ),
    pytest.param(
        [chunk("user", text("a"), "m1"), chunk("agent", text("b"), "m1")],
        [message("user", [text("a")], "m1"), message("agent", [text("b")], "m1")],
        id="R1+R2 a messageId only matches messages of the same role",
    ),
    pytest.param(
        [chunk("agent", text("a")), TOOL_CALL, chunk("agent", text("b"))],
        [
            message("agent", [text("a")]),
            {"kind": "toolCall", "toolCallId": "t1"},
            message("agent", [text("b")]),
        ],
        id="R3 a tool call in between ends the message",
    ),
    pytest.param(
        [chunk("agent", text("a"), None), chunk("agent", text("b"), None)],
        [message("agent", [text("ab")])],
        id="R5 messageId null is absent",
    ),
    pytest.param(
        [chunk("agent", text("a"), 7), chunk("agent", text("b"), ["m"])],
        [message("agent", [text("ab")])],
        id="R5 a non-string messageId is absent",
    ),
    pytest.param(
        [chunk("user", text("u")), chunk("user", text("v")), chunk("thought", text("t"))],
        [message("user", [text("uv")]), message("thought", [text("t")])],
        id="R3 user and thought roles stream like agent",
    ),
    pytest.param(
        [chunk("agent", text("a")), chunk("agent", IMAGE), chunk("agent", text("b"))],
        [message("agent", [text("a"), IMAGE, text("b")])],
        id="R4 an image is its own block and ends the text run",
    ),
    pytest.param(
        [chunk("agent", text("a")), chunk("agent", ANNOTATED), chunk("agent", text("b"))],
        [message("agent", [text("a"), ANNOTATED, text("b")])],
        id="R4 text with annotations is never merged either way",
    ),
    pytest.param(
        [chunk("agent", WITH_META), chunk("agent", text("b"))],
        [message("agent", [WITH_META, text("b")])],
        id="R4 text with _meta is never merged",
    ),
    pytest.param(
        [chunk("agent", UNKNOWN), chunk("agent", UNKNOWN), chunk("agent", RESOURCE)],
        [message("agent", [UNKNOWN, UNKNOWN, RESOURCE])],
        id="R4 unknown types and resources are kept verbatim, one block each",
    ),
    pytest.param(
        [chunk("agent", {"type": "text", "text": 5}), chunk("agent", text("b"))],
        [message("agent", [{"type": "text", "text": 5}, text("b")])],
        id="R4 a text block whose text is not a string is kept, not merged",
    ),
    pytest.param(
        [chunk("agent", "bare string"), chunk("agent", text(""))],
        [message("agent", ["bare string", text("")])],
        id="R4 a non-object content is kept as its own block",
    ),
    pytest.param(
        [chunk("agent", text("")), chunk("agent", text("")), chunk("agent", text("x"))],
        [message("agent", [text("x")])],
        id="R4 empty text fragments merge too",
    ),
]


@pytest.mark.parametrize(("updates", "expected"), CASES)
def test_chunk_placement(h, updates: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    h.updates(*updates)
    assert h.entries() == expected


def test_first_chunk_is_one_entry_change_then_one_block_per_chunk(h) -> None:
    # Minimal changes: the mirror gets each block once, never the whole message again.
    first = h.update(chunk("agent", text("Hel"), "m1"))
    assert first == [{"type": "entry", "index": 0, "entry": message("agent", [text("Hel")], "m1")}]
    assert h.update(chunk("agent", text("lo"), "m1")) == [
        {"type": "message_chunk", "index": 0, "content": text("lo")}
    ]


def test_chunk_for_an_earlier_message_names_its_index(h) -> None:
    h.updates(chunk("agent", text("a"), "m1"), chunk("agent", text("b"), "m2"))
    assert h.update(chunk("agent", IMAGE, "m1")) == [
        {"type": "message_chunk", "index": 0, "content": IMAGE}
    ]


def test_chunk_level_message_id_is_recorded_on_the_entry(h) -> None:
    h.update(chunk("thought", text("hmm"), "th-1"))
    assert h.entries()[0]["messageId"] == "th-1"


def test_user_prompt_is_a_new_user_entry_kept_block_for_block(h) -> None:
    blocks = [text("Fix "), text("the bug"), RESOURCE]
    changes = h.prompt(blocks)
    assert changes == [{"type": "entry", "index": 0, "entry": message("user", blocks)}]


def test_user_prompt_starts_a_new_entry_even_after_a_user_message(h) -> None:
    h.update(chunk("user", text("replayed")))
    h.prompt([text("new")])
    assert h.entries() == [message("user", [text("replayed")]), message("user", [text("new")])]


def test_user_chunk_without_id_after_a_prompt_continues_it(h) -> None:
    # R3 applied to the prompt entry: it is a user message like any other.
    h.prompt([text("a")])
    h.update(chunk("user", text("b")))
    assert h.entries() == [message("user", [text("ab")])]


def test_empty_prompt_is_still_an_entry(h) -> None:
    h.prompt([])
    assert h.entries() == [message("user", [])]


def test_prompt_that_is_not_a_list_is_invalid(h) -> None:
    with pytest.raises(InvalidUpdate, match="list of blocks"):
        h.state.add_user_prompt({"type": "text", "text": "x"})  # type: ignore[arg-type]
    assert h.entries() == []


def test_chunk_level_fields_beyond_content_and_message_id_do_not_leak_into_blocks(h) -> None:
    update = chunk("agent", text("a"))
    update["_meta"] = {"trace": 1}
    h.update(update)
    assert h.entries() == [message("agent", [text("a")])]


def test_a_v1_prompt_that_waited_reads_after_the_turn_before_it(h1) -> None:
    h1.prompt([text("first")])
    h1.prompt([text("second")], queued=True)
    h1.prompt([text("third")], queued=True)
    h1.update({"sessionUpdate": "agent_message_chunk", "content": text("the first's answer")})
    h1._track(h1.state.start_queued(1, [text("second, edited")], None))
    assert h1.entries()[1]["waitedUntil"] == 4 and "queued" not in h1.entries()[1]
    h1._track(h1.state.drop_queued(2))
    assert h1.entries()[2]["waitedUntil"] == 4 and h1.entries()[2]["dropped"] is True
    # Its reply is a message of its own, not more of the first's answer (the last entry).
    h1.update({"sessionUpdate": "agent_message_chunk", "content": text("the second's answer")})
    assert [m["content"] for m in h1.entries()[3:]] == [
        [text("the first's answer")],
        [text("the second's answer")],
    ]
