"""The official schema (1.25, with its unstable part: the opt-in updates, subagents, auth/status)
and in-memory wires to the demo agent (see ``wire``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.npm import acp_schema_path, npm_skip_reason
from tests.support.schema import AcpSchema
from tests.unit.demo_agent.wire import HELLO, Wire


@pytest.fixture(scope="session")
def unstable_schema() -> AcpSchema:
    reason = npm_skip_reason()
    if reason is not None:
        pytest.skip(reason)
    return AcpSchema(acp_schema_path("schema.unstable.json"))


@pytest.fixture
async def wires(unstable_schema: AcpSchema, tmp_path: Path) -> AsyncIterator[Callable[..., Wire]]:
    """``wires(**agent_options)``: a wire to a new agent working in ``tmp_path`` (which holds
    ``hello.py``); every message each agent sent is checked against the schema at the end."""
    made: list[Wire] = []
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")

    def make(**agent: Any) -> Wire:
        wire = Wire(unstable_schema, tmp_path, **agent)
        made.append(wire)
        return wire

    yield make
    for wire in made:
        await wire.close()
    for wire in made:
        assert wire.checker.problems == [], "the agent sent messages the schema does not allow"
