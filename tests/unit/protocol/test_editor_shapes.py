"""acp_editor/protocol/editor_shapes.py: the document's types as data, checked through
``editor.parse``; every message's params and result have one, and every JSON example of the
document is what its message's types say."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor
from acp_editor.protocol.editor_shapes import SHAPES
from acp_editor.protocol.shapes import Obj, check

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def message_blocks() -> dict[str, str]:
    messages = DOC.split("<!-- messages -->", 1)[1].split("<!-- /messages -->", 1)[0]
    blocks = re.split(r"^### ", messages, flags=re.M)[1:]
    return {re.match(r"`(acp/\w+)`", b).group(1): b for b in blocks}  # type: ignore[union-attr]


def declared(block: str, suffix: str) -> str | None:
    names = re.findall(rf"^(?:interface|type) (\w+{suffix})\b", block, re.M)
    return names[0] if names else None


def test_every_message_has_shapes_for_its_params_and_result() -> None:
    for method, block in message_blocks().items():
        params = declared(block, "Params")
        assert params in SHAPES and editor.MESSAGES[method].params == params, method
        result = declared(block, "Result")
        assert (result in SHAPES) == (editor.MESSAGES[method].kind == "request"), method


def test_every_json_example_is_what_its_types_say() -> None:
    checked = 0
    for block in message_blocks().values():
        for example in re.findall(r"```json\n(.*?)```", block, re.S):
            for line in example.strip().splitlines():
                message = json.loads(line)
                if "params" in message:
                    check(message["params"], SHAPES[declared(block, "Params") or ""], SHAPES)
                elif "result" in message:
                    check(message["result"], SHAPES[declared(block, "Result") or ""], SHAPES)
                else:
                    continue
                checked += 1
    assert checked >= len(editor.MESSAGES)


def test_an_interface_has_the_fields_of_what_it_extends() -> None:
    diff = SHAPES["DiffParams"]
    assert isinstance(diff, Obj)
    names = [name for name, _, _ in diff.fields]
    assert names[:3] == ["uri", "path", "oldText"] and names[-2:] == ["sessionId", "toolCallId"]


def test_parse_returns_the_params_as_their_type_or_says_what_is_wrong() -> None:
    params = {"sessionId": "s1", "dropQueued": True}
    assert editor.parse(editor.CANCEL, params) is params
    assert editor.parse(editor.SNAPSHOT, None) == {}
    with pytest.raises(InvalidParams, match=r"^sessionId: missing \(expected a string\)$"):
        editor.parse(editor.CANCEL, None)
    with pytest.raises(InvalidParams, match=r"^dropQueued: expected a boolean, got \"yes\"$"):
        editor.parse(editor.CANCEL, {"sessionId": "s1", "dropQueued": "yes"})
    with pytest.raises(InvalidParams, match=r"^params: expected an object, got 42$"):
        editor.parse(editor.AGENTS, 42)
