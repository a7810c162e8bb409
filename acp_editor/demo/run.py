"""``acp-editor demo``: one command that shows the whole flow in the terminal.

It creates a throw-away workspace, starts the agent (the built-in scripted demo agent unless one
is given after ``--``), sends one prompt and prints what an editor would be told.
``--require-login`` makes the demo agent ask the user to sign in first, in the terminal, as
claude-agent-acp does: its first prompt fails until the user has run its login program (which
asks for a name), and then goes on. Its sign-in is kept in a throw-away file: every run asks.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.demo.view import TerminalView
from acp_editor.demo_agent import DEMO_AGENT
from acp_editor.errors import AgentError, RpcError

DEMO_PROMPT = "all"
"""The demo agent plays every scenario for this prompt."""
REAL_AGENT_PROMPT = (
    "Read hello.py, change its greeting to say hello to the editor, "
    "then run it with `python3 hello.py`."
)
WORKSPACE_FILES = {
    "hello.py": 'def greet(name):\n    return f"Hello, {name}!"\n\n\nprint(greet("world"))\n',
    "README.md": "# Demo workspace\n\nA throw-away project made by `acp-editor demo`.\n",
}


@dataclass
class DemoOptions:
    agent: list[str] = field(default_factory=list)
    prompt: str | None = None
    auto_yes: bool = False
    protocol_version: int = 1
    auth_method: str | None = None
    workspace: str | None = None
    mode: str | None = None
    require_login: bool = False
    """The demo agent asks to sign in in a terminal first (``--require-login``)."""


def make_workspace(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in WORKSPACE_FILES.items():
        if not (root / name).exists():
            (root / name).write_text(text, encoding="utf-8")
    return root


def demo_main(options: DemoOptions) -> int:
    """Make the workspace (a temporary one unless given), run the demo, clean up."""
    with (
        tempfile.TemporaryDirectory(prefix="acp-editor-demo-") as tmp,
        tempfile.TemporaryDirectory(prefix="acp-editor-demo-state-") as state,
    ):
        if options.workspace is None:
            # A throw-away workspace's checkpoints and review go with it, not into the user's
            # state directory (a new store per run would pile up there).
            os.environ.setdefault("ACP_EDITOR_STATE_DIR", state)
        workspace = make_workspace(Path(options.workspace or tmp).resolve())
        return asyncio.run(run_demo(options, workspace, Path(state) / "demo-login.json"))


def changed_files(workspace: Path) -> dict[str, str]:
    changed = {}
    for name, original in WORKSPACE_FILES.items():
        text = (workspace / name).read_text(encoding="utf-8")
        if text != original:
            changed[name] = text
    return changed


def agent_command(options: DemoOptions, login_file: Path) -> list[str]:
    """The agent given, else the demo agent (``--require-login``: with its login kept in
    ``login_file``)."""
    if options.agent:
        return options.agent
    if options.require_login:
        return [*DEMO_AGENT, "--require-login", "--login-file", str(login_file)]
    return DEMO_AGENT


async def run_demo(options: DemoOptions, workspace: Path, login_file: Path) -> int:
    view = TerminalView(auto_yes=options.auto_yes)
    if options.require_login and options.agent:
        view.line("error: --require-login is the demo agent's: not with an agent after --", "red")
        return 2
    command = agent_command(options, login_file)
    prompt = options.prompt or (REAL_AGENT_PROMPT if options.agent else DEMO_PROMPT)
    view.line(f"workspace: {workspace}", "dim")
    view.line(f"agent: {' '.join(command)}", "dim")
    config = AgentConfig(
        command=command,
        protocol_version=options.protocol_version,
        auth_method=options.auth_method,
        initial_mode=options.mode,
    )
    client = AcpClient(config, view)
    try:
        await client.start(str(workspace))
        info = client.agent_info or {}
        view.agent_title = info.get("title") or info.get("name")
        view.line(
            f"connected: {info.get('title') or info.get('name') or 'agent'} "
            f"(ACP protocol {client.protocol_version})",
            "dim",
        )
        session = await client.new_session(str(workspace))
        view.line(f"you> {prompt}", "bold")
        result = await client.prompt(session.id, [{"type": "text", "text": prompt}])
        view.line(f"turn ended: {result.get('stopReason')}", "bold")
        for name, text in (await asyncio.to_thread(changed_files, workspace)).items():
            view.line(f"{name} on disk now:", "dim")
            for text_line in text.splitlines():
                view.line(f"  {text_line}")
        return 0
    except (AgentError, RpcError) as exc:
        view.line(f"error: {exc}", "red")
        return 1
    finally:
        await client.shutdown()
