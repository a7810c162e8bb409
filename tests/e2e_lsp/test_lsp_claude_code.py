"""claude-code-acp through the LSP surface: follow-along, permission, and the edit applied with
``workspace/applyEdit`` into an open buffer whose unsaved text survives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.agents.claude_code import claude_code_agent
from tests.agents.fake_anthropic import read_edit_shell, running_fake_anthropic
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import NEOVIM
from tests.support.npm import CLAUDE_CODE_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_CODE_ACP)


async def test_claude_code_edits_the_open_buffer_and_keeps_unsaved_text(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "hello.py"
    target.write_text('print("hello")\n', encoding="utf-8")
    script = read_edit_shell(target, '"hello"', '"hello, world"', "echo marker-$((40 + 2))")
    with running_fake_anthropic(script) as server:
        argv, env = claude_code_agent(server.base_url, tmp_path / "home")
        editor = await editor_factory(capabilities=NEOVIM, agent=argv, env={**_env(), **env})
        unsaved = '# unsaved note\nprint("hello")\n'
        editor.open("hello.py", unsaved)
        result = await editor.command("acp.prompt", "Greet the world, then run the check.")
        assert server.errors == []
    assert result["stopReason"] == "end_turn"
    # The agent read the unsaved buffer and its edit landed there, the note kept.
    assert editor.text("hello.py") == '# unsaved note\nprint("hello, world")\n'
    # The disk has the agent's edit (its shell command ran against it), not the unsaved note.
    assert target.read_text(encoding="utf-8") == 'print("hello, world")\n'
    (apply,) = editor.edits
    (edits,) = apply["edit"]["changes"].values()
    assert len(edits) == 1 and edits[0]["newText"] == ", world"  # minimal, not a whole buffer
    # Permission for the edit and for the shell command, through showMessageRequest.
    assert len(editor.asked) == 2 and all("actions" in a for a in editor.asked)
    # Follow-along showed the file the agent read and wrote.
    uris = [d["uri"] for d in editor.client.shown_documents]  # type: ignore[index]
    assert editor.uri("hello.py") in uris


def _env() -> dict[str, Any]:
    import os

    return dict(os.environ)
