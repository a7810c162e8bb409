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


# -- the Lua mirror (lua/acp_editor/protocol.lua) -------------------------------------------
#
# The Lua file keeps a format simple enough to read without a Lua parser: between the comment
# lines `-- <name>` and `-- </name>` every line that is not blank or a comment is one entry, either
#   `  NAME = { method = "acp/x", direction = "editor → server", kind = "request" },`
# (messages; NAME is the method in UPPER_SNAKE_CASE) or `  "name",` (features, commands,
# permission_kinds). A line in a section that fits neither fails the test instead of being skipped.

LUA = DOC.parents[1] / "lua" / "acp_editor" / "protocol.lua"
LUA_MESSAGE = re.compile(
    r'  (?P<name>[A-Z_]+) = \{ method = "(?P<method>acp/\w+)", '
    r'direction = "(?P<direction>[^"]+)", kind = "(?P<kind>request|notification)" \},'
)
LUA_STRING = re.compile(r'  "(?P<value>[^"]+)",')


def lua_section(name: str) -> list[str]:
    text = LUA.read_text(encoding="utf-8")
    match = re.search(rf"^\s*-- <{name}>\n(.*?)^\s*-- </{name}>$", text, re.S | re.M)
    assert match, f"{LUA.name} has no -- <{name}> section"
    lines = [line for line in match.group(1).splitlines() if line.strip()]
    return [line for line in lines if not line.strip().startswith("--")]


def lua_strings(name: str) -> list[str]:
    values = []
    for line in lua_section(name):
        match = LUA_STRING.fullmatch(line)
        assert match, f'{LUA.name} <{name}>: not a `  "name",` line: {line!r}'
        values.append(match.group("value"))
    return values


def upper_snake(method: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", method.removeprefix("acp/")).upper()


def test_every_message_in_the_doc_is_in_the_lua_table_and_back() -> None:
    lua = {}
    for line in lua_section("messages"):
        match = LUA_MESSAGE.fullmatch(line)
        assert match, f"{LUA.name}: not a message line: {line!r}"
        assert match.group("name") == upper_snake(match.group("method")), line
        assert match.group("method") not in lua, f"{match.group('method')} is listed twice"
        lua[match.group("method")] = (match.group("direction"), match.group("kind"))
    assert lua == doc_messages()


def test_lua_features_match() -> None:
    assert lua_strings("features") == table_column("features")


def test_lua_commands_match() -> None:
    assert lua_strings("commands") == table_column("commands")


def test_lua_permission_kinds_are_the_documented_ones() -> None:
    block = section("messages").split("### `acp/requestPermission`", 1)[1].split("### ", 1)[0]
    documented = re.search(r"by `kind`: (.*?), or a custom", block, re.S)
    assert documented, "the acp/requestPermission section no longer lists the option kinds"
    assert lua_strings("permission_kinds") == re.findall(r"`(\w+)`", documented.group(1))


# -- the TypeScript mirror (vscode-extension/src/protocol.ts) ------------------------------------
#
# Read without a TypeScript parser, in the format protocol.ts documents at its top: between the
# comment lines `// <name>` and `// </name>` every line that is not blank or a comment is one entry:
#   messages: `export const NAME = new RequestType<P, R, void>("acp/x");` (or NotificationType<P>),
#             NAME being the method in UPPER_SNAKE_CASE and the class giving the kind;
#   table:    `  "acp/x": { direction: "editor → server", kind: "request" },`;
#   features, zero_plugin_commands, permission_kinds: `  "name",`.
# A line in a section that fits none of these fails the test instead of being skipped.

TS_PROTOCOL = DOC.parents[1] / "vscode-extension" / "src" / "protocol.ts"
TS_CONSTANT = re.compile(
    r"export const (?P<name>[A-Z_]+) = new (?P<cls>RequestType|NotificationType)<[^>]*>"
    r'\("(?P<method>acp/\w+)"\);'
)
TS_TABLE_ROW = re.compile(
    r'  "(?P<method>acp/\w+)": \{ direction: "(?P<direction>[^"]+)", '
    r'kind: "(?P<kind>request|notification)" \},'
)
TS_STRING = re.compile(r'  "(?P<value>[^"]+)",')


def ts_section(name: str) -> list[str]:
    text = TS_PROTOCOL.read_text(encoding="utf-8")
    match = re.search(rf"^\s*// <{name}>\n(.*?)^\s*// </{name}>$", text, re.S | re.M)
    assert match, f"{TS_PROTOCOL.name} has no // <{name}> section"
    lines = [line for line in match.group(1).splitlines() if line.strip()]
    return [line for line in lines if not line.strip().startswith("//")]


def ts_strings(name: str) -> list[str]:
    values = []
    for line in ts_section(name):
        match = TS_STRING.fullmatch(line)
        assert match, f'{TS_PROTOCOL.name} <{name}>: not a `  "name",` line: {line!r}'
        values.append(match.group("value"))
    return values


def ts_upper_snake(method: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", method.removeprefix("acp/")).upper()


def test_every_message_in_the_doc_is_a_typescript_constant_of_its_kind() -> None:
    constants = {}
    for line in ts_section("messages"):
        match = TS_CONSTANT.fullmatch(line)
        assert match, f"{TS_PROTOCOL.name}: not a message constant line: {line!r}"
        assert match.group("name") == ts_upper_snake(match.group("method")), line
        assert match.group("method") not in constants, f"{match.group('method')} is declared twice"
        kind = "request" if match.group("cls") == "RequestType" else "notification"
        constants[match.group("method")] = kind
    assert constants == {method: kind for method, (_, kind) in doc_messages().items()}


def test_every_message_in_the_doc_is_in_the_typescript_table_and_back() -> None:
    table = {}
    for line in ts_section("table"):
        match = TS_TABLE_ROW.fullmatch(line)
        assert match, f"{TS_PROTOCOL.name}: not a table row: {line!r}"
        assert match.group("method") not in table, f"{match.group('method')} is listed twice"
        table[match.group("method")] = (match.group("direction"), match.group("kind"))
    assert table == doc_messages()


def test_typescript_features_and_commands_match() -> None:
    assert ts_strings("features") == table_column("features")
    assert ts_strings("zero_plugin_commands") == table_column("commands")


def test_typescript_permission_kinds_are_the_documented_ones() -> None:
    block = section("messages").split("### `acp/requestPermission`", 1)[1].split("### ", 1)[0]
    documented = re.search(r"by `kind`: (.*?), or a custom", block, re.S)
    assert documented, "the acp/requestPermission section no longer lists the option kinds"
    assert ts_strings("permission_kinds") == re.findall(r"`(\w+)`", documented.group(1))
