"""How to start the real ``fast-agent-mcp`` as an ACP agent, offline and with no model server.

fast-agent (PyPI, Python >= 3.12) is installed with every dependency pinned
(``fast_agent_pins.txt``) into a cached venv of its own (``tests.support.pypi``). Its
``passthrough`` model needs no server: a prompt ``***CALL_TOOL <tool> <JSON arguments>`` makes
one call of that tool and the tool's result text is the reply; any other prompt is echoed. It
names an MCP server's tools ``<server>__<tool>`` (``editor__read_buffer``), reports a call as a
tool call titled ``<server>/<tool>`` (``editor/read_buffer``), and asks permission for each
with a ``toolCall`` whose id is the literal ``"pending"``.

It starts the ``mcpServers`` of ``session/new`` before answering it, and a server that fails to
start is fatal: ``session/new`` is answered with ``Internal error``.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.pypi import PinnedTool, ensure_installed

FAST_AGENT = PinnedTool(
    name="fast-agent-mcp",
    requirements=Path(__file__).with_name("fast_agent_pins.txt"),
    pythons=("3.12",),
)

CALL_TOOL = "***CALL_TOOL"
"""The passthrough model's prefix for a prompt that calls a tool."""


def call_tool(tool: str, arguments: str = "{}") -> str:
    """The prompt that makes the passthrough model call ``tool`` with JSON ``arguments``."""
    return f"{CALL_TOOL} {tool} {arguments}"


def fast_agent(home: Path) -> tuple[list[str], dict[str, str]]:
    """The argv and the extra environment that run fast-agent offline with a throwaway home.

    ``--no-update-check`` keeps it from asking PyPI for newer releases at start; ``--home``
    keeps its sessions and locks in ``home`` rather than under the workspace; ``--shell`` adds
    its ``execute`` tool (run through the client's terminals).
    """
    venv = ensure_installed(FAST_AGENT)
    home.mkdir(parents=True, exist_ok=True)
    argv = [
        str(venv / "bin" / "fast-agent"),
        "--no-update-check",
        "acp",
        "--home",
        str(home / "fast-agent"),
        "--model",
        "passthrough",
        "--shell",
    ]
    return argv, {"HOME": str(home), "NO_COLOR": "1"}
