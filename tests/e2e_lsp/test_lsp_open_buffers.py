"""An agent that writes the disk itself, with the file open holding unsaved text: the change is
merged into the buffer (the unsaved text kept), overlaps are conflicts the user resolves, and the
disk holds the agent's version."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from tests.e2e_lsp.conftest import EDIT_LINE, StartEditor
from tests.e2e_lsp.test_lsp_review import AGENT_TEXT, FIRST, ORIGINAL, review_diagnostics
from tests.support.lsp import Editor, wait_until

USER_NOTE = "# the user's unsaved note\n"


def conflicts(editor: Editor, name: str) -> list[lsp.Diagnostic]:
    return [d for d in review_diagnostics(editor, name) if d.code == "conflict"]


async def test_the_agents_disk_write_is_merged_into_the_unsaved_buffer(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(agent_flags=("--writes-itself",))
    unsaved = ORIGINAL.replace("\n\n\n", "\n\n" + USER_NOTE + "\n")
    editor.open("hello.py", unsaved)
    await editor.command("acp.prompt", "hunks")
    assert (workspace / "hello.py").read_text() == AGENT_TEXT  # the disk: the agent's version
    expected = AGENT_TEXT.replace("\n\n\n", "\n\n" + USER_NOTE + "\n")
    await wait_until(lambda: editor.text("hello.py") == expected)
    merges = [e for e in editor.edits if e["label"] == "Agent: hello.py"]
    assert len(merges) == 1  # one undo step
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == 2)
    assert conflicts(editor, "hello.py") == []
    lines = sorted(d.range.start.line for d in review_diagnostics(editor, "hello.py"))
    assert lines == [0, 6]  # placed in the buffer's text, the user's line counted


async def test_the_same_line_edited_by_both_is_a_conflict_and_the_user_decides(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(agent_flags=("--writes-itself",))
    mine = "def greet(name):  # typed by the user\n"
    unsaved = ORIGINAL.replace("def greet(name):\n", mine)
    editor.open("hello.py", unsaved)
    await editor.command("acp.prompt", "hunks")
    # The agent's other change (the appended line) is in; the user's line is kept.
    await wait_until(lambda: editor.text("hello.py") == unsaved + EDIT_LINE)
    await wait_until(lambda: len(conflicts(editor, "hello.py")) == 1)
    (conflict,) = conflicts(editor, "hello.py")
    assert conflict.severity == lsp.DiagnosticSeverity.Error and conflict.range.start.line == 0
    assert any("unsaved edits" in m.message for m in editor.client.messages)
    actions = await editor.client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=editor.uri("hello.py")),
            range=conflict.range,
            context=lsp.CodeActionContext(diagnostics=[conflict]),
        )
    )
    assert isinstance(actions, list)
    take = next(a for a in actions if a["title"].startswith("Take the agent's version"))
    assert any(a["title"].startswith("Keep my version") for a in actions)
    result = await editor.command(take["command"]["command"], *take["command"]["arguments"])
    assert result == {"resolved": True}
    assert editor.text("hello.py") == AGENT_TEXT == (workspace / "hello.py").read_text()
    await wait_until(lambda: conflicts(editor, "hello.py") == [])
    assert FIRST in editor.text("hello.py")


async def test_keep_mine_leaves_the_buffer_and_clears_the_conflict(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(agent_flags=("--writes-itself",))
    unsaved = ORIGINAL.replace("def greet(name):\n", "def greet(person):\n")
    editor.open("hello.py", unsaved)
    await editor.command("acp.prompt", "hunks")
    await wait_until(lambda: len(conflicts(editor, "hello.py")) == 1)
    before = editor.text("hello.py")
    assert await editor.command("acp.keepMine", editor.uri("hello.py")) == {"resolved": True}
    await wait_until(lambda: conflicts(editor, "hello.py") == [])
    assert editor.text("hello.py") == before
    assert (workspace / "hello.py").read_text() == AGENT_TEXT
