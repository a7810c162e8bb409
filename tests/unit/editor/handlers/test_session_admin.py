"""Deleting a session (the rich request and the zero-plugin command) drops its turn checkpoints
once the agent has forgotten it; a delete the agent refuses drops nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.editor.supervisor import AgentUnavailable
from acp_editor.errors import AgentError, InvalidParams
from tests.support.fake_agent import Script
from tests.support.kept import refs, take_turns, watch
from tests.unit.editor.conftest import MakeRig, Rig


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    work = (tmp_path / "work").resolve()
    work.mkdir()
    (work / "a.txt").write_text("start\n")
    return work


async def deleting_agent(rig: MakeRig, refuse: bool = False) -> Rig:
    r = rig(script=Script(capabilities={"loadSession": True, "delete": True}))
    await r.side.agents.ensure_agent()
    agent = r.agents.current

    async def delete_session(session_id: str) -> Any:
        agent.calls.append(("delete", session_id))
        if refuse:
            raise AgentError("the agent said no")

    agent.delete_session = delete_session  # type: ignore[attr-defined]
    return r


async def test_a_deleted_sessions_checkpoints_go_with_it(rig: MakeRig, root: Path) -> None:
    turns = watch()
    for session in ("s1", "s2", "s3"):
        await take_turns(turns, root, session, 1)
    r = await deleting_agent(rig)
    assert await r.side.session_admin.delete_request({"sessionId": "s1"}) == {"sessionId": "s1"}
    assert await r.side.session_admin.delete_command("s3", True) == {
        "sessionId": "s3",
        "deleted": True,
    }
    assert refs(root) == ["refs/acp/s2/turn-1"]


async def test_a_refused_delete_keeps_the_checkpoints(rig: MakeRig, root: Path) -> None:
    await take_turns(watch(), root, "s1", 1)
    r = await deleting_agent(rig, refuse=True)
    with pytest.raises(AgentUnavailable, match="the agent said no"):
        await r.side.session_admin.delete_request({"sessionId": "s1"})
    assert refs(root) == ["refs/acp/s1/turn-1"]


async def test_session_requests_refuse_wrong_params_naming_the_field(rig: MakeRig) -> None:
    admin = rig().side.session_admin
    with pytest.raises(InvalidParams, match=r'^title: expected a non-empty string, got ""$'):
        await admin.set_title_request({"title": "  "})
    with pytest.raises(InvalidParams, match=r"^sessionId: expected a string, got 3$"):
        await admin.set_title_request({"title": "t", "sessionId": 3})
    with pytest.raises(InvalidParams, match=r'^archived: expected a boolean, got "yes"$'):
        await admin.archive_request({"archived": "yes"})
    with pytest.raises(InvalidParams, match=r"^params: expected an object, got \"now\"$"):
        await admin.logout_request("now")


async def test_session_commands_refuse_wrong_arguments_naming_the_position(rig: MakeRig) -> None:
    admin = rig().side.session_admin
    cases = [
        (admin.set_title_command, (" ",), r'argument 1 \(title\): .* non-empty string, got " "$'),
        (admin.set_title_command, ("t", 3), r"argument 2 \(sessionId\): expected a string, got 3$"),
        (admin.archive_command, (None, "yes"), r'argument 2 \(archived\): .* boolean, got "yes"$'),
        (admin.delete_command, ("s1", True, 1), r"takes at most 2 arguments \(sessionId\?, "),
        (admin.fork_command, (["s1"],), r"argument 1 \(sessionId\): expected a string, got a list"),
        (admin.sign_in_command, (5,), r"argument 1 \(agentId\): expected a string or null, got 5$"),
        (admin.logout_command, ("now",), r'argument 1 \(confirmed\): .* boolean, got "now"$'),
        (admin.status_command, (5,), r"argument 1 \(sessionId\): expected a string, got 5$"),
    ]
    for command, args, says in cases:
        with pytest.raises(InvalidParams, match=r"^acp\.\w+ " + says):
            await command(*args)
