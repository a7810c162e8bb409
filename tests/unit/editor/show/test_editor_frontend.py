"""What the editor is shown, against a fake editor: each event through the rich message when the
editor declared it, else the standard fallback, and tool calls read from the session state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto
from tests.support.fake_agent import Script
from tests.support.lsp import wait_until
from tests.unit.editor.conftest import MakeRig, Rig


def edit_turn(path: Path) -> list[dict[str, Any]]:
    return [
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t1",
            "title": "Edit a.py",
            "kind": "edit",
            "status": "in_progress",
            "locations": [{"path": str(path), "line": 2}],
        },
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "t1",
            "status": "completed",
            "content": [{"type": "diff", "path": str(path), "oldText": "a\n", "newText": "b\n"}],
        },
    ]


async def run_turn(r: Rig) -> None:
    await r.side.agents.prompt([{"type": "text", "text": "go"}])
    await r.editor.settle()


async def test_rich_editor_gets_follow_and_one_diff_preview(rig: MakeRig, tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("one\ntwo\nthree\n")
    r = rig(
        proto.FEATURE_STREAM,
        proto.FEATURE_FOLLOW,
        proto.FEATURE_DIFFS,
        script=Script(turn=edit_turn(path) * 2),
    )
    await run_turn(r)
    (follow,) = r.editor.notes_of(proto.ACP_FOLLOW)
    assert follow["toolCallId"] == "t1" and follow["range"]["start"]["line"] == 1
    (diff,) = r.editor.notes_of(proto.ACP_DIFF)  # resent content is not sent again
    assert (diff["oldText"], diff["newText"], diff["path"]) == ("a\n", "b\n", str(path))
    # The state it refers to was sent before it.
    methods = [m for m, _ in r.editor.notes]
    assert methods.index(proto.ACP_SESSION_CHANGED) < methods.index(proto.ACP_DIFF)
    assert r.editor.requests == []


async def test_plain_editor_gets_show_document_without_focus_and_progress(
    rig: MakeRig, tmp_path: Path
) -> None:
    path = tmp_path / "a.py"
    path.write_text("only line\n")
    r = rig(show_document=True, work_done_progress=True, script=Script(turn=edit_turn(path)))
    await run_turn(r)
    (shown,) = r.editor.requests_of(lsp.WINDOW_SHOW_DOCUMENT)
    assert shown["takeFocus"] is False
    assert shown["selection"]["start"]["line"] == 0  # line 2 of a one-line file: clamped
    events = [(kind, value) for kind, _, value in r.editor.progress.events]
    assert [k for k, _ in events] == ["create", "begin", "report", "end"]
    assert events[1][1] == "Edit a.py" and events[-1][1] == "Edit a.py: completed"
    assert r.editor.notes == []  # nothing rich for an editor that declared nothing


async def test_rich_permission_carries_request_id_command_and_diffs(rig: MakeRig) -> None:
    r = rig(proto.FEATURE_PERMISSIONS)
    r.editor.answers[proto.ACP_REQUEST_PERMISSION] = lambda p: {"optionId": "yes"}
    call = {"toolCallId": "t", "title": "Run", "kind": "execute", "rawInput": {"command": "ls"}}
    options = [{"optionId": "yes", "kind": "allow_once", "name": "Allow"}]
    assert await r.side.frontend.request_permission("s1", call, options) == "yes"
    ((method, params, msg_id),) = r.editor.requests
    assert method == proto.ACP_REQUEST_PERMISSION and params["requestId"] == msg_id
    assert params["command"] == "ls" and params["diffs"] == []


async def test_plain_permission_answer_maps_back_by_title(rig: MakeRig) -> None:
    r = rig()
    r.editor.answers[lsp.WINDOW_SHOW_MESSAGE_REQUEST] = lambda p: {"title": "Reject"}
    options = [
        {"optionId": "ok", "kind": "allow_once", "name": "Allow"},
        {"optionId": "no", "kind": "reject_once"},
    ]
    call = {"toolCallId": "t", "title": "Edit"}
    assert await r.side.frontend.request_permission("s1", call, options) == "no"
    (asked,) = r.editor.requests_of(lsp.WINDOW_SHOW_MESSAGE_REQUEST)
    assert [a["title"] for a in asked["actions"]] == ["Reject", "Allow"]  # a reject first


async def test_a_crash_is_a_failed_status_and_an_error_message_without_a_plugin(
    rig: MakeRig,
) -> None:
    r = rig()
    await r.side.agents.ensure_agent()
    r.agents.current.crash()
    assert r.side.agents.status().current["state"] == "failed"
    ((text, kind),) = r.editor.messages
    assert kind == lsp.MessageType.Error and "fake agent: boom" in text


async def test_terminal_output_is_streamed_and_kept_for_snapshots(rig: MakeRig) -> None:
    r = rig(proto.FEATURE_TERMINALS)
    r.side.frontend.terminal_output("s1", "term", "hello ")
    r.side.frontend.terminal_output("s1", "term", "world")
    r.side.frontend.terminal_exited("s1", "term", {"exitCode": 0, "signal": None})
    assert [p["data"] for p in r.editor.notes_of(proto.ACP_TERMINAL_OUTPUT)] == [
        "hello ",
        "world",
    ]
    (snap,) = r.side.frontend.terminals.snapshots("s1")
    assert snap["output"] == "hello world" and snap["exitStatus"]["exitCode"] == 0
    assert r.side.frontend.terminals.snapshots("other") == []


async def test_a_change_found_on_disk_is_followed_to_its_first_line(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig(proto.FEATURE_FOLLOW)
    path = tmp_path / "b.txt"
    path.write_text("one\ntwo\nTHREE\n")
    agent = await r.side.agents.ensure_agent()
    agent.review.queue.record_applied(
        "s1", "t7", path, "one\ntwo\nthree\n", "one\ntwo\nTHREE\n", found_on_disk=True
    )
    await r.editor.settle()
    (follow,) = r.editor.notes_of(proto.ACP_FOLLOW)
    assert follow["reason"] == "change" and follow["toolCallId"] == "t7"
    assert follow["range"]["start"]["line"] == 2


async def test_a_write_through_us_puts_the_agents_cursor_on_the_changed_line(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig(proto.FEATURE_FOLLOW)
    path = tmp_path / "c.txt"
    path.write_text("one\ntwo\nTHREE\n")
    agent = await r.side.agents.ensure_agent()
    r.side.frontend.file_accessed("write", str(path), "s1")  # fs/write_text_file arrives
    agent.review.queue.record_applied("s1", "t8", path, "one\ntwo\nthree\n", "one\ntwo\nTHREE\n")

    def on_changed_line() -> bool:  # jumps are rate-limited: the latest comes a moment later
        notes = r.editor.notes_of(proto.ACP_FOLLOW)
        return bool(notes) and notes[-1].get("range", {}).get("start", {}).get("line") == 2

    await wait_until(on_changed_line, 5)


async def test_plain_editor_sees_an_agent_terminals_last_line_in_the_progress(
    rig: MakeRig,
) -> None:
    run = {
        "sessionUpdate": "tool_call",
        "toolCallId": "c1",
        "title": "Run tests",
        "kind": "execute",
        "status": "in_progress",
        "content": [{"type": "terminal", "terminalId": "term-9"}],
    }
    r = rig(work_done_progress=True, script=Script(turn=[run]))
    await run_turn(r)
    r.side.frontend.terminal_output("s1", "term-9", "collecting...\n3 passed\n\n")
    r.side.frontend.terminal_output("s1", "other", "not ours\n")  # no tool call shows it
    events = await r.editor.progress.until(3)  # create, begin, the line
    assert [e for e in events if e[0] == "report"] == [
        ("report", "acp/s1/c1", "Run tests: 3 passed")
    ]


async def test_a_tool_call_left_waiting_to_start_stops_showing_when_the_turn_ends(
    rig: MakeRig,
) -> None:
    """fast-agent asks permission for a placeholder call ("pending") it never updates: a plain
    editor's progress for it ends with the turn; one still running may go on."""
    placeholder = {
        "sessionUpdate": "tool_call",
        "toolCallId": "pending",
        "title": "editor/read_buffer",
        "status": "pending",
    }
    running = {**placeholder, "toolCallId": "c2", "title": "Run tests", "status": "in_progress"}
    r = rig(work_done_progress=True, script=Script(turn=[placeholder, running]))
    await run_turn(r)
    events = await r.editor.progress.until(5)  # two creates, two begins, one end
    assert [e for e in events if e[0] == "end"] == [
        ("end", "acp/s1/pending", "editor/read_buffer: not started when the turn ended")
    ]
