"""acp_editor/protocol/editor.py and docs/protocol.md: what the generator does not see.

The document's tables reach the three mirrors through scripts/protocol_tables.py (its test,
test_editor_names.py, fails when one is stale). What stays checked here: the document's JSON
examples, which nothing generates from, and the names written by hand beside the generated ones
(error codes in Python, TypeScript and Lua; the diagnostics' source).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from acp_editor.errors import InternalError, InvalidParams, RequestCancelled
from acp_editor.protocol import editor, editor_names

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
LUA = (ROOT / "lua" / "acp_editor" / "protocol.lua").read_text(encoding="utf-8")
TS = (ROOT / "vscode-extension" / "src" / "protocol.ts").read_text(encoding="utf-8")


def section(name: str) -> str:
    match = re.search(rf"<!-- {name} -->(.*?)<!-- /{name} -->", DOC, re.S)
    assert match, f"docs/protocol.md has no <!-- {name} --> section"
    return match.group(1)


def message_sections() -> dict[str, str]:
    blocks = re.split(r"^### ", section("messages"), flags=re.M)[1:]
    return {re.match(r"`(acp/\w+)`", block).group(1): block for block in blocks}  # type: ignore[union-attr]


def test_editor_re_exports_every_generated_name() -> None:
    for name in editor_names.__all__:
        assert getattr(editor, name) is getattr(editor_names, name), name
    assert list(editor.MESSAGES) == list(message_sections())


def test_every_json_example_parses_and_is_its_own_sections_message() -> None:
    examples = 0
    for method, block in message_sections().items():
        kind = editor.MESSAGES[method].kind
        for example in re.findall(r"```json\n(.*?)```", block, re.S):
            for line in example.strip().splitlines():
                message = json.loads(line)
                examples += 1
                assert message["jsonrpc"] == "2.0", line
                if "method" in message:
                    assert message["method"] == method, line
                    assert ("id" in message) == (kind == "request"), line
                else:
                    assert kind == "request" and "id" in message, line
                    assert ("result" in message) != ("error" in message), line
    assert examples >= len(editor.MESSAGES)


def doc_error_codes() -> set[int]:
    table = DOC.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    return {int(code) for code in re.findall(r"^\| (-\d+) \|", table, re.M)}


def test_the_error_codes_written_by_hand_are_the_documented_ones() -> None:
    documented = doc_error_codes()
    python = {
        InvalidParams.CODE,
        editor.AGENT_UNAVAILABLE,
        InternalError.CODE,
        RequestCancelled.CODE,
    }
    assert python == documented
    lua_table = re.search(r"^M\.errors = \{\n(.*?)^\}", LUA, re.S | re.M)
    assert lua_table, "protocol.lua has no M.errors table"
    assert {int(c) for c in re.findall(r"= (-\d+),", lua_table.group(1))} == documented
    typescript = {int(c) for c in re.findall(r"^export const ERROR_\w+ = (-\d+);", TS, re.M)}
    assert typescript and typescript <= documented


def test_the_diagnostics_source_is_the_documented_one() -> None:
    assert f'`source: "{editor.DIAGNOSTIC_SOURCE}"`' in section("features")


def test_named_and_whole_say_what_the_document_says_in_words() -> None:
    assert editor.named("s1", "sessionId") == "s1"
    with pytest.raises(InvalidParams, match=r'^sessionId: expected a non-empty string, got ""$'):
        editor.named("", "sessionId")
    assert editor.whole(3, "index", 0) == 3
    with pytest.raises(InvalidParams, match=r"^index: expected a whole number 0 or more, got -1$"):
        editor.whole(-1, "index", 0)
    with pytest.raises(
        InvalidParams, match=r"^limit: expected a whole number from 1 to 9, got 1.5$"
    ):
        editor.whole(1.5, "limit", 1, 9)
