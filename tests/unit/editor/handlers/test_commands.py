"""The zero-plugin commands (``workspace/executeCommand``), against fake agents: their arguments
checked, their answers, the end-of-turn message of an editor without the stream."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from tests.support.fake_agent import Script
from tests.unit.editor.conftest import MakeRig


async def test_prompt_command_takes_one_string(rig: MakeRig) -> None:
    commands = rig().side.commands
    with pytest.raises(InvalidParams, match=r"acp\.prompt takes one argument"):
        await commands.prompt()
    with pytest.raises(InvalidParams):
        await commands.prompt(["not", "text"])
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
    with pytest.raises(InvalidParams):
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
    for bad in ((), (1,), ("c2", "s1", "x"), ("",)):
        with pytest.raises(InvalidParams, match="takes the tool call's id"):
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
