"""The rich ``acp/...`` requests, against fake agents: validation, answers, the picture."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from tests.support.fake_agent import Script
from tests.unit.editor.conftest import MakeRig


async def test_rich_requests_validate_their_params(rig: MakeRig) -> None:
    rich = rig(proto.FEATURE_STREAM).side.rich
    with pytest.raises(InvalidParams, match=r"^params: expected an object, got a list$"):
        await rich.prompt(["x"])
    with pytest.raises(InvalidParams, match="prompt must be"):
        await rich.prompt({"prompt": []})
    with pytest.raises(InvalidParams, match=r"^sessionId: missing \(expected a string\)$"):
        await rich.cancel({})
    with pytest.raises(InvalidParams, match=r'^sessionId: expected a non-empty string, got ""$'):
        await rich.cancel({"sessionId": ""})
    with pytest.raises(InvalidParams, match=r"^value: expected a string or a boolean, got 3$"):
        await rich.set_config_option({"sessionId": "s1", "configId": "c", "value": 3})
    with pytest.raises(InvalidParams, match=r'^enabled: expected a boolean, got "on"$'):
        await rich.set_follow({"enabled": "on"})
    with pytest.raises(InvalidParams, match=r"^index: expected a whole number 0 or more, got -1$"):
        await rich.withdraw_prompt({"sessionId": "s1", "index": -1})
    with pytest.raises(
        InvalidParams, match=r"^limit: expected a whole number from 1 to 200, got 2.5$"
    ):
        await rich.prompt_history({"limit": 2.5})


async def test_new_session_answers_with_its_snapshot_and_the_picture_has_it(
    rig: MakeRig,
) -> None:
    turn = [{"sessionUpdate": "plan", "entries": [{"content": "x", "status": "pending"}]}]
    r = rig(proto.FEATURE_STREAM, script=Script(turn=turn))
    opened = await r.side.rich.new_session(None)
    assert opened["sessionId"] == "s1" and opened["snapshot"]["sessionId"] == "s1"
    await r.side.rich.prompt({"prompt": "go", "sessionId": "s1"})
    picture = await r.side.rich.snapshot({"sessionId": "s1"})
    assert picture["currentSessionId"] == "s1" and picture["agent"]["state"] == "ready"
    (session,) = picture["sessions"]
    assert session["plan"]["entries"][0]["content"] == "x"
    assert picture["review"] == [] and picture["terminals"] == []


async def test_list_sessions_needs_the_agents_support(rig: MakeRig) -> None:
    r = rig(script=Script(capabilities={"list": {}}))
    await r.side.agents.new_session()
    assert (await r.side.rich.list_sessions({}))["sessions"][0]["sessionId"] == "s1"
    plain = rig(script=Script(capabilities={}))
    with pytest.raises(Exception, match="does not support listing"):
        await plain.side.rich.list_sessions({})


async def test_restore_checkpoint_checks_the_turn_and_says_why_it_cannot(rig: MakeRig) -> None:
    rich = rig().side.rich
    with pytest.raises(InvalidParams, match=r"^turn: expected a whole number 1 or more, got 0$"):
        await rich.restore_checkpoint({"turn": 0})
    with pytest.raises(InvalidParams, match="no turn of this session has a checkpoint"):
        await rich.restore_checkpoint({})


async def test_cancelling_one_tool_call_or_terminal_names_its_session(rig: MakeRig) -> None:
    call = {"sessionUpdate": "tool_call", "toolCallId": "c1", "capabilities": {"cancel": {}}}
    r = rig(proto.FEATURE_STREAM, script=Script(turn=[call]))
    rich = r.side.rich
    await rich.prompt({"prompt": "go"})
    with pytest.raises(InvalidParams, match=r"^sessionId: missing"):
        await rich.cancel_tool_call({"toolCallId": "c1"})
    with pytest.raises(InvalidParams, match=r"^terminalId: missing"):
        await rich.cancel_terminal({"sessionId": "s1"})
    assert await rich.cancel_tool_call({"sessionId": "s1", "toolCallId": "c1"}) == {}
    assert await rich.cancel_terminal({"sessionId": "s1", "terminalId": "t1"}) == {}
    with pytest.raises(InvalidParams, match="does not offer"):  # -32602, from the agent side
        await rich.cancel_tool_call({"sessionId": "s1", "toolCallId": "c9"})
    assert r.agents.current.calls[-2:] == [
        ("cancel_tool_call", ("s1", "c1")),
        ("cancel_terminal", ("s1", "t1")),
    ]
