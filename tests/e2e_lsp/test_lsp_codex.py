"""The current codex-acp, which patches files and runs commands itself, through LSP with the file
open holding unsaved text: its patch lands in the buffer beside the unsaved text, is review that
can be rejected exactly, its command's output reaches the editor, and nothing outlives the
sidecar (codex does not exit on stdin EOF: the shutdown ladder ends it)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from tests.agents.codex import codex_agent
from tests.agents.fake_openai import patch, running_fake_openai
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.test_lsp_lifecycle import alive
from tests.e2e_lsp.test_lsp_review import review_diagnostics
from tests.nvim.driver import descendants
from tests.support.lsp import NEOVIM, wait_until
from tests.support.npm import CODEX_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm

ORIGINAL = 'print("hello")\n\n\n# the end\n'
NOTE = "# unsaved note\n"


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CODEX_ACP)


async def test_codex_patch_is_merged_reviewed_and_rejected_exactly(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "hello.py"
    target.write_text(ORIGINAL, encoding="utf-8")
    steps = [
        ("exec_command", {"cmd": "cat hello.py"}),
        ("exec_command", {"cmd": patch("hello.py", 'print("hello")', 'print("hello, world")')}),
        ("exec_command", {"cmd": "echo marker-$((40 + 2))"}),
    ]
    with running_fake_openai(steps) as server:
        argv, env = codex_agent(server.base_url, tmp_path / "home")
        editor = await editor_factory(
            capabilities=NEOVIM, agent=argv, env={**os.environ, **env}, features=["terminals"]
        )
        editor.open("hello.py", ORIGINAL + NOTE)
        result = await editor.command("acp.prompt", "Greet the world, then run the check.")
        assert "exec_command" in server.tool_names()  # Codex's own shell, not client terminals
    assert result["stopReason"] == "end_turn"
    edited = ORIGINAL.replace('"hello"', '"hello, world"')
    assert target.read_text(encoding="utf-8") == edited  # codex patched the disk itself
    await wait_until(lambda: editor.text("hello.py") == edited + NOTE)  # merged, note kept
    output = "".join(p["data"] for p in editor.of("acp/terminalOutput"))
    assert "marker-42" in output, editor.of("acp/terminalOutput")

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
    await editor.command(reject["command"]["command"], *reject["command"]["arguments"])
    assert editor.text("hello.py") == ORIGINAL + NOTE
    assert target.read_text(encoding="utf-8") == ORIGINAL

    assert editor.client._server is not None
    tree = descendants(editor.client._server.pid)
    assert tree, "the agent ran below the sidecar"
    await editor.close()
    await wait_until(lambda: not any(alive(pid) for pid in tree))
