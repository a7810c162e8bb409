"""How to start the real ``claude-code-acp`` agent offline, against ``fake_anthropic``.

The package bundles Claude Code as JavaScript, so once npm has installed it nothing else is
downloaded. The environment points it at the fake model server, keeps it from phoning home, and
gives it a throwaway ``HOME`` so no user settings or credentials leak in or out.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from tests.support.npm import CLAUDE_AGENT_ACP, CLAUDE_CODE_ACP, NpmError, ensure_npm_package

QUIET_ENV = {
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}
"""Flags that stop Claude Code's background traffic (telemetry, error reports, updates)."""


def claude_code_agent(base_url: str, home: Path) -> tuple[list[str], dict[str, str]]:
    """The argv and the extra environment that run the agent against ``base_url``.

    ``IS_SANDBOX=1`` is required when the tests run as root: without it the agent refuses its
    permission-bypass setup and ``session/new`` fails after about 9 s.
    """
    package = ensure_npm_package(CLAUDE_CODE_ACP)
    node = shutil.which("node")
    if node is None:
        raise NpmError(f"node is not on PATH; cannot run {CLAUDE_CODE_ACP}")
    home.mkdir(parents=True, exist_ok=True)
    return [node, str(package / "dist" / "index.js")], offline_env(base_url, home)


def offline_env(base_url: str, home: Path) -> dict[str, str]:
    """The fake model server, a throwaway home, no background traffic, and root allowed."""
    return {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "dummy",
        "IS_SANDBOX": "1",
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        **QUIET_ENV,
    }


def claude_agent(
    base_url: str, home: Path, *, asks: bool = False, allow: Sequence[str] = ()
) -> tuple[list[str], dict[str, str]]:
    """The current ``claude-agent-acp`` (it runs Claude Code's own Read / Edit / Bash on the
    disk). Its default mode ``auto`` asks nothing; ``asks`` sets ``defaultMode: default`` in its
    settings so it asks permission for edits and commands, except for the tools ``allow`` names
    (``mcp__editor``: every tool of that MCP server). MCP tools are offered up front (not
    searched for), as a scripted model expects."""
    package = ensure_npm_package(CLAUDE_AGENT_ACP)
    node = shutil.which("node")
    if node is None:
        raise NpmError(f"node is not on PATH; cannot run {CLAUDE_AGENT_ACP}")
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    if asks or allow:
        permissions = {"defaultMode": "default", **({"allow": list(allow)} if allow else {})}
        settings = json.dumps({"permissions": permissions})
        (home / ".claude" / "settings.json").write_text(settings + "\n", encoding="utf-8")
    env = {
        **offline_env(base_url, home),
        "CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION": "false",
        "ENABLE_TOOL_SEARCH": "false",
    }
    return [node, str(package / "dist" / "index.js")], env
