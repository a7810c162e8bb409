"""The official schema (1.25, with its unstable part: the opt-in updates, subagents, auth/status;
and v2's) and in-memory wires to the demo agent (see ``wire``)."""

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


@pytest.fixture(scope="session")
def v2_schema() -> AcpSchema:
    reason = npm_skip_reason()
    if reason is not None:
        pytest.skip(reason)
    return AcpSchema(acp_schema_path(version=2))


@pytest.fixture
async def wires(unstable_schema: AcpSchema, tmp_path: Path) -> AsyncIterator[Callable[..., Wire]]:
    """``wires(**agent_options)``: a wire to a new agent working in ``tmp_path`` (which holds
    ``hello.py``); every message each agent sent is checked against the schema at the end."""
    async for make in _wires(unstable_schema, tmp_path):
        yield make


@pytest.fixture
async def v2_wires(v2_schema: AcpSchema, tmp_path: Path) -> AsyncIterator[Callable[..., Wire]]:
    """``wires``, for agents spoken to in ACP v2 (``Wire.start_v2``): checked against v2's,
    but for one known gap: the demo's config options name their id ``id``, as v1 does, where
    v2 says ``configId`` (since the August draft; the sidecar and the editors read ``id``)."""
    async for make in _wires(v2_schema, tmp_path, known=CONFIG_ID_GAP):
        yield make


CONFIG_ID_GAP = "'configId' is a required property at ['configOptions'"


async def _wires(
    schema: AcpSchema, tmp_path: Path, known: str | None = None
) -> AsyncIterator[Callable[..., Wire]]:
    made: list[Wire] = []
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")

    def make(**agent: Any) -> Wire:
        wire = Wire(schema, tmp_path, **agent)
        made.append(wire)
        return wire

    yield make
    for wire in made:
        await wire.close()
    for wire in made:
        problems = [p for p in wire.checker.problems if known is None or known not in p]
        assert problems == [], "the agent sent messages the schema does not allow"
