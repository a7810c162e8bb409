"""The command line: which arguments are ours and which start the agent."""

from __future__ import annotations

import pytest

from acp_editor.cli import split_agent


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
