"""The plugin's session mirror (lua/acp_editor/session/reducer.lua) replays the change streams
recorded from the Python state (tests/fixtures/reducer/, by scripts/reducer_fixtures.py; the
TypeScript mirror replays them too) and ends equal to the server's snapshot: one recording,
three implementations."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.nvim.plugin_driver import PluginEditor, plugin_editor

FIXTURES = Path(__file__).parents[2] / "tests" / "fixtures" / "reducer"

REPLAY = """
local fixture = vim.json.decode(..., { luanil = { object = true, array = true } })
local session = require("acp_editor.session.reducer")
local snap = session.new(fixture.sessionId, fixture.protocolVersion)
local ok, err = session.apply_all(snap, fixture.changes)
return { ok = ok, err = err, snapshot = vim.json.encode(snap) }
"""


@pytest.fixture(scope="module")
def nv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PluginEditor]:
    tmp = tmp_path_factory.mktemp("mirror")
    with (
        pytest.MonkeyPatch.context() as monkeypatch,
        plugin_editor(tmp, tmp, monkeypatch) as editor,
    ):
        yield editor


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_the_lua_mirror_replays_the_recorded_changes(nv: PluginEditor, name: str) -> None:
    fixture = json.loads((FIXTURES / name).read_text())
    done = nv.lua(REPLAY, json.dumps(fixture))
    assert done["ok"], done["err"]
    mirror = json.loads(done["snapshot"])
    expected = {k: v for k, v in fixture["snapshot"].items() if v is not None}  # nil in Lua
    assert _without_nulls(mirror) == _without_nulls(expected)


def _without_nulls(value: object) -> object:
    """JSON null, ``{}`` and ``[]`` all decode to an empty table or nil in Lua: compare without
    telling them apart."""
    if isinstance(value, dict):
        kept = {k: _without_nulls(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v is not None} or None
    if isinstance(value, list):
        return [_without_nulls(v) for v in value] or None
    return value
