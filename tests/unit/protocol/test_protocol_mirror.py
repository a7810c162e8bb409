"""docs/protocol.md is the source of truth: the Python tables must say exactly what it says.

The TypeScript and Lua mirrors join this test when they exist (their issues add them).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from acp_editor.protocol import editor

DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def section(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- {name} -->(.*?)<!-- /{name} -->", text, re.S)
    assert match, f"docs/protocol.md has no <!-- {name} --> section"
    return match.group(1)


def doc_messages() -> dict[str, tuple[str, str]]:
    found = {}
    for block in re.split(r"^### ", section("messages"), flags=re.M)[1:]:
        heading = block.splitlines()[0]
        method = re.fullmatch(r"`(acp/\w+)`", heading.strip())
        assert method, f"heading is not a method: {heading!r}"
        direction = re.search(r"\*\*Direction:\*\* (.+?), (request|notification)\s*$", block, re.M)
        assert direction, f"{heading}: no Direction line"
        found[method.group(1)] = (direction.group(1), direction.group(2))
    return found


def table_column(name: str) -> list[str]:
    rows = [r for r in section(name).strip().splitlines() if r.startswith("| `")]
    return [re.match(r"\| `([^`]+)`", r).group(1) for r in rows]  # type: ignore[union-attr]


def test_every_message_in_the_doc_is_in_the_python_table_and_back() -> None:
    documented = doc_messages()
    python = {m.method: (m.direction, m.kind) for m in editor.MESSAGES.values()}
    assert documented == python


def test_features_match() -> None:
    assert table_column("features") == list(editor.FEATURES)


def test_commands_match() -> None:
    assert table_column("commands") == list(editor.COMMANDS)


def test_constants_name_the_methods_in_the_table() -> None:
    constants = {v for k, v in vars(editor).items() if k.startswith("ACP_") and isinstance(v, str)}
    assert constants == set(editor.MESSAGES)


def test_every_json_example_in_the_doc_parses_and_names_its_method() -> None:
    blocks = re.findall(r"```json\n(.*?)```", section("messages"), re.S)
    assert blocks
    for block in blocks:
        for line in block.strip().splitlines():
            message = json.loads(line)
            assert message["jsonrpc"] == "2.0"
            if "method" in message:
                assert message["method"] in editor.MESSAGES
