"""Fixtures for end-to-end tests: the real client against real agent processes.

Every client started here carries a tracer that validates each message the sidecar sends against
the official ACP schema (from the pinned npm package); a test fails if any did not validate.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.agent.frontend import Frontend
from tests.support.npm import acp_schema_path
from tests.support.recorder import Recorder
from tests.support.schema import AcpSchema, ClientTrafficChecker
from tests.support.starter import SCRIPTED_AGENT, StartClient


@pytest.fixture(scope="session")
def acp_schema() -> AcpSchema:
    return AcpSchema(acp_schema_path())


@pytest.fixture(scope="session")
def acp_v2_schema() -> AcpSchema:
    return AcpSchema(acp_schema_path(version=2))


@pytest.fixture(scope="session")
def acp_unstable_schema() -> AcpSchema:
    return AcpSchema(acp_schema_path("schema.unstable.json"))


@pytest.fixture
async def start_client(
    acp_schema: AcpSchema, acp_unstable_schema: AcpSchema, tmp_path: Path
) -> AsyncIterator[StartClient]:
    """``await start_client(*agent_flags, frontend=..., command=..., **config)``."""
    started: list[tuple[AcpClient, ClientTrafficChecker]] = []

    async def start(
        *flags: str,
        frontend: Frontend | None = None,
        command: list[str] | None = None,
        cwd: Path | None = None,
        **config: Any,
    ) -> AcpClient:
        client = AcpClient(
            AgentConfig(command=(command or SCRIPTED_AGENT) + list(flags), **config),
            frontend or Recorder(),
        )
        checker = ClientTrafficChecker(acp_schema, acp_unstable_schema)
        client.connection.tracers.append(checker)
        started.append((client, checker))
        await client.start(str(cwd or tmp_path))
        return client

    yield start
    for client, _checker in started:
        await client.shutdown()
    for _client, checker in started:
        assert checker.problems == [], "messages the sidecar sent did not validate"
