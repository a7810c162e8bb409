"""The editor side as ``editor.build.assemble`` makes it, around a fake editor and fake agents."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.build import EditorSide, assemble
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.supervisor import ServerOptions
from tests.support.fake_agent import FakeAgents, Script
from tests.support.fake_editor import FakeChannel


@dataclass
class Rig:
    editor: FakeChannel
    agents: FakeAgents
    side: EditorSide
    root: Path


MakeRig = Callable[..., Rig]


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[MakeRig]:
    made: list[Rig] = []

    def make(*features: str, script: Script | None = None, **caps: bool) -> Rig:
        editor = FakeChannel(ClientFeatures(rich=set(features), **caps))
        agents = FakeAgents(script)
        options = ServerOptions(agent=AgentConfig(command=["fake-agent"]), server_cwd=str(tmp_path))
        side = assemble(editor, options, agents, lambda: str(tmp_path))
        made.append(Rig(editor, agents, side, tmp_path))
        return made[-1]

    yield make
    for each in made:
        await each.side.close()
        await each.editor.settle()
