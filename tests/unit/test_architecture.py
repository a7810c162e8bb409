"""The shape of the package, checked: no import cycle, layers that point down, wiring in one
place, short functions (see docs/architecture.md and ``scripts/deps.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _deps() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deps", ROOT / "scripts" / "deps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["deps"] = module
    spec.loader.exec_module(module)
    return module


deps = _deps()
EDGES: dict[str, set[str]] = deps.graph()


def test_the_graph_is_read() -> None:
    # A graph read wrongly would pass every check below: make sure it has the known edges.
    assert "acp_editor.agent.rpc" in EDGES["acp_editor.agent.client"]
    assert "acp_editor.editor.lsp.channel" in EDGES["acp_editor.editor.show.frontend"]


def test_no_import_cycle_even_in_functions_or_type_checking_blocks() -> None:
    assert deps.strongly_connected(EDGES) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert deps.strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert deps.simple_cycles({"a": {"b"}, "b": {"a", "c"}, "c": {"a"}}) == 2


def test_every_import_points_to_its_own_layer_or_below() -> None:
    assert deps.upward(EDGES) == []


def test_no_function_is_longer_than_about_a_screen() -> None:
    assert deps.long_functions() == []


def importers_of(target: str) -> set[str]:
    return {src for src, dsts in EDGES.items() if target in dsts}


def test_the_server_knows_none_of_its_features() -> None:
    features = {
        m for m in EDGES["acp_editor.editor.lsp.server"] if m.startswith("acp_editor.editor.")
    }
    assert features <= {"acp_editor.editor.lsp.channel", "acp_editor.editor.lsp.features"}


@pytest.mark.parametrize(
    ("module", "allowed"),
    [
        # The editor side reaches the agent side through editor.agent_port; only the wiring
        # names the real client.
        ("acp_editor.agent.client", {"acp_editor.editor.build", "acp_editor.demo.run"}),
        ("acp_editor.editor.build", {"acp_editor.cli"}),
        (
            "acp_editor.editor.lsp.server",
            {
                "acp_editor.editor.build",
                "acp_editor.editor.handlers.lifecycle",
                "acp_editor.editor.lsp.lsp_log",
                "acp_editor.cli",
            },
        ),
    ],
)
def test_wiring_lives_in_one_place(module: str, allowed: set[str]) -> None:
    assert importers_of(module) <= allowed


def test_the_agent_side_never_imports_the_editor_side() -> None:
    agent = [m for m in EDGES if m.startswith("acp_editor.agent.")]
    assert all(not d.startswith("acp_editor.editor.") for m in agent for d in EDGES[m])


def test_the_editor_side_sees_review_through_its_owner_only() -> None:
    """Review reaches the editor side as one event and a view (``review.owner``); hunks and
    groups are values it reads. The queue, turns and checkpoints stay review's own."""
    seen = {
        dst
        for src, dsts in EDGES.items()
        if src.startswith("acp_editor.editor.")
        for dst in dsts
        if dst.startswith("acp_editor.review.")
    }
    assert seen <= {"acp_editor.review.owner", "acp_editor.review.hunk", "acp_editor.review.groups"}
    assert "acp_editor.review.owner" in seen  # the check reads the imports it means to


def test_review_is_built_by_its_owner_alone() -> None:
    """One place builds review's parts: the agent side asks the owner for its share."""
    client = {d for d in EDGES["acp_editor.agent.client"] if d.startswith("acp_editor.review.")}
    assert client == {"acp_editor.review.owner"}
    builders = importers_of("acp_editor.review.turns") | importers_of("acp_editor.review.intake")
    assert {m for m in builders if not m.startswith("acp_editor.review.")} == set()
