"""The zero-plugin commands (``workspace/executeCommand``), against fake agents: their arguments
checked, their answers, the end-of-turn message of an editor without the stream."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from tests.support.fake_agent import Script
from tests.unit.editor.conftest import MakeRig


async def test_prompt_command_takes_one_string(rig: MakeRig) -> None:
    commands = rig().side.commands
    missing = r"^acp\.prompt argument 1 \(text\): missing \(expected a string\)$"
    with pytest.raises(InvalidParams, match=missing):
        await commands.prompt()
    with pytest.raises(InvalidParams, match=r"^acp\.prompt argument 1 \(text\): .* got a list$"):
        await commands.prompt(["not", "text"])
    with pytest.raises(InvalidParams, match=r"^acp\.promptAsync takes 1 argument \(text\), got 2$"):
        await commands.prompt_async("a", "b")
    assert await commands.prompt("hi") == {
        "sessionId": "s1",
        "stopReason": "end_turn",
        "reply": "",  # the fake agent says nothing
        "toolCalls": [],
    }


async def test_follow_command_toggles_or_sets(rig: MakeRig) -> None:
    commands = rig().side.commands
    assert await commands.set_follow() == {"follow": False}
    assert await commands.set_follow(True) == {"follow": True}
    assert await commands.set_follow(None) == {"follow": False}  # null: as none, a toggle
    with pytest.raises(
        InvalidParams, match=r'^acp\.follow argument 1 \(enabled\): expected a boolean, got "yes"$'
    ):
        await commands.set_follow("yes")


async def test_status_command_lists_sessions_and_follow(rig: MakeRig) -> None:
    r = rig()
    await r.side.commands.new_session()
    status = await r.side.commands.agent_status()
    assert status["state"] == "ready" and status["sessions"] == ["s1"]
    assert status["currentSessionId"] == "s1" and status["mode"] == "ask"
    assert status["follow"] is True and status["command"] == ["fake-agent"]


async def test_set_mode_reaches_the_agent(rig: MakeRig) -> None:
    r = rig()
    assert await r.side.commands.set_mode("plan") == {"sessionId": "s1", "modeId": "plan"}
    assert r.agents.current.calls[-1] == ("set_mode", ("s1", "plan"))


RUNS_ON = [
    {
        "sessionUpdate": "tool_call",
        "toolCallId": "c1",
        "title": "Run `npm run dev`",
        "status": "completed",
        "content": [{"type": "terminal", "terminalId": "t1"}],
    },
    {"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "Watch", "status": "pending"},
    {
        "sessionUpdate": "state_update",
        "state": "idle",
        "stopReason": "end_turn",
        "background": [
            {"type": "terminal", "terminalId": "t1"},
            {"type": "tool_call", "toolCallId": "c2"},
            {"type": "_reminder"},
        ],
    },
]


async def test_the_end_of_a_turn_says_what_still_runs_in_the_background(rig: MakeRig) -> None:
    """v2 (schema 1.25): the idle state's ``background``, each by the name the user knows."""
    r = rig(script=Script(turn=RUNS_ON))
    result = await r.side.commands.prompt("start the dev server")
    assert result["background"] == ["Run `npm run dev`", "Watch", "_reminder work"]
    ((said, _kind),) = r.editor.messages
    assert said.endswith(
        "still running in the background: Run `npm run dev`, Watch, _reminder work]"
    )
    quiet = rig()  # nothing runs on: no background in the answer or the message
    assert "background" not in await quiet.side.commands.prompt("hi")
    assert "background" not in quiet.editor.messages[0][0]


async def test_cancel_commands_name_one_tool_call_or_terminal(rig: MakeRig) -> None:
    cancellable = {**RUNS_ON[1], "capabilities": {"cancel": {}}}
    r = rig(script=Script(turn=[RUNS_ON[0], cancellable]))
    commands = r.side.commands
    await commands.prompt("go")
    where = r"^acp\.cancelToolCall argument 1 \(toolCallId\): "
    for bad, says in [
        ((), where + r"missing \(expected a string\)$"),
        ((1,), where + "expected a string, got 1$"),
        (("",), where + 'expected a non-empty string, got ""$'),
        (("c2", " "), r"argument 2 \(sessionId\): expected a non-empty string"),
        (("c2", "s1", "x"), r"takes 1 to 2 arguments \(toolCallId, sessionId\?\), got 3$"),
    ]:
        with pytest.raises(InvalidParams, match=says):
            await commands.cancel_tool_call(*bad)
    assert await commands.cancel_tool_call("c2") == {"sessionId": "s1", "toolCallId": "c2"}
    with pytest.raises(InvalidParams, match="does not offer to cancel tool call c1"):
        await commands.cancel_tool_call("c1", "s1")
    assert await commands.cancel_terminal("t1", "s1") == {"sessionId": "s1", "terminalId": "t1"}
    with pytest.raises(InvalidParams, match="unknown session"):
        await commands.cancel_terminal("t1", "s9")
    assert r.agents.current.calls[-2:] == [
        ("cancel_tool_call", ("s1", "c2")),
        ("cancel_terminal", ("s1", "t1")),
    ]


async def test_commands_check_their_arguments_by_position(rig: MakeRig) -> None:
    """Each error names the command, the position and what it takes (docs/protocol.md's types)."""
    commands = rig().side.commands
    cases = [
        (
            commands.set_mode,
            (),
            r"^acp\.setMode argument 1 \(modeId\): missing \(expected a string\)$",
        ),
        (
            commands.set_mode,
            (3,),
            r"^acp\.setMode argument 1 \(modeId\): expected a string, got 3$",
        ),
        (
            commands.set_config_option,
            ("c", [1]),
            r"^acp\.setConfigOption argument 2 \(value\): expected a string or a boolean, got a",
        ),
        (
            commands.new_session,
            (3,),
            r"^acp\.newSession argument 1 \(agentId\): expected a string or null, got 3$",
        ),
        (
            commands.new_session,
            (None, "yes"),
            r"^acp\.newSession argument 2 \(worktree\): expected a boolean",
        ),
        (
            commands.transcript,
            (5,),
            r"^acp\.transcript argument 1 \(sessionId\): expected a string, got 5$",
        ),
        (commands.select_session, (), r"^acp\.selectSession argument 1 \(sessionId\): missing"),
        (
            commands.restore_checkpoint,
            ("last",),
            r'^acp\.restoreCheckpoint argument 1 \(turn\): expected a number or null, got "last"$',
        ),
        (
            commands.restore_checkpoint,
            (2.5,),
            r"^acp\.restoreCheckpoint argument 1 \(turn\): expected a whole number 1 or more, got",
        ),
        (
            commands.restore_checkpoint,
            (1, "yes"),
            r"^acp\.restoreCheckpoint argument 2 \(confirmed\): expected a boolean",
        ),
        (
            commands.restore_checkpoint,
            (1, True, 7),
            r"^acp\.restoreCheckpoint argument 3 \(sessionId\): expected a string, got 7$",
        ),
        (
            commands.restore_checkpoint,
            (1, True, "s1", 4),
            r"^acp\.restoreCheckpoint takes at most 3 arguments "
            r"\(turn\?, confirmed\?, sessionId\?\), got 4$",
        ),
    ]
    for command, args, says in cases:
        with pytest.raises(InvalidParams, match=says):
            await command(*args)
