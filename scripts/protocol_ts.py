"""Read the payload types docs/protocol.md writes in its ``ts`` blocks.

scripts/protocol_types.py generates Python TypedDicts, the sidecar's validator data and the
extension's TypeScript from what this returns. It reads the small part of TypeScript the document
uses, and nothing else: a construct outside it is a ``DocError`` naming where it is, never a type
silently read as something looser.

The subset: ``interface N [extends A, B] { ... }`` and ``type N = T;``; members ``name: T``,
``name?: T`` and one index signature ``[key: string]: T``; types ``string``, ``number``,
``boolean``, ``null``, ``unknown``, ``object``, ``true``/``false``, string literals, names
declared in some block, ``{ ... }`` literals, ``T[]``, ``( T )`` and unions ``A | B``; and, as
the whole of a ``type N = ...;``, a tuple of named positions (a command's arguments):
``[name: T, later?: T, ...rest: T[]]``, the optional ones after the required, a rest last. A
``/** ... */`` comment documents what follows it; a ``// ...`` comment documents the member (or
declaration) before it, or, standing first, the declaration after it.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from protocol_doc import DocError

# A primitive, a literal and a reference are read as the package's own shapes (what
# editor_shapes.py is written in): those of the tree this script is in, not of an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from acp_editor.protocol.shapes import Lit, Prim, Ref

PRIMITIVES = ("string", "number", "boolean", "null", "unknown", "object")
"""The names a ``Prim`` takes."""


@dataclass(frozen=True)
class Array:
    item: Type


@dataclass(frozen=True)
class Union:
    options: tuple[Type, ...]
    docs: tuple[str, ...]
    """Each option's comment ("" when none)."""


@dataclass(frozen=True)
class Field:
    name: str
    type: Type
    optional: bool
    doc: str


@dataclass(frozen=True)
class Struct:
    fields: tuple[Field, ...]
    index: Type | None = None
    """The ``[key: string]: T`` signature's T: more fields, each a T."""


@dataclass(frozen=True)
class Tuple:
    """Positions by name (``optional``: it and those after it may be left out), then maybe a rest
    of any number more (its ``type``: each one's)."""

    items: tuple[Field, ...]
    rest: Field | None = None


Type = Prim | Lit | Ref | Array | Union | Struct | Tuple


@dataclass
class Decl:
    name: str
    type: Type
    interface: bool
    extends: tuple[str, ...] = ()
    doc: str = ""


@dataclass
class Token:
    kind: str  # "word", "string", "punct", "doc", "line"
    text: str
    line: int
    first: bool = False
    """A comment that stands first on its line."""


TOKEN = re.compile(
    r"""(?P<space>\s+)|(?P<doc>/\*\*.*?\*/)|(?P<line>//[^\n]*)|(?P<string>"[^"\n]*")
    |(?P<word>[A-Za-z_$][\w$]*)|(?P<punct>\.\.\.|[{}\[\]();:,|?=<>&])""",
    re.S | re.X,
)


def tokens(text: str, where: str) -> list[Token]:
    out: list[Token] = []
    pos, line, line_start_pos = 0, 1, 0
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.lastgroup is None:
            raise DocError(f"{where}, line {line}: cannot read {text[pos : pos + 20]!r}")
        kind, value = match.lastgroup, match.group()
        if kind != "space":
            first = not text[line_start_pos:pos].strip()
            out.append(Token(kind, value, line, first))
        line += value.count("\n")
        if "\n" in value:
            line_start_pos = pos + value.rindex("\n") + 1
        pos = match.end()
    return out


def comment_text(token: Token) -> str:
    if token.kind == "line":
        return token.text[2:].strip()
    body = token.text[3:-2]
    return " ".join(line.strip().lstrip("*").strip() for line in body.splitlines()).strip()


def joined(*parts: str) -> str:
    return " ".join(p for p in parts if p)


