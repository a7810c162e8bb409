"""The whole way once in a real Neovim: claude-agent-acp (offline, against the fake Anthropic
server) asks the session's ``editor`` MCP server for the diagnostics of a file and for its text;
the diagnostics are those a real language server (``ruff server``, attached through Neovim's own
LSP client) published for the unsaved buffer, and the text is the buffer's, unsaved line
included."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import StepScript, call, running_fake_anthropic, say
from tests.nvim.plugin_driver import PluginEditor, plugin_editor
from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm

SAVED = "def greet():\n    return 1\n"
UNSAVED = "import os  # added, not saved\n"
CLAUDE_TURN_MS = 40_000


@pytest.fixture
def nv(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginEditor]:
    ensure_npm_package(CLAUDE_AGENT_ACP)
    with plugin_editor(workspace, tmp_path, monkeypatch) as editor:
        yield editor


def ruff() -> str:
    found = Path(sys.executable).with_name("ruff")
    path = str(found) if found.exists() else shutil.which("ruff")
    if path is None:
        pytest.skip("no ruff beside the Python interpreter or on PATH (pip install .[dev])")
    return path


def test_claude_reads_ruffs_diagnostics_and_the_unsaved_buffer_in_neovim(
    nv: PluginEditor, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "app.py"
    target.write_text(SAVED, encoding="utf-8")
    buf = nv.edit(target)
    nv.lua("vim.api.nvim_buf_set_lines(..., 0, 0, false, { 'import os  # added, not saved' })", buf)
    nv.lua(
        "local cmd, root = ...\n"
        "vim.lsp.start({ name = 'ruff', cmd = { cmd, 'server' }, root_dir = root })",
        ruff(),
        str(workspace),
    )
    nv.wait_until(
        "#vim.diagnostic.get(0) > 0 and vim.diagnostic.get(0)[1].source == 'Ruff'",
        "ruff reports the unused import of the unsaved line",
        timeout_ms=15_000,
    )
    script = StepScript(
        [
            call("diagnostics", "What does the editor report?", path=str(target)),
            call("read_buffer", "And the text it holds.", path=str(target)),
            say("Seen."),
        ]
    )
    with running_fake_anthropic(script) as server:
        argv, env = claude_agent(server.base_url, tmp_path / "home", allow=["mcp__editor"])
        nv.setup(agents={"claude": {"cmd": argv, "env": env}}, default_agent="claude")
        result = nv.wait_turn(nv.prompt_async("Look at app.py"), CLAUDE_TURN_MS)
        assert server.errors == [] and result["stopReason"] == "end_turn", server.errors
        # Each request repeats the conversation so far: one answer per tool use.
        answers = {r.tool_use_id: r for req in server.main_requests for r in req.tool_results()}
    diagnostics, text = answers.values()
    assert not diagnostics.is_error and not text.is_error, (diagnostics.text, text.text)
    found = json.loads(diagnostics.text)["diagnostics"]
    unused = [d for d in found if d.get("source") == "Ruff" and d.get("code") == "F401"]
    assert unused and unused[0]["range"]["start"]["line"] == 1, found  # 1-based for the agent
    assert unused[0]["path"] == str(target)
    assert UNSAVED.strip() in json.loads(text.text)["text"]
    assert UNSAVED.strip() not in target.read_text(encoding="utf-8")
