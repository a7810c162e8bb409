"""Checking a JSON value against a payload type of docs/protocol.md, with an error that says
where it differs: ``sessionId: expected a string, got 3``.

The types come as data (``editor_shapes``, generated from the document's ``ts`` blocks by
scripts/protocol_types.py), so what is checked is what the document declares, and what the
TypedDicts of ``editor_types`` promise. Fields an object has beyond its type are let through, as
the protocol's readers ignore what they do not know. An optional field given as ``null`` where
its type has no null is dropped, as not given: clients write "not given" so (Lua's
``vim.NIL``, JavaScript's ``null``), and the protocol's readers before the types took it so.

A zero-plugin command's arguments are a list (``workspace/executeCommand``), typed as a tuple of
named positions (``Tup``): ``arguments`` checks them the same way, null at an optional position
included, and names the command and the position in its error:
``acp.setMode argument 1 (modeId): expected a string, got 3``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from acp_editor.errors import InvalidParams


@dataclass(frozen=True)
class Prim:
    name: str
    """string, number, boolean, null, unknown (anything) or object (any object)."""


@dataclass(frozen=True)
class Lit:
    value: str | bool


@dataclass(frozen=True)
class Ref:
    name: str
    """A type of the table the check is given."""


@dataclass(frozen=True)
class Arr:
    item: Shape


@dataclass(frozen=True)
class Either:
    options: tuple[Shape, ...]


@dataclass(frozen=True)
class Obj:
    fields: tuple[tuple[str, Shape, bool], ...]
    """Name, type and whether it is required."""
    rest: Shape | None = None
    """The index signature's type: what each other field must be."""


@dataclass(frozen=True)
class Tup:
    """A command's arguments: positions by name; the optional ones come last."""

    items: tuple[tuple[str, Shape, bool], ...]
    """Name, type and whether it is required, by position."""
    rest: tuple[str, Shape] | None = None
    """The name and type of any number more after them (a list by that name)."""


Shape = Prim | Lit | Ref | Arr | Either | Obj | Tup
STRING, NUMBER, BOOLEAN = Prim("string"), Prim("number"), Prim("boolean")
NULL, UNKNOWN, OBJECT = Prim("null"), Prim("unknown"), Prim("object")
Table = Mapping[str, Shape]

A_TYPE = {"string": "a string", "number": "a number", "boolean": "a boolean", "null": "null"}
A_TYPE |= {"unknown": "anything", "object": "an object"}


def check(value: object, shape: Shape, table: Table, path: str = "params") -> None:
    """Raise ``InvalidParams`` naming the first place where ``value`` is not ``shape``."""
    while isinstance(shape, Ref):
        shape = table[shape.name]
    if isinstance(shape, Obj):
        _check_object(value, shape, table, path)
    elif isinstance(shape, Arr):
        if not isinstance(value, list):
            raise _wrong(path, shape, table, value)
        for index, item in enumerate(value):
            check(item, shape.item, table, f"{path}[{index}]")
    elif isinstance(shape, Either):
        _check_either(value, shape, table, path)
    elif isinstance(shape, Tup):
        raise TypeError(f"{path}: a tuple is a command's arguments: check them with arguments()")
    elif not fits(value, shape):
        raise _wrong(path, shape, table, value)


def arguments(
    values: Sequence[object],
    shape: Tup,
    table: Table,
    command: str,
    named: Collection[str] = (),
) -> dict[str, object]:
    """``values``, a command's arguments, by the names of their positions, each checked; else
    ``InvalidParams`` naming the command, the position and what it should be. A position in
    ``named`` is an id or a name: a blank string there is none, an error too."""
    if len(values) > len(shape.items) and shape.rest is None:
        raise InvalidParams(f"{command} takes {_count(shape)}, got {len(values)}")
    out: dict[str, object] = {}
    for number, (name, field, required) in enumerate(shape.items, 1):
        where = f"{command} argument {number} ({name})"
        given = number <= len(values)
        if given and values[number - 1] is None and not required:
            given = _takes_null(field, table)  # null for "not given", as in an object
        if not given:
            if required:
                raise InvalidParams(f"{where}: missing ({describe(field, table)})")
            continue
        out[name] = _checked(values[number - 1], field, table, where, name in named)
    if shape.rest is not None and len(values) > len(shape.items):
        name, field = shape.rest
        first = len(shape.items) + 1
        out[name] = [
            _checked(value, field, table, f"{command} argument {n} ({name})", name in named)
            for n, value in enumerate(values[first - 1 :], first)
        ]
    return out


def _checked(value: object, shape: Shape, table: Table, where: str, named: bool) -> object:
    check(value, shape, table, where)
    if named and isinstance(value, str) and not value.strip():
        raise InvalidParams(f"{where}: expected a non-empty string, got {shown(value)}")
    return value


def position(shape: Tup, command: str, name: str) -> str:
    """How an error names a command's argument: ``acp.restoreCheckpoint argument 1 (turn)``."""
    names = [item for item, _, _ in shape.items]
    return f"{command} argument {names.index(name) + 1} ({name})"


