"""editor_types.py, editor_shapes.py and the extension's wire.generated.ts are as
scripts/protocol_types.py generates them from docs/protocol.md's ts blocks; its ``--check``
notices a hand edit of one, or a doc edit nobody generated from; TypeScript outside what it
reads is an error, not a looser type."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from acp_editor.protocol import editor_types
from tests.support.protocol_generator import ROOT, TYPES, GeneratorChecks, edit_doc


class TestAsEveryGenerator(GeneratorChecks):
    generator = TYPES
    hand_edit = ("terminalId", "terminalID")


def test_a_new_message_in_the_document_reaches_every_mirror(tmp_path: Path) -> None:
    python, shapes, typescript = TYPES.check_new_message_reaches_every_mirror(tmp_path)
    assert "class RenameSessionParams(TypedDict):\n    sessionId: SessionId\n" in python
    assert '    title: NotRequired[str | None]\n    kind: Literal["a", "b"]\n' in python
    assert "class RenameSessionResult(TypedDict):\n    pass\n" in python
    assert '"RenameSessionParams": Obj(' in shapes
    assert 'Lit("a")' in shapes.split('"RenameSessionParams"')[1]
    assert "export interface RenameSessionParams {\n  sessionId: SessionId;\n" in typescript
    assert '  title?: string | null;\n  kind: "a" | "b";\n}' in typescript
    assert "export type RenameSessionResult = Record<string, never>;" in typescript


LOGOUT = "type LogoutArguments = [confirmed?: boolean];  // true: the editor asked its user"
ARGUMENTS = """type LogoutArguments = [
  confirmed?: boolean,  // true: asked
  ...why: (string | null)[]
];"""


def test_a_commands_arguments_reach_every_mirror(tmp_path: Path) -> None:
    """A tuple of named positions: labelled in TypeScript, a TypedDict by name in Python."""
    copy = TYPES.copy(tmp_path)
    edit_doc(copy, LOGOUT, ARGUMENTS)
    assert TYPES.run(copy).returncode == 0
    python, shapes, typescript = (
        (copy / relative).read_text(encoding="utf-8") for relative in TYPES.generated
    )
    assert (
        "class LogoutArguments(TypedDict):\n"
        '    """The arguments ``[confirmed?, ...why]`` by name."""\n\n'
        "    # true: asked\n"
        "    confirmed: NotRequired[bool]\n"
        "    why: NotRequired[list[str | None]]\n"
    ) in python
    shape = shapes.split('"LogoutArguments": ')[1].split("\n    ),\n")[0]
    assert "".join(shape.split()) == (  # as written, without the spaces ruff lays out
        'Tup((("confirmed",BOOLEAN,False),),rest=("why",Either((STRING,NULL,)),),'
    )
    assert (
        "export type LogoutArguments = [\n"
        "  /** true: asked */\n"
        "  confirmed?: boolean,\n"
        "  ...why: (string | null)[],\n"
        "];"
    ) in typescript


BRING_BACK = "interface BringBackParams { sessionId: SessionId }"


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ("interface BringBackParams { x: any }", "`any`"),
        ("interface BringBackParams { x: Nope }", "Nope, which no ts block declares"),
        ("interface BringBackParams { x: 1 }", "cannot read '1 }"),
        ("interface BringBackParams { x: Map<string> }", "`;` or `}`"),
        ("interface ToolCallId { x: string }", "declared twice"),
        ("class BringBackParams {}", "`interface` or `type`"),
        ("interface BringBackParams { x: [a: string] }", "expected a type"),
        ("type BringBackParams = [a?: string, b: string];", "required position after an optional"),
        ("type BringBackParams = [...a: string[], b: string];", "`]` after the rest"),
        ("type BringBackParams = [...a: string];", "a list type (`T[]`) for the rest ...a"),
    ],
    ids=[
        "any",
        "undeclared",
        "number literal",
        "generic",
        "twice",
        "class",
        "nested tuple",
        "optional first",
        "rest not last",
        "rest not a list",
    ],
)
def test_typescript_outside_the_subset_is_an_error_naming_it(
    tmp_path: Path, new: str, says: str
) -> None:
    TYPES.check_unreadable(tmp_path, BRING_BACK, new, says)


def test_comments_become_docs_of_what_they_describe() -> None:
    typescript = (ROOT / TYPES.generated[2]).read_text(encoding="utf-8")
    assert "  /** the transcript, in arrival order */\n  entries: Entry[];" in typescript
    assert "  /** default: every session */" not in typescript  # a declaration's, not a field's
    python = (ROOT / TYPES.generated[0]).read_text(encoding="utf-8")
    assert "    # the transcript, in arrival order\n    entries: list[Entry]\n" in python


def test_the_types_are_what_mypy_and_python_read() -> None:
    hints = typing.get_type_hints(editor_types.CancelParams, include_extras=True)
    assert hints == {"sessionId": str, "dropQueued": typing.NotRequired[bool]}
    assert typing.get_args(editor_types.Decision) == ("accept", "reject")
    options = typing.get_args(editor_types.Entry)
    assert [typing.get_type_hints(o)["kind"] for o in options] == [
        typing.Literal["message"],
        typing.Literal["notice"],
        typing.Literal["toolCall"],
        typing.Literal["update"],
    ]
