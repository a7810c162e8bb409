"""Read docs/protocol.md's tables: what scripts/protocol_tables.py writes into the mirrors.

What is read, and how the document must say it (a different shape is a ``DocError``, never a
silently shorter table):
- between ``<!-- messages -->`` and ``<!-- /messages -->``, one ``### `acp/x``` heading per
  message, its line ``- **Direction:** editor → server, request`` (or ``server → editor``,
  ``notification``), and a ``ts`` block declaring one ``...Params`` type and, for a request, one
  ``...Result`` type: those names type the message in TypeScript;
- the first column of the tables in the ``features`` and ``commands`` sections (same markers);
- in the ``commands`` section, a ``ts`` block declaring each command's arguments as a tuple,
  ``type RestoreCheckpointArguments = [...]`` for ``acp.restoreCheckpoint`` (``arguments_type``),
  and nothing else;
- the option kinds ``acp/requestPermission`` lists ("by `kind`: `allow_once`, ..., or a custom");
- the ``ReviewMode`` union (``InitializationOptions.review``).

``generate`` is the command line of both generators from the document,
scripts/protocol_tables.py and scripts/protocol_types.py: ``--check``, ``--root``, exit 2 on a
``DocError``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from generated_files import ruff_formatted, sync

ROOT = Path(__file__).resolve().parents[1]
DOC = Path("docs/protocol.md")
DIRECTIONS = ("editor → server", "server → editor")
T = TypeVar("T")


class DocError(Exception):
    """docs/protocol.md does not have the shape this script reads."""


@dataclass(frozen=True)
class Message:
    method: str
    direction: str
    kind: str
    params: str
    """The name of the params type its ``ts`` block declares."""
    result: str | None
    """The name of the result type (requests only)."""


@dataclass(frozen=True)
class Tables:
    messages: list[Message]
    features: list[str]
    commands: list[str]
    permission_kinds: list[str]
    review_modes: list[str]


def section(doc: str, name: str) -> str:
    match = re.search(rf"<!-- {name} -->(.*?)<!-- /{name} -->", doc, re.S)
    if not match:
        raise DocError(f"no <!-- {name} --> ... <!-- /{name} --> section")
    return match.group(1)


def first_column(doc: str, name: str) -> list[str]:
    """The backquoted first cell of each row of the table in section ``name``."""
    values = re.findall(r"^\| `([^`]+)`", section(doc, name), re.M)
    if not values:
        raise DocError(f"the {name} table has no rows")
    return values


def arguments_type(command: str) -> str:
    """``acp.restoreCheckpoint`` -> ``RestoreCheckpointArguments``: its arguments' type."""
    bare = command.split(".", 1)[-1]
    return bare[:1].upper() + bare[1:] + "Arguments"


def command_arguments(doc: str, commands: list[str]) -> None:
    """Every command's arguments are declared, as a tuple, in its section's ``ts`` block."""
    blocks = re.findall(r"^```ts\n(.*?)^```", section(doc, "commands"), re.S | re.M)
    declared = re.findall(r"^(?:interface|type) (\w+)( = \[)?", "".join(blocks), re.M)
    wanted = [arguments_type(command) for command in commands]
    for name, tuple_ in declared:
        if name not in wanted:
            raise DocError(f"the commands' ts block declares {name}, which no command's name gives")
        if not tuple_:
            raise DocError(f"{name}: a command's arguments are a tuple, `type {name} = [...];`")
    missing = [name for name in wanted if name not in {name for name, _ in declared}]
    if missing:
        raise DocError(f"the commands' ts block does not declare {', '.join(missing)}")


def message(block: str) -> Message:
    heading = block.splitlines()[0].strip()
    method = re.fullmatch(r"`(acp/\w+)`", heading)
    if not method:
        raise DocError(f"### {heading}: a message heading names one method, as ### `acp/x`")
    direction = re.search(r"^- \*\*Direction:\*\* (.+?), (request|notification)\s*$", block, re.M)
    if not direction or direction.group(1) not in DIRECTIONS:
        raise DocError(f"{heading}: no line `- **Direction:** {DIRECTIONS[0]}, request`")
    ts = re.search(r"^```ts\n(.*?)^```", block, re.S | re.M)
    declared = re.findall(r"^(?:interface|type) (\w+)", ts.group(1), re.M) if ts else []
    params = [name for name in declared if name.endswith("Params")]
    results = [name for name in declared if name.endswith("Result")]
    kind = direction.group(2)
    if len(params) != 1 or len(results) != (kind == "request"):
        wanted = "one ...Params and one ...Result" if kind == "request" else "one ...Params"
        raise DocError(f"{heading}: its ts block declares {declared}, not {wanted}")
    return Message(method.group(1), direction.group(1), kind, params[0], (results or [None])[0])


def permission_kinds(messages: str) -> list[str]:
    block = messages.split("### `acp/requestPermission`", 1)[-1].split("\n### ", 1)[0]
    listed = re.search(r"by `kind`: (.*?), or a custom", block, re.S)
    if not listed:
        raise DocError("acp/requestPermission no longer lists the option kinds (by `kind`: ...)")
    return re.findall(r"`(\w+)`", listed.group(1))


def review_modes(doc: str) -> list[str]:
    union = re.search(r"^type ReviewMode = (.+);$", doc, re.M)
    if not union:
        raise DocError('no `type ReviewMode = "..." | ...;` line (InitializationOptions.review)')
    return re.findall(r'"([^"]+)"', union.group(1))


def read(doc: str) -> Tables:
    """The tables of the document's text ``doc``, in its order."""
    messages = section(doc, "messages")
    commands = first_column(doc, "commands")
    command_arguments(doc, commands)
    return Tables(
        messages=[message(block) for block in re.split(r"^### ", messages, flags=re.M)[1:]],
        features=first_column(doc, "features"),
        commands=commands,
        permission_kinds=permission_kinds(messages),
        review_modes=review_modes(doc),
    )


def generate(
    script: str,
    description: str,
    read: Callable[[str], T],
    outputs: dict[Path, Callable[[T], str]],
    argv: list[str] | None = None,
) -> int:
    """Write, or with ``--check`` diff, each of ``outputs`` (a path and what writes it from
    what ``read`` makes of the document's text); exit 2 when the document is not as they read
    it, 1 when checking found a file stale. ``--root DIR`` reads and writes under DIR (the tests
    use a copy)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 and diff if stale")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: ours)")
    args = parser.parse_args(argv)
    try:
        parsed = read((args.root / DOC).read_text(encoding="utf-8"))
        files = {path: write(parsed) for path, write in outputs.items()}
    except DocError as error:
        print(f"{DOC}: {error}", file=sys.stderr)
        return 2
    for path in files:
        if path.suffix == ".py":  # written as ruff formats it, so both checks agree
            files[path] = ruff_formatted(files[path], args.root / path)
    stale = sync(files, args.root, args.check)
    if stale:
        print(f"\nstale: not as {DOC} gives them; edit {DOC}, then run {script}")
    return stale
