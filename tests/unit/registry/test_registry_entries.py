"""Registry entries read from the real registry's (old) snapshot, and broken ones skipped; the
command an agent runs with, for each kind of distribution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_editor.registry.entries import parse_agent, parse_registry
from acp_editor.registry.install import InstallError, command_for, how_it_runs

SNAPSHOT = Path(__file__).resolve().parents[3].parent / "shared" / "acp-registry" / "agents"


def snapshot_entries() -> list[dict[str, object]]:
    if not SNAPSHOT.is_dir():
        pytest.skip(f"no registry snapshot at {SNAPSHOT}")
    return [json.loads(p.read_text()) for p in sorted(SNAPSHOT.glob("*/agent.json"))]


def test_every_entry_of_the_snapshot_is_read() -> None:
    entries = snapshot_entries()
    agents, problems = parse_registry({"version": "1.0.0", "agents": entries})
    assert problems == [] and len(agents) == len(entries) >= 10
    gemini = next(a for a in agents if a.id == "gemini")
    assert gemini.npx is not None and gemini.npx.args == ["--experimental-acp"]
    assert any(a.binary for a in agents)  # some ship binaries per platform


def test_broken_entries_are_skipped_with_the_reason_and_the_rest_kept() -> None:
    good = {"id": "ok", "name": "OK", "version": "1.0.0", "description": "d",
            "distribution": {"uvx": {"package": "ok-agent"}}}  # fmt: skip
    agents, problems = parse_registry(
        {"agents": [good, {"id": "Bad Id"}, "text", {**good, "id": "nodist", "distribution": {}}]}
    )
    assert [a.id for a in agents] == ["ok"]
    assert len(problems) == 3 and "entry 1 (Bad Id)" in problems[0]
    with pytest.raises(ValueError, match="not an ACP registry"):
        parse_registry({"nothing": []})


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
