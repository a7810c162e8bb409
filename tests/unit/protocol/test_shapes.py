"""acp_editor/protocol/shapes.py: a value checked against a shape, and the error naming where
and what it should have been."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol.shapes import (
    BOOLEAN,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    UNKNOWN,
    Arr,
    Either,
    Lit,
    Obj,
    Ref,
    Shape,
    check,
)

TABLE: dict[str, Shape] = {
    "SessionId": STRING,
    "Params": Obj(
        (
            ("sessionId", Ref("SessionId"), True),
            ("limit", NUMBER, False),
            ("all", BOOLEAN, False),
            ("prompt", Either((STRING, Arr(Ref("Block")))), False),
            ("decision", Either((Lit("accept"), Lit("reject"))), False),
            ("messageId", Either((STRING, NULL)), False),
            ("env", Obj((), rest=STRING), False),
            ("anything", UNKNOWN, False),
            ("options", OBJECT, False),
            ("entry", Ref("Entry"), False),
        )
    ),
    "Block": Obj((("type", STRING, True),), rest=UNKNOWN),
    "Entry": Either(
        (
            Obj((("kind", Lit("message"), True), ("text", STRING, True))),
            Obj((("kind", Lit("notice"), True), ("queued", Lit(True), False))),
        )
    ),
}


def error(value: object) -> str:
    with pytest.raises(InvalidParams) as raised:
        check(value, Ref("Params"), TABLE)
    assert raised.value.code == -32602
    return raised.value.message


def test_a_value_of_the_shape_passes_and_unknown_fields_are_let_through() -> None:
    good = {
        "sessionId": "s1",
        "limit": 2.5,
        "all": False,
        "prompt": [{"type": "text", "text": "hi", "more": [1]}],
        "decision": "reject",
        "messageId": None,
        "env": {"A": "1"},
        "anything": [None, {}],
        "options": {"x": 1},
        "entry": {"kind": "notice", "queued": True},
        "future": "field",
    }
    check(good, Ref("Params"), TABLE)
    check({"sessionId": "s1", "prompt": "text"}, Ref("Params"), TABLE)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (42, "params: expected an object, got 42"),
        ([1, 2], "params: expected an object, got a list"),
        ({}, "sessionId: missing (expected a string)"),
        ({"sessionId": 3}, "sessionId: expected a string, got 3"),
        ({"sessionId": "s", "limit": True}, "limit: expected a number, got true"),
        ({"sessionId": "s", "all": "yes"}, 'all: expected a boolean, got "yes"'),
        ({"sessionId": "s", "prompt": 5}, "prompt: expected a string or a list, got 5"),
        (
            {"sessionId": "s", "prompt": [{"type": 1}]},
            "prompt: expected a string or a list, got a list",
        ),
        (
            {"sessionId": "s", "decision": "maybe"},
            'decision: expected "accept" or "reject", got "maybe"',
        ),
        ({"sessionId": "s", "env": {"A": 1}}, "env.A: expected a string, got 1"),
        ({"sessionId": "s", "options": []}, "options: expected an object, got a list"),
        ({"sessionId": "s", "messageId": 1}, "messageId: expected a string or null, got 1"),
    ],
)
def test_the_error_names_the_field_and_what_it_should_be(value: object, says: str) -> None:
    assert error(value) == says


def test_a_tagged_union_names_the_field_of_the_option_its_tag_chose() -> None:
    entry = {"sessionId": "s", "entry": {"kind": "message", "text": 5}}
    assert error(entry) == "entry.text: expected a string, got 5"
    queued = {"sessionId": "s", "entry": {"kind": "notice", "queued": False}}
    assert error(queued) == "entry.queued: expected true, got false"
    untagged = {"sessionId": "s", "entry": {"kind": "other"}}
    assert error(untagged) == 'entry.kind: expected "message" or "notice", got "other"'
    assert (
        error({"sessionId": "s", "entry": {}})
        == 'entry.kind: expected "message" or "notice", got nothing'
    )
    assert error({"sessionId": "s", "entry": 3}) == "entry: expected an object, got 3"


def test_a_list_names_the_item() -> None:
    table: dict[str, Shape] = {"Ids": Obj((("ids", Arr(STRING), True),))}
    with pytest.raises(InvalidParams, match=r"^ids\[1\]: expected a string, got null$"):
        check({"ids": ["a", None]}, Ref("Ids"), table)


def test_a_long_value_is_cut_in_the_message() -> None:
    said = error({"sessionId": "s", "all": "y" * 500})
    assert said.startswith('all: expected a boolean, got "yyy') and said.endswith("...")
    assert len(said) < 120


def test_null_for_an_optional_field_is_taken_as_not_given_unless_its_type_has_null() -> None:
    """Neovim's plugin sends ``vim.NIL`` for a session not chosen yet: it was "expected a
    string, got null", and every prompt of a fresh Neovim failed."""
    value = {"sessionId": "s1", "limit": None, "messageId": None}
    check(value, Ref("Params"), TABLE)
    assert value == {"sessionId": "s1", "messageId": None}  # messageId's type has null
    assert error({"sessionId": None}) == "sessionId: expected a string, got null"  # required
