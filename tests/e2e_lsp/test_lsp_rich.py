"""The rich surface (``acp/...``) for an editor that declares it, and -32602 for bad params."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.protocol import editor as proto
from acp_editor.protocol.editor_shapes import SHAPES
from acp_editor.protocol.shapes import Tup
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.support.lsp import session_mirror, wait_until

ALL = list(proto.FEATURES)


async def test_rich_editor_gets_acp_messages_instead_of_fallbacks(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(features=ALL)
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "read edit shell"})
    assert result["stopReason"] == "end_turn"
    sid = result["sessionId"]
    # No standard fallbacks for declared features.
    assert editor.client.shown_documents == []
    assert editor.client.progress_reports == {}
    # Follow-along, diffs, permission with its diff, terminal output: all as acp/ messages.
    follows = editor.of(proto.ACP_FOLLOW)
    assert follows and follows[0]["uri"] == editor.uri("hello.py")
    assert follows[0]["range"]["start"]["line"] == 0 and follows[0]["reason"] == "location"
    (diff,) = {d["toolCallId"]: d for d in editor.of(proto.ACP_DIFF)}.values()
    assert diff["oldText"] == HELLO and diff["newText"] == HELLO + EDIT_LINE
    assert diff["hunks"] == [
        {
            "oldStart": 2,
            "oldLines": [],
            "newStart": 2,
            "newLines": ['print("edited by the demo agent")'],
            "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
        }
    ]
    (asked,) = editor.asked
    assert asked["toolCall"]["kind"] == "edit" and asked["diffs"][0]["added"] == 1
    assert asked["requestId"].startswith("acp-")  # its own id, to match a $/cancelRequest
    assert asked["options"][0]["kind"] == "allow_once"
    output = "".join(n["data"] for n in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "hello from the demo agent" in output
    assert editor.of(proto.ACP_TERMINAL_EXIT)[0]["exitStatus"]["exitCode"] == 0
    assert editor.of(proto.ACP_AGENT_STATUS)[-1]["state"] == "ready"
    # The change stream rebuilds exactly the snapshot the server holds.
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    (session,) = snapshot["sessions"]
    assert session_mirror(editor.of(proto.ACP_SESSION_CHANGED), sid) == session
    assert snapshot["terminals"][0]["exitStatus"]["exitCode"] == 0
    assert snapshot["currentSessionId"] == sid


async def test_changes_are_coalesced_into_frames(editor_factory: StartEditor) -> None:
    editor = await editor_factory(features=["stream"])
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "stream"})
    notes = editor.of(proto.ACP_SESSION_CHANGED)
    changes = [c for n in notes for c in n["changes"]]
    assert len(notes) < len(changes)  # several changes per notification
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {"sessionId": result["sessionId"]})
    assert session_mirror(notes, result["sessionId"]) == snapshot["sessions"][0]


async def test_late_editor_catches_up_with_a_snapshot(editor_factory: StartEditor) -> None:
    editor = await editor_factory(features=["stream"])
    first = await editor.request(proto.ACP_NEW_SESSION, {})
    assert first["snapshot"]["sessionId"] == first["sessionId"]
    await editor.request(proto.ACP_PROMPT, {"sessionId": first["sessionId"], "prompt": "plan"})
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    plan = snapshot["sessions"][0]["plan"]
    assert plan and all(e["status"] == "completed" for e in plan["entries"])
    assert snapshot["agent"]["state"] == "ready"
    assert snapshot["agent"]["agentInfo"]["name"]


async def test_modes_config_follow_and_sessions(editor_factory: StartEditor) -> None:
    editor = await editor_factory(features=["stream"])
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    assert await editor.request(proto.ACP_SET_MODE, {"sessionId": sid, "modeId": "ask"}) == {}
    snap = (await editor.request(proto.ACP_SNAPSHOT, {"sessionId": sid}))["sessions"][0]
    assert snap["modes"]["currentModeId"] == "ask"
    option = snap["configOptions"][0]
    value = next(o["value"] for o in option["options"] if o["value"] != option["currentValue"])
    params = {"sessionId": sid, "configId": option["id"], "value": value}
    assert await editor.request(proto.ACP_SET_CONFIG_OPTION, params) == {}
    off = {"enabled": False, "allSessions": False}
    assert await editor.request(proto.ACP_SET_FOLLOW, {"enabled": False}) == off
    listed = await editor.request(proto.ACP_LIST_SESSIONS, {})
    assert sid in [s["sessionId"] for s in listed["sessions"]]
    loaded = await editor.request(proto.ACP_LOAD_SESSION, {"sessionId": sid})
    assert loaded["sessionId"] == sid


async def test_cancel_request_withdraws_the_permission(
    editor_factory: StartEditor, workspace: Path
) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    editor = await editor_factory(features=ALL, answer_permission=lambda _p: never)
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    turn = asyncio.ensure_future(
        editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "edit"})
    )
    await asyncio.wait_for(editor.asked_event.wait(), 15)
    assert await editor.request(proto.ACP_CANCEL, {"sessionId": sid}) == {}
    assert (await asyncio.wait_for(turn, 15))["stopReason"] == "cancelled"
    await wait_until(lambda: bool(editor.withdrawn))
    assert (workspace / "hello.py").read_text() == HELLO


BAD_PARAMS = [
    (proto.ACP_NEW_SESSION, {"cwd": 5}),
    (proto.ACP_PROMPT, {"prompt": 5}),
    (proto.ACP_PROMPT, {"prompt": []}),
    (proto.ACP_CANCEL, {}),
    (proto.ACP_SNAPSHOT, {"sessionId": 5}),
    (proto.ACP_SET_MODE, {"sessionId": "x"}),
    (proto.ACP_SET_CONFIG_OPTION, {"sessionId": "x", "configId": "y", "value": [1]}),
    (proto.ACP_LIST_SESSIONS, {"cwd": 1}),
    (proto.ACP_LOAD_SESSION, {}),
    (proto.ACP_SET_FOLLOW, {"enabled": "yes"}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "maybe"}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "accept", "hunkIds": "h1"}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "accept"}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "accept", "hunkIds": ["nope"]}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "accept", "groupIds": "g1"}),
    (proto.ACP_REVIEW_DECIDE, {"decision": "reject", "groupIds": ["nope"]}),
    (proto.ACP_REVIEW_GROUP_FILES, {}),
    (proto.ACP_REVIEW_GROUP_FILES, {"groupId": 5}),
    (proto.ACP_REVIEW_GROUP_FILES, {"groupId": "nope"}),
    (proto.ACP_RESTORE_CHECKPOINT, {"turn": "last"}),
    (proto.ACP_RESTORE_CHECKPOINT, {"turn": 0}),
    (proto.ACP_RESTORE_CHECKPOINT, {"sessionId": 7}),
    (proto.ACP_DELETE_SESSION, {"sessionId": 5}),
    (proto.ACP_FORK_SESSION, {"sessionId": ["s1"]}),
    (proto.ACP_LOGOUT, "now"),
    (proto.ACP_FIND_FILES, {"query": None}),
    (proto.ACP_FIND_FILES, {"query": "a", "limit": 501}),
    (proto.ACP_PROMPT_HISTORY, {"limit": "all"}),
    (proto.ACP_CANCEL, {"sessionId": "s", "dropQueued": "yes"}),
    (proto.ACP_EDIT_PROMPT, {"sessionId": "s", "index": 0}),
    (proto.ACP_EDIT_PROMPT, {"sessionId": "s", "index": -1, "prompt": "x"}),
    (proto.ACP_WITHDRAW_PROMPT, {"sessionId": "s", "index": "0"}),
    (proto.ACP_WITHDRAW_PROMPT, {"sessionId": "s", "index": 99}),
    (proto.ACP_SELECT_SESSION, {}),
    (proto.ACP_AGENTS, "all"),
    (proto.ACP_NEW_SESSION, {"agent": 3}),
    (proto.ACP_NEW_SESSION, {"agent": "no-such-agent"}),
    (proto.ACP_NEW_SESSION, {"worktree": "yes"}),
    (proto.ACP_BRING_BACK, {}),
    (proto.ACP_BRING_BACK, {"sessionId": "not-a-worktree-session"}),
    (proto.ACP_DISCARD_WORKTREE, {"sessionId": 3}),
    (proto.ACP_DISCARD_WORKTREE, {"sessionId": "not-a-worktree-session"}),
    (proto.ACP_SELECT_SESSION, {"sessionId": "nope"}),
    (proto.ACP_SET_FOLLOW, {"enabled": True, "allSessions": "yes"}),
    (proto.ACP_SIGN_IN, {"agent": 5}),
    (proto.ACP_SET_SESSION_TITLE, {"title": ""}),
    (proto.ACP_SET_SESSION_TITLE, {"title": "t", "sessionId": 3}),
    (proto.ACP_ARCHIVE_SESSION, {"archived": "yes"}),
    (proto.ACP_CANCEL_TOOL_CALL, {"sessionId": "s1"}),
    (proto.ACP_CANCEL_TOOL_CALL, {"sessionId": "nope", "toolCallId": "t1"}),
    (proto.ACP_CANCEL_TERMINAL, {"terminalId": 3}),
]
REQUESTS = [
    m.method
    for m in proto.MESSAGES.values()
    if m.direction == "editor → server" and m.kind == "request"
]


def test_every_request_has_a_bad_params_case() -> None:
    assert {method for method, _ in BAD_PARAMS} == set(REQUESTS)


async def test_bad_params_are_answered_with_invalid_params(editor_factory: StartEditor) -> None:
    editor = await editor_factory(features=["stream"])
    cases = BAD_PARAMS + [(method, 42) for method in REQUESTS] + [(m, [1, 2]) for m in REQUESTS]
    for method, params in cases:
        with pytest.raises(JsonRpcException) as err:
            await asyncio.wait_for(editor.request(method, params), 10)
        assert err.value.code == -32602, (method, params, err.value)
    # The server is still fine afterwards.
    on = {"enabled": True, "allSessions": False}
    assert (await editor.request(proto.ACP_SET_FOLLOW, {"enabled": True})) == on


WHERE = "{} argument {} ({}): "
BAD_ARGUMENTS = [  # the command, its arguments and what the error says
    (proto.CMD_PROMPT, [], WHERE + "missing (expected a string)", 1, "text"),
    (proto.CMD_PROMPT, [["x"]], WHERE + "expected a string, got a list", 1, "text"),
    (proto.CMD_PROMPT_ASYNC, [], WHERE + "missing (expected a string)", 1, "text"),
    (proto.CMD_PROMPT_ASYNC, ["a", "b"], "{} takes 1 argument (text), got 2", 0, ""),
    (proto.CMD_TRANSCRIPT, [5], WHERE + "expected a string, got 5", 1, "sessionId"),
    (proto.CMD_CANCEL_TOOL_CALL, [], WHERE + "missing (expected a string)", 1, "toolCallId"),
    (
        proto.CMD_CANCEL_TOOL_CALL,
        ["c1", ""],
        WHERE + 'expected a non-empty string, got ""',
        2,
        "sessionId",
    ),
    (proto.CMD_CANCEL_TERMINAL, [3], WHERE + "expected a string, got 3", 1, "terminalId"),
    (proto.CMD_CANCEL_TERMINAL, [], WHERE + "missing (expected a string)", 1, "terminalId"),
    (proto.CMD_NEW_SESSION, [3], WHERE + "expected a string or null, got 3", 1, "agentId"),
    (proto.CMD_NEW_SESSION, [None, "yes"], WHERE + 'expected a boolean, got "yes"', 2, "worktree"),
    (proto.CMD_BRING_BACK, [""], WHERE + 'expected a non-empty string, got ""', 1, "sessionId"),
    (
        proto.CMD_DISCARD_WORKTREE,
        ["s1", "yes"],
        WHERE + 'expected a boolean, got "yes"',
        2,
        "confirmed",
    ),
    (proto.CMD_SELECT_SESSION, [], WHERE + "missing (expected a string)", 1, "sessionId"),
    (proto.CMD_SET_MODE, [3], WHERE + "expected a string, got 3", 1, "modeId"),
    (proto.CMD_SET_MODE, [], WHERE + "missing (expected a string)", 1, "modeId"),
    (
        proto.CMD_SET_CONFIG_OPTION,
        ["c"],
        WHERE + "missing (expected a string or a boolean)",
        2,
        "value",
    ),
    (
        proto.CMD_SET_CONFIG_OPTION,
        ["c", [1]],
        WHERE + "expected a string or a boolean, got a list",
        2,
        "value",
    ),
    (proto.CMD_FOLLOW, ["yes"], WHERE + 'expected a boolean, got "yes"', 1, "enabled"),
    (
        proto.CMD_RESTORE_CHECKPOINT,
        ["last"],
        WHERE + 'expected a number or null, got "last"',
        1,
        "turn",
    ),
    (
        proto.CMD_RESTORE_CHECKPOINT,
        [0],
        WHERE + "expected a whole number 1 or more, got 0",
        1,
        "turn",
    ),
    (
        proto.CMD_RESTORE_CHECKPOINT,
        [1, False, 7],
        WHERE + "expected a string, got 7",
        3,
        "sessionId",
    ),
    (proto.CMD_ACCEPT_HUNK, [], WHERE + "missing (expected a string)", 1, "hunkId"),
    (proto.CMD_REJECT_HUNK, [5], WHERE + "expected a string, got 5", 1, "hunkId"),
    (proto.CMD_ACCEPT_FILE, [], WHERE + "missing (expected a string)", 1, "uri"),
    (proto.CMD_REJECT_FILE, [{}], WHERE + "expected a string, got an object", 1, "uri"),
    (proto.CMD_ACCEPT_GROUP, [], WHERE + "missing (expected a string)", 1, "groupId"),
    (proto.CMD_REJECT_GROUP, ["g1", 2], WHERE + "expected a string, got 2", 2, "moreGroupIds"),
    (proto.CMD_GROUP_FILES, [], WHERE + "missing (expected a string)", 1, "groupId"),
    (proto.CMD_TAKE_AGENT_VERSION, [1], WHERE + "expected a string, got 1", 1, "uri"),
    (proto.CMD_KEEP_MINE, [], WHERE + "missing (expected a string)", 1, "uri"),
    (proto.CMD_DELETE_SESSION, [5], WHERE + "expected a string, got 5", 1, "sessionId"),
    (proto.CMD_FORK_SESSION, [["s1"]], WHERE + "expected a string, got a list", 1, "sessionId"),
    (
        proto.CMD_SET_SESSION_TITLE,
        [" "],
        WHERE + 'expected a non-empty string, got " "',
        1,
        "title",
    ),
    (proto.CMD_SET_SESSION_TITLE, [], WHERE + "missing (expected a string)", 1, "title"),
    (
        proto.CMD_ARCHIVE_SESSION,
        [None, "yes"],
        WHERE + 'expected a boolean, got "yes"',
        2,
        "archived",
    ),
    (
        proto.CMD_SESSION_STATUS,
        ["s1", "s2"],
        "{} takes at most 1 argument (sessionId?), got 2",
        0,
        "",
    ),
    (proto.CMD_SIGN_IN, [5], WHERE + "expected a string or null, got 5", 1, "agentId"),
    (proto.CMD_LOGOUT, ["now"], WHERE + 'expected a boolean, got "now"', 1, "confirmed"),
]
TAKE_NONE = {proto.CMD_CANCEL, proto.CMD_STATUS, proto.CMD_ACCEPT_ALL, proto.CMD_REJECT_ALL}
"""Commands without arguments: they ignore any given, as they always did."""


def test_every_command_that_takes_arguments_has_a_bad_arguments_case() -> None:
    assert {command for command, *_ in BAD_ARGUMENTS} == set(proto.COMMANDS) - TAKE_NONE
    for command in TAKE_NONE:
        bare = command.split(".", 1)[1]
        shape = SHAPES[bare[0].upper() + bare[1:] + "Arguments"]
        assert isinstance(shape, Tup) and not shape.items and shape.rest is None, command


async def test_bad_arguments_are_answered_naming_the_command_and_the_position(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory()
    for command, args, says, number, name in BAD_ARGUMENTS:
        with pytest.raises(JsonRpcException) as err:
            await asyncio.wait_for(editor.command(command, *args), 10)
        assert err.value.code == -32602, (command, args, err.value)
        assert says.format(command, number, name) in str(err.value), (command, args)
    assert (await editor.command(proto.CMD_FOLLOW, None)) == {"follow": False}  # null: none
