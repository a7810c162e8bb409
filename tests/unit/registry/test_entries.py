"""Registry entries read from the real registry's (old) snapshot, and broken ones skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_editor.registry.entries import parse_registry

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