def _count(shape: Tup) -> str:
    """``no argument``, ``1 argument (modeId)``, ``1 to 2 arguments (title, sessionId?)``,
    ``at most 1 argument (sessionId?)``."""
    most = len(shape.items)
    if most == 0:
        return "no argument"
    least = sum(required for _, _, required in shape.items)
    many = f"{most} argument{'s' if most > 1 else ''}"
    count = many if least == most else f"{least} to {many}" if least else f"at most {many}"
    listed = ", ".join(f"{name}{'' if required else '?'}" for name, _, required in shape.items)
    return f"{count} ({listed})"


def fits(value: object, shape: Prim | Lit) -> bool:
    if isinstance(shape, Lit):
        return value == shape.value and type(value) is type(shape.value)
    kinds = {
        "string": str,
        "number": int | float,
        "boolean": bool,
        "null": type(None),
        "object": dict,
        "unknown": object,
    }
    kind = kinds[shape.name]
    return isinstance(value, kind) and not (shape.name == "number" and isinstance(value, bool))


def _check_object(value: object, shape: Obj, table: Table, path: str) -> None:
    if not isinstance(value, dict):
        raise _wrong(path, shape, table, value)
    inner = "" if path == "params" else f"{path}."
    for name, field, required in shape.fields:
        if not required and value.get(name, 0) is None and not _takes_null(field, table):
            del value[name]  # null for "not given" (Lua's vim.NIL, JavaScript): taken as such
        if name not in value:
            if required:
                raise InvalidParams(f"{inner}{name}: missing ({describe(field, table)})")
            continue
        check(value[name], field, table, f"{inner}{name}")
    if shape.rest is not None:
        named = {name for name, _, _ in shape.fields}
        for key, item in value.items():
            if key not in named:
                check(item, shape.rest, table, f"{inner}{key}")


def _takes_null(shape: Shape, table: Table) -> bool:
    try:
        check(None, shape, table)
    except InvalidParams:
        return False
    return True


def _check_either(value: object, shape: Either, table: Table, path: str) -> None:
    options = [_resolved(option, table) for option in shape.options]
    tagged = _by_tag(value, options)
    if tagged is not None:
        check(value, tagged, table, path)
        return
    for option in options:
        try:
            check(value, option, table, path)
        except InvalidParams:
            continue
        return
    tag = _common_tag(options)
    if tag is not None and isinstance(value, dict):
        tags = Either(tuple(_tag_of(option, tag) for option in options))
        got = shown(value[tag]) if tag in value else "nothing"
        inner = "" if path == "params" else f"{path}."
        raise InvalidParams(f"{inner}{tag}: {describe(tags, table)}, got {got}")
    raise _wrong(path, shape, table, value)


def _tag_of(option: Shape, name: str) -> Shape:
    assert isinstance(option, Obj)
    return next(field for key, field, _ in option.fields if key == name)


def _common_tag(options: list[Shape]) -> str | None:
    """The field every option tells itself apart by (``kind``, ``type``), if they all have one."""
    names: set[str] | None = None
    for option in options:
        if not isinstance(option, Obj):
            return None
        mine = {key for key, field, _ in option.fields if isinstance(field, Lit)}
        names = mine if names is None else names & mine
    return min(names) if names else None


def _resolved(shape: Shape, table: Table) -> Shape:
    while isinstance(shape, Ref):
        shape = table[shape.name]
    return shape


def _by_tag(value: object, options: list[Shape]) -> Obj | None:
    """The option a tagged object is (``{kind: "notice", ...}``), to say what is wrong in it."""
    if not isinstance(value, dict):
        return None
    for option in options:
        if not isinstance(option, Obj):
            continue
        for name, field, _ in option.fields:
            if not isinstance(field, Lit) or not isinstance(field.value, str):
                continue
            if value.get(name) == field.value:
                return option
    return None


def describe(shape: Shape, table: Table) -> str:
    """What a value of ``shape`` is, for an error: ``a string or a list``, ``"accept"``."""
    shape = _resolved(shape, table)
    if isinstance(shape, Prim):
        return f"expected {A_TYPE[shape.name]}"
    return f"expected {_noun(shape, table)}"


def _noun(shape: Shape, table: Table) -> str:
    shape = _resolved(shape, table)
    if isinstance(shape, Prim):
        return A_TYPE[shape.name]
    if isinstance(shape, Lit):
        return json.dumps(shape.value)
    if isinstance(shape, Arr):
        return "a list"
    if isinstance(shape, Obj):
        return "an object"
    assert isinstance(shape, Either)
    nouns = dict.fromkeys(_noun(option, table) for option in shape.options)
    words = list(nouns)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def shown(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, default=repr)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _wrong(path: str, shape: Shape, table: Table, value: object) -> InvalidParams:
    return InvalidParams(f"{path}: {describe(shape, table)}, got {shown(value)}")
