"""Named agent presets: ``--agent NAME`` instead of spelling out the command every time.

Presets live in a TOML file, by default ``$XDG_CONFIG_HOME/acp-editor/agents.toml``::

    [agents.claude]
    command = ["npx", "@agentclientprotocol/claude-agent-acp"]
    env = { ANTHROPIC_API_KEY = "..." }
    default = true            # used when neither --agent nor -- AGENT is given
    mode = "default"          # the session mode to start in (the agent's mode ids)
    mcp_servers = [           # your own MCP servers for its sessions (as ACP's McpServer)
      { name = "docs", command = "docs-mcp", args = ["--stdio"] },
    ]
    map_paths = ["/workspace=/home/me/project"]  # an agent that sees the files elsewhere:
                              # AGENT_PATH=EDITOR_PATH pairs (docs/remote.md)
    command_prefix = ["docker", "exec", "-i", "ctr", "sh", "-c"]  # runs its terminals there
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp_editor.protocol import acp


class PresetError(Exception):
    """A preset file that cannot be used, or a preset that does not exist; the message says why."""


@dataclass
class Preset:
    name: str
    command: list[str]
    env: dict[str, str] = field(default_factory=dict)
    default: bool = False
    mode: str | None = None
    """The session mode new sessions start in (one of the agent's mode ids)."""
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    """The user's own MCP servers for this agent's sessions (checked, ACP's shape)."""
    map_paths: list[str] = field(default_factory=list)
    """``AGENT_PATH=EDITOR_PATH`` pairs: where the agent sees the editor's folders (checked)."""
    command_prefix: list[str] | None = None
    """Runs the shell line given as its last argument where the agent is (its terminals)."""


def default_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "acp-editor" / "agents.toml"


def load_presets(path: Path) -> dict[str, Preset]:
    if not path.exists():
        return {}
    import tomllib  # here: most users have no presets file, and editors wait for the start

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PresetError(f"cannot read agent presets from {path}: {exc}") from exc
    agents = data.get("agents", {})
    if not isinstance(agents, dict):
        raise PresetError(f"{path}: [agents] must be a table of presets")
    return {
        name: checked_preset(f"{path}: agents.{name}", name, spec) for name, spec in agents.items()
    }


def checked_preset(where: str, name: str, spec: Any) -> Preset:
    """A preset from its table (a TOML file's, or an editor's setting); ``PresetError`` says
    what is wrong with it, starting with ``where``."""
    if not isinstance(spec, dict):
        raise PresetError(f"{where} must be a table")
    command = spec.get("command")
    if isinstance(command, str):
        command = [command]
    if not isinstance(command, list) or not command or not all(isinstance(c, str) for c in command):
        raise PresetError(f"{where}.command must be a non-empty list of strings")
    env = spec.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise PresetError(f"{where}.env must be a table of strings")
    mode = spec.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise PresetError(f"{where}.mode must be a string (a mode id of the agent)")
    servers = spec.get("mcp_servers", [])
    if not isinstance(servers, list):
        raise PresetError(f"{where}.mcp_servers must be a list of tables")
    checked, problems = acp.mcp_servers_checked(servers)
    if problems:
        raise PresetError(f"{where}.mcp_servers: {'; '.join(problems)}")
    pairs = spec.get("map_paths", [])
    if not isinstance(pairs, list) or not all(isinstance(p, str) for p in pairs):
        raise PresetError(f"{where}.map_paths must be a list of AGENT_PATH=EDITOR_PATH strings")
    from acp_editor.services.path_map import MappingError, PathMap  # rare: not at every start

    try:
        PathMap.parse(pairs)
    except MappingError as exc:
        raise PresetError(f"{where}.map_paths: {exc}") from exc
    prefix = spec.get("command_prefix")
    if prefix is not None and (
        not isinstance(prefix, list) or not prefix or not all(isinstance(p, str) for p in prefix)
    ):
        raise PresetError(f"{where}.command_prefix must be a non-empty list of strings")
    default = spec.get("default") is True
    return Preset(name, list(command), dict(env), default, mode, checked, list(pairs), prefix)


def resolve(name: str | None, path: Path) -> Preset | None:
    """The named preset (an error if unknown), else the default one, else None."""
    presets = load_presets(path)
    if name is not None:
        if name not in presets:
            known = ", ".join(sorted(presets)) or "none"
            raise PresetError(f"no agent preset named {name!r} in {path} (presets: {known})")
        return presets[name]
    defaults = [p for p in presets.values() if p.default]
    return defaults[0] if defaults else None
