"""The plugin's session mirror (lua/acp_editor/session/reducer.lua) replays the change streams
recorded from the Python state (tests/fixtures/reducer/, by scripts/reducer_fixtures.py; the
TypeScript mirror replays them too) and ends equal to the server's snapshot: one recording,
three implementations. The changes arrive as the plugin gets them, one ``acp/sessionChanged``
each naming the session's agent (acp_editor.session.sync), so the mirror knows its agent from
the notifications alone, as the server's snapshot names it (issue 28)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.nvim.plugin_driver import PluginEditor, plugin_editor

FIXTURES = Path(__file__).parents[2] / "tests" / "fixtures" / "reducer"

AGENT = "demo"  # the session's agent, as every acp/sessionChanged names it

REPLAY = """
local text, agent = ...
local fixture = vim.json.decode(text, { luanil = { object = true, array = true } })
local store, sync = require("acp_editor.store"), require("acp_editor.session.sync")
store.reset()
store.agents[agent] = { agent = agent, state = "ready", protocolVersion = fixture.protocolVersion }
local resync, missed = sync.resync, nil
sync.resync = function() missed = "a change did not apply" end -- no sidecar here to ask
for _, change in ipairs(fixture.changes) do
  sync.on_changed(nil, { sessionId = fixture.sessionId, agent = agent, changes = { change } })
end
sync.resync = resync
local snap = store.sessions[fixture.sessionId]
return { ok = missed == nil, err = missed, snapshot = vim.json.encode(snap) }
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
    done = nv.lua(REPLAY, json.dumps(fixture), AGENT)
    assert done["ok"], done["err"]
    mirror = json.loads(done["snapshot"])
    # The recording is the session state's own snapshot; the server adds the agent to it.
    server = {**fixture["snapshot"], "agent": AGENT}
    expected = {k: v for k, v in server.items() if v is not None}  # nil in Lua
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
