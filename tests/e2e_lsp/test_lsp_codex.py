"""The current codex-acp, which patches files and runs commands itself, through LSP with the file
open holding unsaved text: its patch lands in the buffer beside the unsaved text, is review that
can be rejected exactly, its command's output reaches the editor, and nothing outlives the
sidecar (codex does not exit on stdin EOF: the shutdown ladder ends it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agents.codex import codex_agent
from tests.agents.fake_openai import patch, running_fake_openai
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.own_io import (
    PROMPT,
    check_asked_and_nothing_landed,
    check_merged_reviewed_rejected_and_closed,
    hello_py,
    opened_with_note,
    reject_the_edit,
)
from tests.support.npm import CODEX_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CODEX_ACP)


async def test_codex_patch_is_merged_reviewed_and_rejected_exactly(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = hello_py(workspace)
    steps = [
        ("exec_command", {"cmd": "cat hello.py"}),
        ("exec_command", {"cmd": patch("hello.py", 'print("hello")', 'print("hello, world")')}),
        ("exec_command", {"cmd": "echo marker-$((40 + 2))"}),
    ]
    with running_fake_openai(steps) as server:
        agent = codex_agent(server.base_url, tmp_path / "home")
        editor = await opened_with_note(editor_factory, agent, features=["terminals"])
        result = await editor.command("acp.prompt", PROMPT)
        assert "exec_command" in server.tool_names()  # Codex's own shell, not client terminals
    await check_merged_reviewed_rejected_and_closed(editor, target, result)


async def test_codex_in_read_only_mode_never_patches_what_the_user_refused(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = hello_py(workspace)
    steps = [
        ("exec_command", {"cmd": patch("hello.py", 'print("hello")', 'print("hello, world")')}),
    ]
    with running_fake_openai(steps) as server:
        argv, env = codex_agent(server.base_url, tmp_path / "home")
        read_only = (argv, {**env, "INITIAL_AGENT_MODE": "read-only"})
        editor = await opened_with_note(
            editor_factory, read_only, answer_permission=reject_the_edit
        )
        result = await editor.command("acp.prompt", PROMPT)
        # Codex's only "no" is "No, and tell Codex what to do differently": it stops the turn.
        assert result["stopReason"] == "cancelled"
    await check_asked_and_nothing_landed(editor, target, "read-only")
