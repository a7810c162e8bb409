"""The editor's requests and commands, against fake agents: validation, answers, the picture."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri
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


async def test_rich_requests_validate_their_params(rig: MakeRig) -> None:
    rich = rig(proto.FEATURE_STREAM).side.rich
    with pytest.raises(InvalidParams, match="params must be an object"):
        await rich.prompt(["x"])
    with pytest.raises(InvalidParams, match="prompt must be"):
        await rich.prompt({"prompt": []})
    with pytest.raises(InvalidParams, match=r"params\.sessionId"):
        await rich.cancel({})
    with pytest.raises(InvalidParams, match=r"params\.value"):
        await rich.set_config_option({"sessionId": "s1", "configId": "c", "value": 3})
    with pytest.raises(InvalidParams, match=r"params\.enabled"):
        await rich.set_follow({"enabled": "on"})


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


async def test_review_decide_validates_and_unknown_hunks_are_refused(rig: MakeRig) -> None:
    handlers = rig().side.review_handlers
    with pytest.raises(InvalidParams, match="decision"):
        await handlers.decide({"decision": "maybe", "all": True})
    with pytest.raises(InvalidParams, match="hunkIds"):
        await handlers.decide({"decision": "accept", "hunkIds": [1]})
    with pytest.raises(InvalidParams, match="say which hunks"):
        await handlers.decide({"decision": "accept"})
    with pytest.raises(InvalidParams, match="unknown hunk ids: h9"):
        await handlers.accept_hunk("h9")
    assert await handlers.reject_all() == {"results": []}


async def test_a_reviewed_write_is_a_diagnostic_and_rejecting_reverts_it(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig()
    path = tmp_path / "a.txt"
    path.write_text("one\ntwo\n")
    agent = await r.side.agents.ensure_agent()
    agent.review.queue.record_applied("s1", None, path, "one\ntwo\n", "one\nTWO\n")
    path.write_text("one\nTWO\n")
    await r.editor.settle()
    (diagnostic,) = r.editor.diagnostics[path_to_uri(str(path))]
    assert diagnostic.range.start.line == 1 and diagnostic.source == proto.DIAGNOSTIC_SOURCE
    results = await r.side.review_handlers.reject_file(path_to_uri(str(path)))
    assert [x["state"] for x in results["results"]] == ["rejected"]
    assert path.read_text() == "one\ntwo\n"
    await r.editor.settle()
    assert r.editor.diagnostics[path_to_uri(str(path))] == []


async def test_review_needs_no_agent_and_a_plain_editor_gets_it_again_when_it_opens_a_file(
    rig: MakeRig, tmp_path: Path
) -> None:
    """The queue is the editor side's: a hunk (as one kept from an earlier run) is shown before
    any agent started, and again on didOpen (editors may drop diagnostics of closed files)."""
    r = rig()
    path = tmp_path / "a.txt"
    path.write_text("one\nTWO\n")
    r.side.kept.queue.record_applied("s1", None, path, "one\ntwo\n", "one\nTWO\n")
    await r.editor.settle()
    uri = path_to_uri(str(path))
    assert [d.range.start.line for d in r.editor.diagnostics[uri]] == [1]
    assert r.agents.started == []
    del r.editor.diagnostics[uri]
    r.side.review_handlers.did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "text", 1, "one\nTWO\n"))
    )
    await r.editor.settle()
    assert [d.range.start.line for d in r.editor.diagnostics[uri]] == [1]


async def test_restore_checkpoint_checks_the_turn_and_says_why_it_cannot(rig: MakeRig) -> None:
    rich = rig().side.rich
    with pytest.raises(InvalidParams, match=r"params\.turn"):
        await rich.restore_checkpoint({"turn": 0})
    with pytest.raises(InvalidParams, match="no turn of this session has a checkpoint"):
        await rich.restore_checkpoint({})
