"""The command an agent runs with, for each kind of distribution."""

from __future__ import annotations

import pytest

from acp_editor.registry.entries import parse_agent
from acp_editor.registry.install import InstallError, command_for, how_it_runs


def test_the_command_prefers_npx_then_uvx_and_says_what_is_missing() -> None:
    agent = parse_agent(
        {"id": "both", "name": "Both", "version": "1.2.3", "description": "d",
         "distribution": {"npx": {"package": "@x/agent@1.2.3", "args": ["--acp"]},
                          "uvx": {"package": "x-agent", "env": {"X": "1"}}}}
    )  # fmt: skip
    with_npx = command_for(agent, which=lambda tool: f"/usr/bin/{tool}")
    assert (with_npx.argv, with_npx.how) == (["npx", "-y", "@x/agent@1.2.3", "--acp"], "npx")
    only_uv = command_for(agent, which=lambda tool: "/bin/uvx" if tool == "uvx" else None)
    assert (only_uv.argv, only_uv.env) == (["uvx", "x-agent"], {"X": "1"})
    with pytest.raises(InstallError, match=r"npx \(install Node.js\) or uvx"):
        command_for(agent, which=lambda tool: None)
    assert how_it_runs(agent, which=lambda tool: None).startswith("needs npx")
