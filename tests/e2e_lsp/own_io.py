"""What every agent that writes the disk and runs commands itself must show through LSP, once the
turn of ``prompt`` (read hello.py, replace "hello" with "hello, world", print marker-42) ended
with hello.py open holding ``NOTE`` unsaved: shared by the real current agents' tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from tests.e2e_lsp.test_lsp_lifecycle import alive
from tests.e2e_lsp.test_lsp_review import review_diagnostics
from tests.nvim.driver import descendants
from tests.support.lsp import Editor, wait_until

ORIGINAL = 'print("hello")\n\n\n# the end\n'
NOTE = "# unsaved note\n"
PROMPT = "Greet the world, then run the check."


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
