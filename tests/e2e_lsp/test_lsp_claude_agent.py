"""The current claude-agent-acp, which writes the disk and runs commands itself, through LSP with
the file open holding unsaved text: the edit lands in the buffer beside the unsaved text, it is
review with Accept/Reject, rejecting reverts exactly it in the buffer and on disk, the command's
output reaches the editor, and nothing outlives the sidecar."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import read_edit_shell, running_fake_anthropic
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.test_lsp_lifecycle import alive
from tests.e2e_lsp.test_lsp_review import review_diagnostics
from tests.nvim.driver import descendants
from tests.support.lsp import NEOVIM, wait_until
from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm

ORIGINAL = 'print("hello")\n\n\n# the end\n'
NOTE = "# unsaved note\n"


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_AGENT_ACP)


async def test_claude_agent_edit_is_merged_reviewed_and_rejected_exactly(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "hello.py"
    target.write_text(ORIGINAL, encoding="utf-8")
    script = read_edit_shell(target, '"hello"', '"hello, world"', "echo marker-$((40 + 2))")
    with running_fake_anthropic(script) as server:
        argv, env = claude_agent(server.base_url, tmp_path / "home")
        editor = await editor_factory(
            capabilities=NEOVIM, agent=argv, env={**os.environ, **env}, features=["terminals"]
        )
        editor.open("hello.py", ORIGINAL + NOTE)
        result = await editor.command("acp.prompt", "Greet the world, then run the check.")
        assert server.errors == []
        # Claude Code's own tools, not ones routed through the client's fs/terminal.
        offered = {name for r in server.requests for name in r.tool_names}
        assert {"Read", "Edit", "Bash"} <= offered and not any("mcp__acp__" in n for n in offered)
    assert result["stopReason"] == "end_turn"
    edited = ORIGINAL.replace('"hello"', '"hello, world"')
    assert target.read_text(encoding="utf-8") == edited  # the agent wrote the disk itself
    await wait_until(lambda: editor.text("hello.py") == edited + NOTE)  # merged, note kept
    # The command's output reached the editor (acp/terminalOutput of an agent-owned terminal).
    output = "".join(p["data"] for p in editor.of("acp/terminalOutput"))
    assert "marker-42" in output, editor.of("acp/terminalOutput")
    # Review: the edit is a diagnostic with Accept/Reject code actions.
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == 1)
    (diagnostic,) = review_diagnostics(editor, "hello.py")
    actions: Any = await editor.client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=editor.uri("hello.py")),
            range=diagnostic.range,
            context=lsp.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    reject = next(a for a in actions if a["title"] == "Reject hunk")
    assert any(a["title"] == "Accept hunk" for a in actions)
    await editor.command(reject["command"]["command"], *reject["command"]["arguments"])
    assert editor.text("hello.py") == ORIGINAL + NOTE
    assert target.read_text(encoding="utf-8") == ORIGINAL
    # Shutdown leaves no process: the sidecar's whole tree is gone.
    assert editor.client._server is not None
    tree = descendants(editor.client._server.pid)
    assert tree, "the agent ran below the sidecar"
    await editor.close()
    await wait_until(lambda: not any(alive(pid) for pid in tree))
