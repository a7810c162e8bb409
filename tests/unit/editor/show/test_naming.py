"""Naming the session and agent in a plain editor's messages: nothing while one session is
live, its title (else a short id) and its agent's name while several are, a subagent's by its
top session, two agents of one name told apart by id. Against fake agents, as assembled."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.build import EditorSide, assemble
from acp_editor.editor.show.naming import short_id
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.presets import Preset
from tests.support.fake_agent import FakeAgents
from tests.support.fake_editor import FakeChannel


@pytest.fixture
async def side(tmp_path: Path) -> AsyncIterator[EditorSide]:
    options = ServerOptions(
        agent=AgentConfig(command=["claude-acp"], name="claude", review_mode="off"),
        server_cwd=str(tmp_path),
        presets={"codex": Preset("codex", ["codex-acp"], {})},
    )
    editor = FakeChannel()
    side = assemble(editor, options, FakeAgents(), lambda: str(tmp_path))
    yield side
    await side.close()
    await editor.settle()


async def test_one_session_is_not_named_several_are_by_title_else_short_id(
    side: EditorSide,
) -> None:
    names = side.frontend.names
    assert names is not None
    first = await side.agents.new_session()
    assert names.label(first) is None  # one session: the messages stay short
    second = await side.agents.new_session()
    assert names.label(first) == f"session {first} (fake-agent)"
    side.slot.add_update(second, {"sessionUpdate": "session_info_update", "title": "Fix it"})
    assert names.label(second) == "session “Fix it” (fake-agent)"


async def test_two_agents_of_one_name_are_told_apart_by_id(side: EditorSide) -> None:
    names = side.frontend.names
    assert names is not None
    ours = await side.agents.new_session()
    theirs = await side.agents.new_session(agent_id="codex")
    assert names.label(ours) == f"session {ours} (fake-agent [claude])"
    assert names.label(theirs) == f"session {theirs} (fake-agent [codex])"


async def test_a_subagents_session_is_named_by_its_top_session(side: EditorSide) -> None:
    names = side.frontend.names
    assert names is not None
    parent = await side.agents.new_session()
    await side.agents.new_session()
    side.frontend.lineage.seen("child", parent)
    assert names.label("child") == f"session {parent} (fake-agent)"


def test_a_short_id_grows_until_it_tells_two_ids_apart() -> None:
    assert short_id("demo_1234abcd5678", ["demo_1234abcd5678"]) == "demo_123"
    assert short_id("demo_1234abcd5678", ["demo_1234abcd5678", "demo_1239"]) == "demo_1234abc"
    assert short_id("claude-s1", ["claude-s1", "claude-s2"]) == "claude-s1"  # short: whole
