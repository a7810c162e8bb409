"""Paths rewritten both ways across the ACP link, and what no pair holds reported."""

from __future__ import annotations

import pytest

from acp_editor.services.path_map import MappingError, PathMap

MAP = PathMap.parse(["/workspace=/home/me/project", "/workspace/vendor=/srv/vendor"])


def test_a_path_below_a_pair_is_swapped_and_the_longest_pair_wins() -> None:
    assert MAP.to_editor("/workspace/src/a.py") == "/home/me/project/src/a.py"
    assert MAP.to_editor("/workspace") == "/home/me/project"
    assert MAP.to_editor("/workspace/vendor/lib.py") == "/srv/vendor/lib.py"
    assert MAP.to_agent("/home/me/project/src/a.py") == "/workspace/src/a.py"
    assert MAP.to_agent("/srv/vendor/lib.py") == "/workspace/vendor/lib.py"


def test_a_path_outside_every_pair_is_none_and_a_prefix_is_not_a_folder() -> None:
    assert MAP.to_editor("/workspace2/a.py") is None
    assert MAP.to_editor("/etc/passwd") is None
    assert MAP.to_agent("/home/me/project-old/a.py") is None
    assert MAP.to_editor("src/a.py") == "src/a.py"  # relative: the same on both sides


def test_every_path_of_a_message_is_rewritten_wherever_it_is() -> None:
    update = {
        "sessionId": "s1",
        "update": {
            "sessionUpdate": "tool_call",
            "locations": [{"path": "/workspace/a.py", "line": 3}],
            "content": [{"type": "diff", "path": "/workspace/b.py", "newText": "/workspace/x"}],
            "rawInput": {"path": "/workspace/c.py", "command": "cat /workspace/c.py"},
            "_meta": {"terminal": {"cwd": "/workspace/sub"}},
        },
    }
    mapped = MAP.inbound(update)
    got = mapped.value["update"]
    assert got["locations"] == [{"path": "/home/me/project/a.py", "line": 3}]
    assert got["content"][0]["path"] == "/home/me/project/b.py"
    assert got["content"][0]["newText"] == "/workspace/x"  # text is the agent's, not a path
    assert got["rawInput"] == {"path": "/home/me/project/c.py", "command": "cat /workspace/c.py"}
    assert got["_meta"]["terminal"]["cwd"] == "/home/me/project/sub"
    assert mapped.unmapped == []
    assert update["update"]["locations"][0]["path"] == "/workspace/a.py"  # a copy: not changed


def test_a_session_s_folders_and_file_uris_go_to_the_agent_s_paths() -> None:
    request = {
        "cwd": "/home/me/project",
        "additionalDirectories": ["/srv/vendor", "/opt/elsewhere"],
        "prompt": [{"type": "resource_link", "uri": "file:///home/me/project/my%20file.py"}],
    }
    mapped = MAP.outbound(request)
    assert mapped.value["cwd"] == "/workspace"
    assert mapped.value["additionalDirectories"] == ["/workspace/vendor", "/opt/elsewhere"]
    assert mapped.value["prompt"][0]["uri"] == "file:///workspace/my%20file.py"
    assert mapped.unmapped == ["/opt/elsewhere"]


def test_a_pair_is_two_absolute_paths() -> None:
    for bad in ["/workspace", "workspace=/home/me", "/workspace=home", ""]:
        with pytest.raises(MappingError, match="AGENT_PATH=EDITOR_PATH"):
            PathMap.parse([bad])
    assert not PathMap.parse([])
    assert MAP.describe() == "/workspace/vendor=/srv/vendor, /workspace=/home/me/project"
