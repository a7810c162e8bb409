"""Agent presets from the TOML file: named, default, with their mode and MCP servers, and what a
bad file says."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.presets import PresetError, resolve

PRESETS = """
[agents.claude]
command = ["npx", "@zed-industries/claude-code-acp"]
env = { ANTHROPIC_API_KEY = "k" }

[agents.gemini]
command = "gemini"
default = true
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "agents.toml"
    path.write_text(PRESETS, encoding="utf-8")
    return path


def test_named_preset(config: Path) -> None:
    preset = resolve("claude", config)
    assert preset is not None
    assert preset.command == ["npx", "@zed-industries/claude-code-acp"]
    assert preset.env == {"ANTHROPIC_API_KEY": "k"}


def test_default_preset_and_a_plain_string_command(config: Path) -> None:
    preset = resolve(None, config)
    assert preset is not None and preset.command == ["gemini"]


def test_missing_file_means_no_presets(tmp_path: Path) -> None:
    assert resolve(None, tmp_path / "none.toml") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[agents.x]\ncommand = []\n", "agents.x.command must be a non-empty list"),
        (
            "[agents.x]\ncommand = ['a']\nenv = { A = 1 }\n",
            "agents.x.env must be a table of strings",
        ),
        ("agents = 3\n", "must be a table"),
        ("not toml ===", "cannot read agent presets"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PresetError, match=message):
        resolve(None, path)


def test_unknown_preset_lists_the_known_ones(config: Path) -> None:
    with pytest.raises(PresetError, match=r"no agent preset named 'x'.*claude, gemini"):
        resolve("x", config)


def test_a_preset_names_the_mode_sessions_start_in(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text('[agents.claude]\ncommand = ["claude"]\nmode = "default"\n', encoding="utf-8")
    preset = resolve("claude", path)
    assert preset is not None and preset.mode == "default"
    path.write_text('[agents.claude]\ncommand = ["claude"]\nmode = 3\n', encoding="utf-8")
    with pytest.raises(PresetError, match="mode must be a string"):
        resolve("claude", path)


def test_a_preset_brings_its_own_mcp_servers(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(
        '[agents.claude]\ncommand = ["claude"]\n'
        'mcp_servers = [{ name = "docs", command = "docs-mcp", env = { K = "v" } }]\n',
        encoding="utf-8",
    )
    preset = resolve("claude", path)
    assert preset is not None
    assert preset.mcp_servers == [
        {"name": "docs", "command": "docs-mcp", "args": [], "env": [{"name": "K", "value": "v"}]}
    ]
    path.write_text('[agents.claude]\ncommand = ["c"]\nmcp_servers = [{ name = "x" }]\n')
    with pytest.raises(PresetError, match="mcp_servers: x: a stdio server needs a command"):
        resolve("claude", path)


def test_a_preset_says_where_its_agent_sees_the_editor_s_folders(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(
        '[agents.boxed]\ncommand = ["bwrap"]\nmap_paths = ["/workspace=/home/me/project"]\n',
        encoding="utf-8",
    )
    preset = resolve("boxed", path)
    assert preset is not None and preset.map_paths == ["/workspace=/home/me/project"]
    path.write_text('[agents.boxed]\ncommand = ["b"]\nmap_paths = ["/workspace"]\n')
    with pytest.raises(PresetError, match=r"agents\.boxed\.map_paths: .*AGENT_PATH=EDITOR_PATH"):
        resolve("boxed", path)


def test_a_preset_s_command_prefix_is_a_list_of_strings(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text('[agents.c]\ncommand = ["a"]\ncommand_prefix = ["ssh", "host"]\n')
    preset = resolve("c", path)
    assert preset is not None and preset.command_prefix == ["ssh", "host"]
    path.write_text('[agents.c]\ncommand = ["a"]\ncommand_prefix = "ssh host"\n')
    with pytest.raises(PresetError, match="command_prefix must be a non-empty list"):
        resolve("c", path)
