"""The zero-plugin commands (``workspace/executeCommand``), against fake agents: their arguments
checked, their answers."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
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