@dataclass
class Parser:
    toks: list[Token]
    where: str
    pos: int = 0
    pending: list[str] = field(default_factory=list)
    """``/** */`` (and first-standing ``//``) comments waiting for what they document."""
    carry: str = ""
    """A line comment after a type that is not a union: the doc of the member it ends."""

    def fail(self, wanted: str) -> DocError:
        tok = self.toks[self.pos] if self.pos < len(self.toks) else None
        seen = f"{tok.text!r} on line {tok.line}" if tok else "the end of the block"
        return DocError(f"{self.where}: expected {wanted}, found {seen}")

    def comments(self) -> list[Token]:
        out = []
        while self.pos < len(self.toks) and self.toks[self.pos].kind in ("doc", "line"):
            out.append(self.toks[self.pos])
            self.pos += 1
        return out

    def trailing(self) -> str:
        """Line comments after a member: its doc. A doc comment is kept for the next one."""
        words = []
        for tok in self.comments():
            if tok.kind == "line":
                words.append(comment_text(tok))
            else:
                self.pending.append(comment_text(tok))
        return " ".join(words)

    def leading(self) -> str:
        for tok in self.comments():
            self.pending.append(comment_text(tok))
        doc, self.pending = " ".join(self.pending), []
        return doc

    def peek(self, text: str) -> bool:
        self.comments_as_pending()
        return self.pos < len(self.toks) and self.toks[self.pos].text == text

    def comments_as_pending(self) -> None:
        for tok in self.comments():
            self.pending.append(comment_text(tok))

    def take(self, text: str | None = None, kind: str | None = None) -> str:
        self.comments_as_pending()
        if self.pos >= len(self.toks):
            raise self.fail(text or kind or "more")
        tok = self.toks[self.pos]
        if (text is not None and tok.text != text) or (kind is not None and tok.kind != kind):
            raise self.fail(repr(text) if text else f"a {kind}")
        self.pos += 1
        return tok.text

    def declarations(self) -> list[Decl]:
        decls = []
        while True:
            doc = self.leading()
            if self.pos >= len(self.toks):
                return decls
            decl = self.declaration(doc)
            after = self.after_declaration()
            if isinstance(decl.type, Union) and after:  # the last option's, as the others'
                docs = (*decl.type.docs[:-1], joined(decl.type.docs[-1], after))
                decl.type = Union(decl.type.options, docs)
            else:
                decl.doc = joined(decl.doc, after)
            decls.append(decl)

    def after_declaration(self) -> str:
        """A line comment on the declaration's last line is its doc; one standing first on a
        line below belongs to what comes next."""
        words = []
        last = self.toks[self.pos - 1].line
        while self.pos < len(self.toks) and self.toks[self.pos].kind in ("doc", "line"):
            tok = self.toks[self.pos]
            if tok.kind == "doc" or tok.line != last:
                break
            words.append(comment_text(tok))
            self.pos += 1
        return " ".join(words)

    def declaration(self, doc: str) -> Decl:
        if self.peek("export"):
            self.take("export")
        if self.peek("interface"):
            self.take("interface")
            name = self.take(kind="word")
            extends = []
            if self.peek("extends"):
                self.take("extends")
                extends.append(self.take(kind="word"))
                while self.peek(","):
                    self.take(",")
                    extends.append(self.take(kind="word"))
            body = self.struct()
            if self.pos < len(self.toks) and self.toks[self.pos].text == ";":
                self.pos += 1
            return Decl(name, body, True, tuple(extends), doc)
        if self.peek("type"):
            self.take("type")
            name = self.take(kind="word")
            self.take("=")
            value = self.positions() if self.peek("[") else self.type()
            self.take(";")
            doc, self.carry = joined(doc, self.carry), ""
            return Decl(name, value, False, (), doc)
        raise self.fail("`interface` or `type`")

    def struct(self) -> Struct:
        self.take("{")
        fields: list[Field] = []
        index: Type | None = None
        while not self.peek("}"):
            doc = self.leading()
            if self.peek("["):
                if index is not None:
                    raise self.fail("one index signature at most")
                self.take("[")
                self.take(kind="word")
                self.take(":")
                key = self.take(kind="word")
                if key not in ("string", "SessionId", "ToolCallId"):
                    raise self.fail("an index signature keyed by a string")
                self.take("]")
                self.take(":")
                index = self.type()
                self.separator()
                self.trailing()  # what the index signature holds: said in TS, not generated
                self.carry = ""
                continue
            name = self.take(kind="word")
            optional = self.peek("?")
            if optional:
                self.take("?")
            self.take(":")
            value = self.type()
            self.separator()
            if any(f.name == name for f in fields):
                raise self.fail(f"{name} once")
            doc, self.carry = joined(doc, self.carry, self.trailing()), ""
            fields.append(Field(name, value, optional, doc))
        self.take("}")
        return Struct(tuple(fields), index)

    def positions(self) -> Tuple:
        self.take("[")
        items: list[Field] = []
        rest: Field | None = None
        while not self.peek("]"):
            doc = self.leading()
            if rest is not None:
                raise self.fail("`]` after the rest (`...name: T[]`), which comes last")
            spread = self.peek("...")
            if spread:
                self.take("...")
            name = self.take(kind="word")
            optional = not spread and self.peek("?")
            if optional:
                self.take("?")
            elif not spread and items and items[-1].optional:
                raise self.fail(f"{name}? (a required position after an optional one)")
            self.take(":")
            value = self.type()
            if spread and not isinstance(value, Array):
                raise self.fail(f"a list type (`T[]`) for the rest ...{name}")
            if self.pos < len(self.toks) and self.toks[self.pos].text == ",":
                self.pos += 1
            elif not self.peek("]"):
                raise self.fail("`,` or `]` after a position")
            if any(f.name == name for f in items):
                raise self.fail(f"{name} once")
            doc, self.carry = joined(doc, self.carry, self.trailing()), ""
            if spread:
                assert isinstance(value, Array)
                rest = Field(name, value.item, True, doc)
            else:
                items.append(Field(name, value, optional, doc))
        self.take("]")
        return Tuple(tuple(items), rest)

    def separator(self) -> None:
        if self.pos < len(self.toks) and self.toks[self.pos].text in (";", ","):
            self.pos += 1
        elif not self.peek("}"):
            raise self.fail("`;` or `}` after a member")

    def type(self) -> Type:
        if self.peek("|"):
            self.take("|")
        options = [self.postfix()]
        docs = [self.trailing()]
        while self.peek("|"):
            self.take("|")
            options.append(self.postfix())
            docs.append(self.trailing())
        if len(options) == 1:
            self.carry = joined(self.carry, docs[0])
            return options[0]
        return Union(tuple(options), tuple(docs))

    def postfix(self) -> Type:
        value = self.primary()
        while self.pos + 1 < len(self.toks) and self.toks[self.pos].text == "[":
            if self.toks[self.pos + 1].text != "]":
                break
            self.pos += 2
            value = Array(value)
        return value

    def primary(self) -> Type:
        if self.peek("{"):
            return self.struct()
        if self.peek("("):
            self.take("(")
            inner = self.type()
            self.take(")")
            return inner
        tok = self.toks[self.pos] if self.pos < len(self.toks) else None
        if tok is None or tok.kind not in ("word", "string"):
            raise self.fail("a type")
        self.pos += 1
        if tok.kind == "string":
            return Lit(tok.text[1:-1])
        if tok.text in ("true", "false"):
            return Lit(tok.text == "true")
        if tok.text in PRIMITIVES:
            return Prim(tok.text)
        if tok.text in ("any", "never", "undefined", "void", "Record", "Partial"):
            raise DocError(f"{self.where}, line {tok.line}: `{tok.text}` is outside what is read")
        return Ref(tok.text)


