"""The command line: which arguments are ours and which start the agent."""

from __future__ import annotations

import pytest

from acp_editor.cli import build_parser, path_map, split_agent
from acp_editor.presets import Preset


@pytest.mark.parametrize(
    ("argv", "own", "agent"),
    [
        (["--stdio", "--", "agent", "--flag"], ["--stdio"], ["agent", "--flag"]),
        (["--stdio"], ["--stdio"], []),
        (["demo", "--", "a", "--", "b"], ["demo"], ["a", "--", "b"]),
    ],
)
def test_the_agent_command_is_everything_after_the_first_double_dash(
    argv: list[str], own: list[str], agent: list[str]
) -> None:
    assert split_agent(argv) == (own, agent)


def test_map_path_adds_to_the_preset_s_pairs_and_a_bad_one_stops_the_start() -> None:
    parser = build_parser()
    none = parser.parse_args(["--stdio"])
    assert path_map(Preset("x", ["a"]), none) is None
    args = parser.parse_args(["--stdio", "--map-path", "/w=/home/me/project"])
    paths = path_map(Preset("x", ["a"], map_paths=["/v=/srv/v"]), args)
    assert paths is not None and paths.describe() == "/v=/srv/v, /w=/home/me/project"
    bad = parser.parse_args(["--stdio", "--map-path", "/workspace"])
    with pytest.raises(SystemExit, match="AGENT_PATH=EDITOR_PATH"):
        path_map(Preset("x", ["a"]), bad)
