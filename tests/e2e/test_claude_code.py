"""A real public agent through the sidecar: claude-code-acp, offline against our fake model.

The agent (npm ``@zed-industries/claude-code-acp``, pinned) routes everything through the client:
it reads the file with ``fs/read_text_file``, asks permission for the edit and the shell command,
writes with ``fs/write_text_file`` and runs the command with ``terminal/*``. The sidecar's
``AcpClient`` serves all of it, exactly as it does behind an editor.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents.claude_code import claude_code_agent
from tests.agents.fake_anthropic import read_edit_shell, running_fake_anthropic
from tests.support.npm import CLAUDE_CODE_ACP, ensure_npm_package, requires_npm
from tests.support.recorder import Recorder
from tests.support.starter import StartClient

pytestmark = requires_npm
ORIGINAL = 'print("hello")\n'
COMMAND = "echo marker-$((40 + 2))"


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_CODE_ACP)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    cwd = tmp_path / "project"
    cwd.mkdir()
    (cwd / "hello.py").write_text(ORIGINAL, "utf-8")
    return cwd


async def run_turn(
    start_client: StartClient, workspace: Path, home: Path, recorder: Recorder
) -> tuple[dict[str, object], object, str]:
    target = workspace / "hello.py"
    script = read_edit_shell(target, '"hello"', '"hello, world"', COMMAND)
    with running_fake_anthropic(script) as server:
        argv, env = claude_code_agent(server.base_url, home)
        client = await start_client(
            command=argv,
            env=env,
            cwd=workspace,
            frontend=recorder,
            session_timeout=90.0,
            prompt_timeout=120.0,
        )
        session = await client.new_session(str(workspace))
        result = await client.prompt(
            session.id, [{"type": "text", "text": "Greet the world, then run the check."}]
        )
        assert server.errors == []
        return result, session.state.snapshot(), session.id


async def test_read_edit_and_shell_through_the_sidecar(
    agent_installed: Path, start_client: StartClient, workspace: Path, tmp_path: Path
) -> None:
    rec = Recorder("allow_once")
    result, snap, sid = await run_turn(start_client, workspace, tmp_path / "home", rec)
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text("utf-8") == 'print("hello, world")\n'
    # Follow-along saw the read and the write.
    kinds = {kind for kind, path in rec.accessed if path == str(workspace / "hello.py")}
    assert kinds == {"read", "write"}
    # Two permissions (edit, shell); options chosen by kind, never by id.
    assert len(rec.permissions) == 2
    edit_call = rec.permissions[0][0]
    assert any(item.get("type") == "diff" for item in edit_call.get("content", []))
    # The shell command ran in our terminal, and its output reached the tool call.
    assert "marker-42" in "".join(rec.output.values())
    assert isinstance(snap, dict)
    statuses = [c.get("status") for c in snap["toolCalls"].values()]
    assert statuses.count("completed") >= 3 and "failed" not in statuses
    assert "marker-42" in json.dumps(snap["toolCalls"])
    said = "".join(
        block.get("text", "")
        for entry in snap["entries"]
        if entry.get("role") == "agent"
        for block in entry["content"]
    )
    assert "Edited the file and ran the command." in said
    assert rec.mirrors[sid]["toolCalls"] == snap["toolCalls"]


async def test_rejecting_the_edit_leaves_the_file_untouched(
    agent_installed: Path, start_client: StartClient, workspace: Path, tmp_path: Path
) -> None:
    rec = Recorder("reject_once")
    result, snap, _sid = await run_turn(start_client, workspace, tmp_path / "home", rec)
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text("utf-8") == ORIGINAL
    assert len(rec.permissions) == 1 and not rec.output
    assert isinstance(snap, dict)
    assert "failed" in [c.get("status") for c in snap["toolCalls"].values()]
