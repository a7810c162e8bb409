"""``clientCapabilities`` read by the schema's rules: an object opt-in counts when present and not
null (``{}`` is enough), a boolean one only when ``true``; anything malformed is not offered."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.demo_agent.turn.capabilities import ClientCaps, read_caps

EVERYTHING = {
    "fs": {"readTextFile": True, "writeTextFile": True},
    "terminal": True,
    "elicitation": {"form": {}, "url": {}},
    "session": {"notices": {}, "compaction": {}, "configOptions": {"boolean": {}}},
    "plan": {},
    "subagents": {},
    "auth": {"terminal": True},
}


def test_every_opt_in_is_read() -> None:
    assert read_caps(EVERYTHING) == ClientCaps(
        read=True,
        write=True,
        terminal=True,
        elicitation=("form", "url"),
        notices=True,
        compaction=True,
        boolean_config=True,
        plans=True,
        subagents=True,
        terminal_auth=True,
    )


@pytest.mark.parametrize("caps", [None, [], "all", {}, {"session": None, "auth": None}])
def test_nothing_offered_is_nothing(caps: Any) -> None:
    assert read_caps(caps) == ClientCaps()


@pytest.mark.parametrize(
    "caps",
    [
        {"session": {"notices": None, "compaction": True, "configOptions": {"boolean": None}}},
        {"session": {"configOptions": {"boolean": True}}, "plan": None, "subagents": True},
        {"auth": {"terminal": {}}, "elicitation": {"form": None}},  # v1's auth.terminal: a bool
        {"auth": {"terminal": "true"}, "fs": {"readTextFile": 1}, "terminal": "yes"},
    ],
)
def test_null_and_the_wrong_kind_of_value_are_not_offers(caps: dict[str, Any]) -> None:
    assert read_caps(caps) == ClientCaps()
