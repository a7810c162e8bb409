"""An agent's command run where the agent is: the prefix, then one shell line that enters the
agent's path of the folder, sets what the agent asked for, and runs the command."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.services.path_map import PathMap
from acp_editor.services.terminals import Elsewhere

PAIRS = PathMap.parse(["/workspace=/home/me/my project"])
SSH = Elsewhere(["ssh", "host"], PAIRS.to_agent)


def test_a_program_and_its_arguments_are_quoted_into_the_line() -> None:
    argv = SSH.argv(["grep", "-n", "a b", "x.py"], False, {}, "/home/me/my project/src")
    assert argv == ["ssh", "host", "cd /workspace/src && grep -n 'a b' x.py"]


def test_a_whole_command_line_goes_as_the_agent_wrote_it_with_its_variables() -> None:
    argv = SSH.argv(
        ["/bin/sh", "-c", "make && ls | wc -l"], True, {"CI": "1 2"}, "/home/me/my project"
    )
    assert argv == ["ssh", "host", "cd /workspace && export CI='1 2' && make && ls | wc -l"]


def test_a_folder_with_no_path_where_the_agent_is_is_refused() -> None:
    with pytest.raises(InvalidParams, match="no path where the agent runs"):
        SSH.argv(["ls"], False, {}, "/home/me/elsewhere")
