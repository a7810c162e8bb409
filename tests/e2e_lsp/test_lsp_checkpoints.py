"""Turn checkpoints through LSP with the scripted agent writing the disk itself: a command that
changes, creates and deletes files is reviewed; rejecting undoes each; a whole turn is undone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor, allow_once, wait_until

# The user's typing at the end is far enough from the agent's change on the first line not to
# conflict with it (changes on touching lines are conflicts).
HELLO = 'print("hello world")\n\n\n# the end\n'
CHANGED = HELLO.replace("world", "the files")
NOTES = "# notes\n"


def prepare(workspace: Path) -> None:
    (workspace / "hello.py").write_text(HELLO)
    (workspace / "NOTES.md").write_text(NOTES)


async def review(editor: Editor) -> dict[str, dict[str, Any]]:
    picture = await editor.request("acp/snapshot", {})
    return {Path(h["path"]).name: h for h in picture["review"]}


async def test_a_commands_changes_are_reviewed_and_each_can_be_rejected(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(agent_flags=("--writes-itself",))
    await editor.command("acp.prompt", "files")
    assert (workspace / "hello.py").read_text() == CHANGED
    assert (workspace / "MADE.txt").read_text() == "made by a command\n"
    assert not (workspace / "NOTES.md").exists()
    hunks = await review(editor)
    assert set(hunks) == {"hello.py", "MADE.txt", "NOTES.md"}
    assert {h["state"] for h in hunks.values()} == {"pending"}
    (call,) = {h["toolCallId"] for h in hunks.values()}
    assert call is not None  # the command's tool call, not the turn
    for name in ("NOTES.md", "MADE.txt", "hello.py"):
        result = await editor.command("acp.rejectHunk", hunks[name]["hunkId"])
        assert [r["state"] for r in result["results"]] == ["rejected"], result
    assert (workspace / "NOTES.md").read_text() == NOTES  # the deletion undone
    assert not (workspace / "MADE.txt").exists()  # the creation undone
    assert (workspace / "hello.py").read_text() == HELLO


def undo_when_asked(params: dict[str, Any]) -> Any:
    """Answer the undo question with its "Undo turn N" action, anything else as usual."""
    actions = params.get("actions") or []
    if any(str(a.get("title", "")).startswith("Undo turn") for a in actions):
        assert not actions[0]["title"].startswith("Undo"), "the pre-selected action must keep"
        return next(a for a in actions if a["title"].startswith("Undo turn"))
    return allow_once(params)


async def test_undoing_a_turn_puts_every_file_back_and_keeps_unsaved_text(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(
        agent_flags=("--writes-itself",), answer_permission=undo_when_asked
    )
    unsaved = HELLO + "# typed, not saved\n"
    editor.open("hello.py", unsaved)
    await editor.command("acp.prompt", "files")
    await wait_until(lambda: editor.text("hello.py") == CHANGED + "# typed, not saved\n")
    result = await editor.command("acp.restoreCheckpoint")
    assert result["turn"] == 1 and result["done"] is True
    assert sorted(Path(p).name for p in result["restored"]) == ["MADE.txt", "NOTES.md", "hello.py"]
    assert (workspace / "hello.py").read_text() == HELLO
    assert (workspace / "NOTES.md").read_text() == NOTES
    assert not (workspace / "MADE.txt").exists()
    await wait_until(lambda: editor.text("hello.py") == unsaved)  # the user's line survives
    assert {h["state"] for h in (await review(editor)).values()} == {"rejected"}
    question = editor.asked[-1]
    assert "Undo turn 1?" in question["message"] and "MADE.txt" in question["message"]


async def test_dismissing_the_question_keeps_the_files(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(
        agent_flags=("--writes-itself",), answer_permission=lambda p: None
    )
    await editor.command("acp.prompt", "files")
    result = await editor.command("acp.restoreCheckpoint", 1)
    assert result["done"] is False and result["restored"] == []
    assert (workspace / "hello.py").read_text() == CHANGED
    assert (workspace / "MADE.txt").exists()


async def test_pending_review_survives_a_restart_of_the_editor_and_the_sidecar(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    first = await editor_factory(agent_flags=("--writes-itself",))
    await first.command("acp.prompt", "files")
    assert set(await review(first)) == {"hello.py", "MADE.txt", "NOTES.md"}
    await first.close()

    second = await editor_factory(agent_flags=("--writes-itself",))
    await second.command("acp.newSession")  # the agent has started (and the review came back)
    back = await review(second)
    assert set(back) == {"hello.py", "MADE.txt", "NOTES.md"}
    assert {h["state"] for h in back.values()} == {"pending"}
    result = await second.command("acp.rejectHunk", back["NOTES.md"]["hunkId"])
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert (workspace / "NOTES.md").read_text() == NOTES


async def test_a_rich_editor_undoes_a_turn_with_acp_restore_checkpoint(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(agent_flags=("--writes-itself",), features=["stream"])
    await editor.command("acp.prompt", "files")
    session = (await editor.request("acp/snapshot", {}))["currentSessionId"]
    result = await editor.request("acp/restoreCheckpoint", {"sessionId": session})
    assert result["turn"] == 1 and result["done"] is True, result
    assert (workspace / "hello.py").read_text() == HELLO
    assert (workspace / "NOTES.md").read_text() == NOTES
    assert not (workspace / "MADE.txt").exists()
    assert editor.asked == []  # the editor asked its user itself: the server asks nothing


async def test_a_rich_editor_gets_a_diff_preview_of_what_a_command_changed(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """A command's edits carry no diff content: the preview comes from the disk, per file, from
    the text before the command to the text after (deleted: empty)."""
    prepare(workspace)
    editor = await editor_factory(agent_flags=("--writes-itself",), features=["stream", "diffs"])
    await editor.command("acp.prompt", "files")
    hunks = await review(editor)

    def latest() -> dict[str, dict[str, Any]]:  # a live look may have caught a file half written
        return {Path(p["path"]).name: p for p in editor.of("acp/diff")}

    await wait_until(lambda: latest().get("MADE.txt", {}).get("newText") == "made by a command\n")
    previews = latest()
    assert set(previews) == {"hello.py", "MADE.txt", "NOTES.md"}
    assert {p["toolCallId"] for p in previews.values()} == {hunks["hello.py"]["toolCallId"]}
    assert (previews["hello.py"]["oldText"], previews["hello.py"]["newText"]) == (HELLO, CHANGED)
    assert previews["MADE.txt"]["oldText"] is None
    assert (previews["NOTES.md"]["oldText"], previews["NOTES.md"]["newText"]) == (NOTES, "")
    assert previews["hello.py"]["added"] == previews["hello.py"]["removed"] == 1


async def test_a_change_reaches_the_open_buffer_while_the_command_still_runs(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """Live looks: the file watcher finds the change mid-tool-call; nothing waits for its end
    (the agent keeps the call running until cancelled)."""
    prepare(workspace)
    editor = await editor_factory(
        agent_flags=("--writes-itself", "--wait-seconds", "60"),
    )
    unsaved = HELLO.replace("# the end\n", "# the end, typed by the user\n")
    editor.open("hello.py", unsaved)
    turn = asyncio.ensure_future(editor.command("acp.prompt", "slow-files"))
    merged = unsaved.replace("world", "the files")
    await wait_until(lambda: editor.text("hello.py") == merged or turn.done())
    assert not turn.done(), "the change arrived only when the turn ended"
    # The first live look may have caught the command half-way (the watches were ready before
    # it ended): the rest comes with the next look, still while the command runs.
    expected = {"hello.py", "MADE.txt", "NOTES.md"}
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        picture = await editor.request("acp/snapshot", {})
        hunks = {Path(h["path"]).name: h for h in picture["review"]}
        if set(hunks) == expected or turn.done() or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.05)  # a poll's interval: the picture is had only by asking
    assert not turn.done(), "the other changes arrived only when the turn ended"
    (session,) = picture["sessions"]
    running = [c for c, call in session["toolCalls"].items() if call["status"] == "in_progress"]
    assert set(hunks) == expected
    assert {h["toolCallId"] for h in hunks.values()} == set(running)  # the running command's
    assert await editor.command("acp.cancel") is not None
    assert (await turn)["stopReason"] == "cancelled"
    assert editor.text("hello.py") == merged  # one merge, not two
