"""What the tests of schema 1.25 with the real current agents share (issue 34): the agent runs
behind ``acp_tap`` so that every message the sidecar sends it is checked, after the test,
against the official ACP schema (stable, else unstable: the pinned SDK's, schema 1.25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.agents.acp_tap import read_log, tapped, traffic_problems
from tests.support.lsp import Editor
from tests.support.npm import acp_schema_path
from tests.support.schema import AcpSchema, ClientTrafficChecker

__all__ = ["Tap", "read_log", "schemas"]


@pytest.fixture(scope="session")
def schemas() -> tuple[AcpSchema, AcpSchema]:
    return AcpSchema(acp_schema_path()), AcpSchema(acp_schema_path("schema.unstable.json"))


class Tap:
    """One agent's traffic, logged by ``acp_tap``."""

    def __init__(self, log: Path, schemas: tuple[AcpSchema, AcpSchema]) -> None:
        self.log = log
        self.schemas = schemas

    def wrap(self, argv: list[str]) -> list[str]:
        return tapped(self.log, argv)

    def sent(self, method: str) -> list[Any]:
        """The params of every ``method`` the sidecar sent the agent."""
        return [
            m.get("params")
            for d, m in read_log(self.log)
            if d == "send" and m.get("method") == method
        ]

    def received(self, method: str) -> list[Any]:
        """The params of every ``method`` the agent sent the sidecar."""
        return [
            m.get("params")
            for d, m in read_log(self.log)
            if d == "recv" and m.get("method") == method
        ]

    def updates(self, kind: str) -> list[dict[str, Any]]:
        """Every ``session/update`` of ``sessionUpdate: kind`` the agent sent, with the session
        it was sent for as ``on``."""
        return [
            {**p["update"], "on": p.get("sessionId")}
            for p in self.received("session/update")
            if isinstance(p, dict) and p.get("update", {}).get("sessionUpdate") == kind
        ]

    def check(self) -> int:
        """Assert the sidecar sent only schema-valid messages; how many it sent."""
        checker = ClientTrafficChecker(*self.schemas)
        checked, problems = traffic_problems(self.log, checker)
        assert problems == [], problems
        assert checked > 0, f"nothing was logged in {self.log}"
        return checked


def statuses_auth(editor: Editor) -> list[dict[str, Any]]:
    """Each distinct ``AgentStatus.auth`` the editor was told, in order."""
    seen: list[dict[str, Any]] = []
    for status in editor.of("acp/agentStatus"):
        auth = status.get("auth")
        if auth is not None and (not seen or seen[-1] != auth):
            seen.append(auth)
    return seen
