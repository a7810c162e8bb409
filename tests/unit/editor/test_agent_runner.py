"""Several agents behind one editor, against fake agents: each started when a session first asks
for it, with its own status; requests routed to the session's agent; one crash costs only its
own agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.build import EditorSide, assemble
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.errors import InvalidParams
from acp_editor.presets import Preset
from acp_editor.protocol import editor as proto
from tests.support.fake_agent import FakeAgent, FakeAgents
from tests.support.fake_editor import FakeChannel


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[EditorSide, FakeAgents, FakeChannel]]:
    editor = FakeChannel(ClientFeatures(rich={proto.FEATURE_STREAM}))
    agents = FakeAgents()
    options = ServerOptions(
        agent=AgentConfig(command=["claude-acp"], name="claude", review_mode="off"),
        server_cwd=str(tmp_path),
        presets={"codex": Preset("codex", ["codex-acp"], {"CODEX_HOME": "/x"}, mode="auto")},
    )
    side = assemble(editor, options, agents, lambda: str(tmp_path))
    yield side, agents, editor
    await side.close()
    await editor.settle()


def started(agents: FakeAgents, name: str) -> FakeAgent:
    (agent,) = [a for a in agents.started if a.config.name == name]
    return agent


async def test_a_session_of_another_agent_starts_that_agent_with_its_presets_settings(
    two: tuple[EditorSide, FakeAgents, FakeChannel],
) -> None:
    side, agents, editor = two
    assert [(i["id"], i["default"], i["status"]) for i in side.agents.agents_info()] == [
        ("claude", True, None),
        ("codex", False, None),
    ]
    mine = await side.agents.new_session()
    theirs = await side.agents.new_session(agent_id="codex")
    codex = started(agents, "codex")
    assert codex.config.command == ["codex-acp"] and codex.config.env == {"CODEX_HOME": "/x"}
    assert codex.config.initial_mode == "auto" and codex.config.review_mode == "off"
    assert side.agents.session_agents() == {mine: "claude", theirs: "codex"}
    assert side.agents.current_session == theirs
    assert [(s["sessionId"], s["agent"]) for s in side.agents.snapshots()] == [
        (mine, "claude"),
        (theirs, "codex"),
    ]
    statuses = [(n["agent"], n["state"]) for n in editor.notes_of(proto.ACP_AGENT_STATUS)]
    assert statuses == [
        ("claude", "starting"),
        ("claude", "ready"),
        ("codex", "starting"),
        ("codex", "ready"),
    ]
    assert [i["status"]["state"] for i in side.agents.agents_info()] == ["ready", "ready"]


async def test_requests_go_to_the_agent_of_the_session_they_name(
    two: tuple[EditorSide, FakeAgents, FakeChannel],
) -> None:
    side, agents, _ = two
    mine = await side.agents.new_session()
    theirs = await side.agents.new_session(agent_id="codex")
    claude, codex = started(agents, "claude"), started(agents, "codex")
    await side.agents.prompt([{"type": "text", "text": "to claude"}], mine)
    await side.agents.set_mode("auto", theirs)
    await side.agents.select_session(mine)
    await side.agents.prompt([{"type": "text", "text": "to the current one"}])
    assert [c for c in claude.calls if c[0] == "prompt"] == [
        ("prompt", [{"type": "text", "text": "to claude"}]),
        ("prompt", [{"type": "text", "text": "to the current one"}]),
    ]
    assert ("set_mode", (theirs, "auto")) in codex.calls
    assert not any(c[0] == "set_mode" for c in claude.calls)
    assert not any(c[0] == "prompt" for c in codex.calls)
    assert side.agents.status().current["agent"] == "claude"


async def test_an_unknown_agent_is_refused_with_the_ones_there_are(
    two: tuple[EditorSide, FakeAgents, FakeChannel],
) -> None:
    side, agents, _ = two
    with pytest.raises(InvalidParams, match=r"unknown agent: 'gemini' \(agents: claude, codex\)"):
        await side.agents.new_session(agent_id="gemini")
    assert agents.started == []


async def test_one_agents_crash_leaves_the_other_and_its_session_comes_back(
    two: tuple[EditorSide, FakeAgents, FakeChannel],
) -> None:
    side, agents, _ = two
    mine = await side.agents.new_session()
    theirs = await side.agents.new_session(agent_id="codex")
    started(agents, "codex").crash()
    infos = {i["id"]: i["status"]["state"] for i in side.agents.agents_info()}
    assert infos == {"claude": "ready", "codex": "failed"}
    assert await side.agents.session_id(mine) == mine  # nothing restarted for claude
    assert len(agents.started) == 2
    assert await side.agents.session_id(theirs) == theirs  # codex again, the session loaded
    restarted = agents.started[-1]
    assert restarted.config.name == "codex" and ("load", theirs) in restarted.calls
    assert side.agents.current_session == theirs


async def test_close_shuts_every_agent_down(
    two: tuple[EditorSide, FakeAgents, FakeChannel],
) -> None:
    side, agents, _ = two
    await side.agents.new_session()
    await side.agents.new_session(agent_id="codex")
    await side.close()
    assert [a.calls[-1] for a in agents.started] == [("shutdown", None)] * 2
