"""``acp-editor demo``: one command that shows the whole flow in the terminal.

It creates a throw-away workspace, starts the agent (the built-in scripted demo agent unless one
is given after ``--``), sends one prompt and prints what an editor would be told.
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
        return asyncio.run(run_demo(options, workspace))


def changed_files(workspace: Path) -> dict[str, str]:
    changed = {}
    for name, original in WORKSPACE_FILES.items():
        text = (workspace / name).read_text(encoding="utf-8")
        if text != original:
            changed[name] = text
    return changed


async def run_demo(options: DemoOptions, workspace: Path) -> int:
    view = TerminalView(auto_yes=options.auto_yes)
    command = options.agent or DEMO_AGENT
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
        init = await client.start(str(workspace))
        info = init.get("agentInfo") or {}
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
