"""Review knows who did what with several sessions of one agent (issue 28), through the real
sidecar and the scripted agent writing the disk itself: a change made while two sessions' turns
run is reviewed once, under the session whose tool call names the file, else as either's;
undoing a turn puts back only that session's files, in this run or the next; another session's
change over a pending hunk conflicts with it instead of taking its place."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor

HELLO = 'print("hello world")\n\n\n# the end\n'
NOTES = "# notes\n"
FLAGS = ("--writes-itself", "--wait-seconds", "60")


def prepare(workspace: Path) -> None:
    (workspace / "hello.py").write_text(HELLO)
    (workspace / "NOTES.md").write_text(NOTES)


async def snapshot(editor: Editor) -> dict[str, Any]:
    result: dict[str, Any] = await editor.request(proto.ACP_SNAPSHOT, {})
    return result


async def until(editor: Editor, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Ask for the snapshot until ``check`` holds (10 s at most): the server's own schedule."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not check(now := await snapshot(editor)):
        assert loop.time() < deadline, "timed out waiting for the snapshot"
    return now


def running_tool_call(sid: str) -> Callable[[dict[str, Any]], bool]:
    def check(now: dict[str, Any]) -> bool:
        (session,) = [s for s in now["sessions"] if s["sessionId"] == sid]
        return any(e["kind"] == "toolCall" for e in session["entries"])

    return check


async def sessions(editor: Editor) -> tuple[str, str]:
    one = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    two = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    return one, two


def prompt(editor: Editor, sid: str, text: str) -> asyncio.Future[Any]:
    return asyncio.ensure_future(
        editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": text})
    )


async def test_changes_made_while_two_sessions_run_are_reviewed_once_under_their_session(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(agent_flags=FLAGS, features=["stream", "review"])
    one, two = await sessions(editor)
    waiting = prompt(editor, one, "wait")  # one's turn runs (its file watch too) throughout
    await until(editor, running_tool_call(one))

    # Two edits hello.py with a tool call naming it, then writes 40 files with a command that
    # names none: the edit is two's; the burst could be either session's.
    assert (await prompt(editor, two, "edit"))["stopReason"] == "end_turn"
    assert (await prompt(editor, two, "generate"))["stopReason"] == "end_turn"
    await editor.request(proto.ACP_CANCEL, {"sessionId": one})
    assert (await waiting)["stopReason"] == "cancelled"

    review = (await snapshot(editor))["review"]
    (hunk,) = [h for h in review if h["state"] == "pending"]  # once, not once per session
    assert Path(hunk["path"]).name == "hello.py" and hunk["sessionId"] == two
    assert "sessions" not in hunk
    sent = [h for n in editor.of(proto.ACP_REVIEW_CHANGED) for h in n.get("hunks", [])]
    edited = [h for h in sent if Path(h["path"]).name == "hello.py"]
    assert {(h["hunkId"], h["sessionId"]) for h in edited} == {(hunk["hunkId"], two)}
    # The burst's first files, found before it was seen as one, went into its group.
    last = {h["hunkId"]: h for h in sent if h not in edited}
    assert {h["state"] for h in last.values()} <= {"superseded"}
    groups = {
        g["groupId"]: g for n in editor.of(proto.ACP_REVIEW_CHANGED) for g in n.get("groups", [])
    }
    (group,) = groups.values()  # one group, found by whichever session looked first
    assert group["created"] == 40 and group["state"] == "pending"
    assert group["sessionId"] in (one, two) and group["sessions"] == sorted([one, two])


async def test_undoing_a_turn_puts_back_only_its_session_s_files_in_the_next_run_too(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    first = await editor_factory(agent_flags=FLAGS, features=["stream", "review"])
    one, two = await sessions(first)
    assert (await prompt(first, one, "files"))["stopReason"] == "end_turn"
    assert (await prompt(first, two, "generate"))["stopReason"] == "end_turn"
    assert len(list((workspace / "generated").iterdir())) == 40
    await first.close()

    # Another run undoes one's turn: two's files, changed since, stay as they are.
    second = await editor_factory(agent_flags=FLAGS, features=["stream", "review"])
    result = await second.request(proto.ACP_RESTORE_CHECKPOINT, {"sessionId": one, "turn": 1})
    assert result["done"] is True
    assert sorted(Path(p).name for p in result["restored"]) == ["MADE.txt", "NOTES.md", "hello.py"]
    assert (workspace / "hello.py").read_text() == HELLO
    assert (workspace / "NOTES.md").read_text() == NOTES
    assert not (workspace / "MADE.txt").exists()
    assert len(list((workspace / "generated").iterdir())) == 40


async def test_another_session_s_change_over_a_pending_hunk_conflicts_and_neither_is_lost(
    editor_factory: StartEditor, workspace: Path
) -> None:
    prepare(workspace)
    editor = await editor_factory(agent_flags=FLAGS, features=["stream", "review"])
    one, two = await sessions(editor)
    await prompt(editor, one, "hunks")  # marks the first line, adds one at the end
    await prompt(editor, two, "hunks")  # marks the first line again: over one's hunk
    review = (await snapshot(editor))["review"]
    mine = [h for h in review if h["sessionId"] == one and h["state"] == "pending"]
    (top,) = [h for h in mine if h["newLines"] and "reviewed" in h["newLines"][0]]
    (over,) = [h for h in review if h.get("conflictsWith")]
    assert over["sessionId"] == two and over["conflictsWith"] == [top["hunkId"]]
    assert over["oldLines"] == top["newLines"]  # built on one's line, which stays pending

    decide = proto.ACP_REVIEW_DECIDE
    (refused,) = (await editor.request(decide, {"decision": "reject", "hunkIds": [top["hunkId"]]}))[
        "results"
    ]
    assert refused["state"] == "pending" and over["hunkId"] in refused["error"]
    marked = (workspace / "hello.py").read_text()
    assert marked.splitlines()[0].count("reviewed by the demo agent") == 2
    # The later one first, then the earlier: the first line as it was.
    both = [over["hunkId"], top["hunkId"]]
    results = (await editor.request(decide, {"decision": "reject", "hunkIds": both}))["results"]
    assert {r["hunkId"]: r["state"] for r in results} == dict.fromkeys(both, "rejected")
    assert (workspace / "hello.py").read_text().splitlines()[0] == 'print("hello world")'


async def test_undoing_one_session_s_turn_keeps_another_session_s_undo(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """Issue 35, item 1: one's turn edits hello.py (open in the editor), two's creates a file,
    one's turn is undone; undoing two's turn then puts back only two's file: one's undone edit
    stays undone, on disk and in the buffer."""
    (workspace / "hello.py").write_text(HELLO)
    editor = await editor_factory(agent_flags=FLAGS)
    editor.open("hello.py", HELLO)
    one, two = await sessions(editor)
    assert (await prompt(editor, one, "edit"))["stopReason"] == "end_turn"
    assert (await prompt(editor, two, "early-permission"))["stopReason"] == "end_turn"
    assert (workspace / "NOTES.md").exists() and editor.text("hello.py") != HELLO

    undone = await editor.command("acp.restoreCheckpoint", 1, True, one)
    assert [Path(p).name for p in undone["restored"]] == ["hello.py"]
    assert (workspace / "hello.py").read_text() == HELLO and editor.text("hello.py") == HELLO
    edits = len(editor.edits)

    result = await editor.command("acp.restoreCheckpoint", 1, True, two)
    assert [Path(p).name for p in result["restored"]] == ["NOTES.md"]
    assert result["shared"] == [] and not (workspace / "NOTES.md").exists()
    assert (workspace / "hello.py").read_text() == HELLO and editor.text("hello.py") == HELLO
    assert len(editor.edits) == edits  # nothing sent to the buffer of hello.py