def blocks(doc: str) -> list[tuple[int, str]]:
    """Every ``ts`` block of the document, with the line it starts on."""
    out = []
    for match in re.finditer(r"^```ts\n(.*?)^```", doc, re.S | re.M):
        out.append((doc.count("\n", 0, match.start()) + 2, match.group(1)))
    return out


def declarations(doc: str) -> list[Decl]:
    """Every declaration of every ``ts`` block, in the document's order; references checked."""
    decls: list[Decl] = []
    for line, text in blocks(doc):
        where = f"the ts block at line {line}"
        decls += Parser(tokens(text, where), where).declarations()
    names: dict[str, Decl] = {}
    for decl in decls:
        if decl.name in names:
            raise DocError(f"{decl.name} is declared twice")
        names[decl.name] = decl
    for decl in decls:
        for base in decl.extends:
            base_decl = names.get(base)
            if base_decl is None or not isinstance(base_decl.type, Struct):
                raise DocError(f"{decl.name} extends {base}, which is not an interface")
        for ref in references(decl.type):
            if ref not in names:
                raise DocError(f"{decl.name} names {ref}, which no ts block declares")
    return decls


def references(value: Type) -> list[str]:
    if isinstance(value, Ref):
        return [value.name]
    if isinstance(value, Array):
        return references(value.item)
    if isinstance(value, Union):
        return [name for option in value.options for name in references(option)]
    if isinstance(value, Struct):
        inner = [f.type for f in value.fields] + ([value.index] if value.index else [])
        return [name for t in inner for name in references(t)]
    if isinstance(value, Tuple):
        items = value.items + ((value.rest,) if value.rest else ())
        return [name for item in items for name in references(item.type)]
    return []
