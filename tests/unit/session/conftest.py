"""A harness that drives a `SessionState` and, beside it, an editor-style mirror.

Every call goes through `Harness._track`, which sends the returned changes through JSON (as an
editor would receive them), applies them to a mirror that started from `empty_snapshot`, and
checks the mirror against `snapshot()`. So every test in this folder also checks the core
invariant without saying so.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from acp_editor.session import SessionState, apply_change, empty_snapshot


class Harness:
    def __init__(self, protocol_version: int = 1, session_id: str = "sess_abc123def456") -> None:
        self.state = SessionState(session_id, protocol_version)
        self.mirror = empty_snapshot(session_id, protocol_version)

    def _track(self, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        wire = json.loads(json.dumps(changes))
        assert wire == changes
        for change in wire:
            apply_change(self.mirror, change)
        snapshot = self.state.snapshot()
        assert json.dumps(self.mirror) == json.dumps(snapshot)
        return changes

    def update(self, update: dict[str, Any]) -> list[dict[str, Any]]:
        return self._track(self.state.apply_update(update))

    def updates(self, *updates: dict[str, Any]) -> list[dict[str, Any]]:
        return [change for update in updates for change in self.update(update)]

    def permission(self, tool_call: dict[str, Any]) -> list[dict[str, Any]]:
        return self._track(self.state.apply_permission_tool_call(tool_call))

    def prompt(self, blocks: list[dict[str, Any]], *, queued: bool = False) -> list[dict[str, Any]]:
        return self._track(self.state.add_user_prompt(blocks, queued=queued))

    def set_modes(self, modes: dict[str, Any] | None) -> list[dict[str, Any]]:
        return self._track(self.state.set_modes(modes))

    def set_config_options(self, options: list[Any] | None) -> list[dict[str, Any]]:
        return self._track(self.state.set_config_options(options))

    def set_current_mode(self, mode_id: str) -> list[dict[str, Any]]:
        return self._track(self.state.set_current_mode(mode_id))

    def cancel(self) -> list[dict[str, Any]]:
        return self._track(self.state.mark_unfinished_cancelled())

    @property
    def snap(self) -> dict[str, Any]:
        return self.state.snapshot()

    def entries(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.state.snapshot()["entries"]
        return entries


@pytest.fixture
def h1() -> Harness:
    """A session negotiated at protocol 1 (``null`` in a tool-call update means unchanged)."""
    return Harness(1)


@pytest.fixture
def h2() -> Harness:
    """A session negotiated at protocol 2 (``null`` in a tool-call update clears)."""
    return Harness(2)


@pytest.fixture(params=[1, 2], ids=["v1", "v2"])
def h(request: pytest.FixtureRequest) -> Harness:
    """Both versions, for rules that do not depend on the version."""
    return Harness(request.param)
