"""What every agent that writes the disk and runs commands itself must show through LSP, once the
turn of ``prompt`` (read hello.py, replace "hello" with "hello, world", print marker-42) ended
with hello.py open holding ``NOTE`` unsaved, and how each starts that turn (``opened_with_note``
and its real agent run offline against a fake model server): shared by the real current agents'
tests."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.test_lsp_lifecycle import alive
from tests.e2e_lsp.test_lsp_review import review_diagnostics
from tests.nvim.driver import descendants
from tests.support.lsp import NEOVIM, Editor, choose_kind, wait_until

ORIGINAL = 'print("hello")\n\n\n# the end\n'
NOTE = "# unsaved note\n"
PROMPT = "Greet the world, then run the check."


def hello_py(workspace: Path) -> Path:
    """hello.py on disk as ``ORIGINAL``: what the agent reads and edits."""
    target = workspace / "hello.py"
    target.write_text(ORIGINAL, encoding="utf-8")
    return target


async def opened_with_note(
    editor_factory: StartEditor, agent: tuple[list[str], dict[str, str]], **options: Any
) -> Editor:
    """The sidecar running ``agent`` (its argv and the environment it adds, pointing it at a
    fake model server), started by Neovim with ``options``, hello.py open holding ``NOTE``."""
    argv, env = agent
    editor = await editor_factory(
        capabilities=NEOVIM, agent=argv, env={**os.environ, **env}, **options
    )
    editor.open("hello.py", ORIGINAL + NOTE)
    return editor


async def check_merged_reviewed_rejected_and_closed(
    editor: Editor, target: Path, result: Any
) -> None:
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


def reject_the_edit(params: dict[str, Any]) -> Any:
    """In a mode that asks: refuse whatever would change hello.py, allow the rest."""
    about_edit = "hello.py" in str(params) and "marker" not in str(params)
    return choose_kind(params, "reject_once" if about_edit else "allow_once")


async def check_asked_and_nothing_landed(editor: Editor, target: Path, mode: str) -> None:
    """The agent, in ``mode``, asked before editing; the user said no: nothing changed, in the
    buffer or on disk, and there is nothing to review."""
    assert any("hello.py" in str(q) for q in editor.asked), editor.asked
    assert target.read_text(encoding="utf-8") == ORIGINAL
    assert editor.text("hello.py") == ORIGINAL + NOTE
    snapshot = await editor.request("acp/snapshot", {})
    assert snapshot["review"] == []
    status = await editor.command("acp.status")
    assert status["mode"] == mode  # shown where the user looks
    await editor.close()
