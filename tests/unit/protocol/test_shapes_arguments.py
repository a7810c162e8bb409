"""A command's arguments checked by position (``shapes.arguments``): by name when right, else an
error naming the command, the position and what it takes; null at an optional position is as
if left out; a rest collects any number more."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol.shapes import BOOLEAN, NULL, NUMBER, STRING, Either, Tup, arguments

RESTORE = Tup((("turn", Either((NUMBER, NULL)), False), ("confirmed", BOOLEAN, False)))
GROUPS = Tup((("groupId", STRING, True),), rest=("more", STRING))


def test_arguments_come_back_by_name() -> None:
    assert arguments([], RESTORE, {}, "acp.x") == {}
    assert arguments([None, True], RESTORE, {}, "acp.x") == {"turn": None, "confirmed": True}
    assert arguments([2, None], RESTORE, {}, "acp.x") == {"turn": 2}  # null: not given
    assert arguments(["g1"], GROUPS, {}, "acp.g") == {"groupId": "g1"}
    assert arguments(["g1", "g2", "g3"], GROUPS, {}, "acp.g") == {
        "groupId": "g1",
        "more": ["g2", "g3"],
    }


@pytest.mark.parametrize(
    ("shape", "values", "says"),
    [
        (RESTORE, ["x"], 'acp.x argument 1 (turn): expected a number or null, got "x"'),
        (RESTORE, [1, 2], "acp.x argument 2 (confirmed): expected a boolean, got 2"),
        (RESTORE, [1, True, 3], "acp.x takes at most 2 arguments (turn?, confirmed?), got 3"),
        (GROUPS, [], "acp.x argument 1 (groupId): missing (expected a string)"),
        (GROUPS, [None], "acp.x argument 1 (groupId): expected a string, got null"),
        (GROUPS, ["g", 5], "acp.x argument 2 (more): expected a string, got 5"),
        (Tup(()), [1], "acp.x takes no argument, got 1"),
        (Tup((("a", STRING, True),)), [1, 2], "acp.x takes 1 argument (a), got 2"),
        (Tup((("a", STRING, True), ("b", STRING, False))), [], "argument 1 (a): missing"),
    ],
)
def test_a_wrong_argument_is_named_with_its_command_and_position(
    shape: Tup, values: list[object], says: str
) -> None:
    with pytest.raises(InvalidParams) as err:
        arguments(values, shape, {}, "acp.x")
    assert says in str(err.value)


def test_named_positions_take_no_blank_string() -> None:
    with pytest.raises(InvalidParams, match=r'^acp\.g argument 3 \(more\): .* non-empty .*" "$'):
        arguments(["g1", "g2", " "], GROUPS, {}, "acp.g", named=("groupId", "more"))
    assert arguments([""], GROUPS, {}, "acp.g") == {"groupId": ""}  # not named: any string
