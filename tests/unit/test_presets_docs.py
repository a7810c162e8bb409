"""docs/agents.md's example of ``agents.toml``, loaded by the real loader: the file a user copies
from the docs works, and means what the docs say of each key."""

from __future__ import annotations

import re
from pathlib import Path

from acp_editor.presets import load_presets, resolve

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def documented_example() -> str:
    found = re.search(
        r"<!-- agents\.toml example[^>]*-->\n```toml\n(.*?)```", DOC.read_text(), re.S
    )
    assert found is not None, "docs/agents.md lost its example"
    return found.group(1)


def test_the_documented_example_loads_and_means_what_the_docs_say(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(documented_example(), encoding="utf-8")
    presets = load_presets(path)
    assert list(presets) == ["claude", "codex", "gemini"]
    claude = resolve(None, path)  # default = true
    assert claude == presets["claude"]
    assert claude is not None and claude.command[0] == "npx" and claude.mode == "default"
    assert claude.env == {"ANTHROPIC_API_KEY": "sk-ant-..."}
    docs, tracker = claude.mcp_servers
    assert docs == {
        "name": "docs",
        "command": "docs-mcp",
        "args": ["--stdio"],
        "env": [{"name": "DOCS_TOKEN", "value": "..."}],  # a table becomes ACP's list
    }
    assert (tracker["type"], tracker["url"]) == ("http", "https://mcp.example.com/mcp")
    assert presets["gemini"].command == ["gemini"]  # a string: the program alone
    assert not presets["codex"].default and presets["codex"].env == {}
