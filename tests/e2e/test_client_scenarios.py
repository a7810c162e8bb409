"""The real client against the scripted agent, one test per scenario it plays."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.client import AcpClient
from tests.support.lsp import wait_until
from tests.support.recorder import Recorder
from tests.support.starter import StartClient

HELLO = 'def greet(name):\n    return f"Hello, {name}!"\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")
    return tmp_path


async def run_prompt(
    start_client: StartClient, text: str, recorder: Recorder | None = None, **config: Any
) -> tuple[AcpClient, str, Recorder, dict[str, Any]]:
    recorder = recorder or Recorder()
    client = await start_client(frontend=recorder, **config)
    assert client.connection.root is not None
    session = await client.new_session(client.connection.root)
    result = await client.prompt(session.id, [{"type": "text", "text": text}])
    return client, session.id, recorder, result


def tool_calls(client: AcpClient, session_id: str) -> list[dict[str, Any]]:
    snap = client.sessions[session_id].state.snapshot()
    order = [e["toolCallId"] for e in snap["entries"] if e["kind"] == "toolCall"]
    return [snap["toolCalls"][i] for i in order]


def assert_mirror_matches(client: AcpClient, session_id: str, recorder: Recorder) -> None:
    """What an editor rebuilds from the change stream equals the sidecar's snapshot."""
    snap = client.sessions[session_id].state.snapshot()
    mirror = dict(recorder.mirrors[session_id], protocolVersion=snap["protocolVersion"])
    assert mirror == snap


async def test_read_follows_the_location_and_returns_the_file(
    start_client: StartClient, workspace: Path
) -> None:
    client, sid, rec, result = await run_prompt(start_client, "read")
    assert result["stopReason"] == "end_turn"
    (call,) = tool_calls(client, sid)
    assert call["kind"] == "read" and call["status"] == "completed"
    assert call["locations"] == [{"path": str(workspace / "hello.py"), "line": 1}]
    assert call["content"] == [{"type": "content", "content": {"type": "text", "text": HELLO}}]
    assert ("read", str(workspace / "hello.py")) in rec.accessed
    # The same id announced twice by tool_call: one tool call, one transcript entry.
    assert sum(1 for c in rec.of_type(sid, "entry") if c["entry"]["kind"] == "toolCall") == 1
    assert_mirror_matches(client, sid, rec)


async def test_edit_allowed_writes_the_file(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, result = await run_prompt(start_client, "edit")
    assert result["stopReason"] == "end_turn"
    (tool_call, options) = rec.permissions[0]
    assert {o["kind"] for o in options} == {
        "allow_once",
        "allow_always",
        "reject_once",
        "reject_always",
    }
    assert tool_call["kind"] == "edit"
    diff = tool_call["content"][0]
    assert diff["type"] == "diff" and diff["oldText"] == HELLO
    assert (workspace / "hello.py").read_text() == diff["newText"] != HELLO
    (call,) = tool_calls(client, sid)
    assert call["status"] == "completed"


async def test_edit_rejected_leaves_the_file_untouched(
    start_client: StartClient, workspace: Path
) -> None:
    client, sid, _rec, result = await run_prompt(start_client, "edit", Recorder("reject_once"))
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO
    (call,) = tool_calls(client, sid)
    assert call["status"] == "failed"


async def test_dismissed_permission_means_reject_once(
    start_client: StartClient, workspace: Path
) -> None:
    # Recorder("nothing") returns None: the dialog was dismissed.
    client, sid, _rec, _result = await run_prompt(start_client, "edit", Recorder("nothing"))
    assert (workspace / "hello.py").read_text() == HELLO
    assert tool_calls(client, sid)[0]["status"] == "failed"


async def test_shell_runs_through_a_terminal(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, result = await run_prompt(start_client, "shell")
    assert result["stopReason"] == "end_turn"
    assert "hello from the demo agent" in "".join(rec.output.values())
    assert "hello.py" in "".join(rec.output.values())  # `ls` ran in the session cwd
    (call,) = tool_calls(client, sid)
    assert call["kind"] == "execute" and call["status"] == "completed"


async def test_plan_is_replaced_whole(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "plan")
    plans = rec.of_type(sid, "plan")
    assert len(plans) >= 2
    final = client.sessions[sid].state.snapshot()["plan"]
    assert final == plans[-1]["plan"]
    assert all(e["status"] == "completed" for e in final["entries"])


async def test_streamed_thoughts_and_text(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "stream")
    snap = client.sessions[sid].state.snapshot()
    roles = [e["role"] for e in snap["entries"] if e["kind"] == "message"]
    assert roles[0] == "user" and "thought" in roles and "agent" in roles
    agent = next(e for e in snap["entries"] if e.get("role") == "agent")
    assert len(rec.of_type(sid, "message_chunk")) > 5  # it arrived in pieces
    assert agent["content"][0]["type"] == "text" and len(agent["content"][0]["text"]) > 20
    assert_mirror_matches(client, sid, rec)


async def test_custom_kinds_statuses_and_content_are_kept(
    start_client: StartClient, workspace: Path
) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "custom")
    snap = client.sessions[sid].state.snapshot()
    (call,) = snap["toolCalls"].values()
    assert call["kind"].startswith("_")
    statuses = [c["set"]["status"] for c in rec.of_type(sid, "tool_call") if "status" in c["set"]]
    assert any(status.startswith("_") for status in statuses)  # custom statuses passed on
    assert any(item.get("type", "").startswith("_") for item in call["content"])
    unknown = [e for e in snap["entries"] if e["kind"] == "update"]
    assert unknown and unknown[0]["update"]["sessionUpdate"].startswith("_")
    assert_mirror_matches(client, sid, rec)


async def test_permission_before_its_tool_call(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "early-permission")
    tool_call, _options = rec.permissions[0]
    # The permission carried the whole tool call, which the state created from it.
    assert tool_call["title"] and tool_call["kind"] == "edit"
    call = tool_calls(client, sid)[0]
    assert call["toolCallId"] == tool_call["toolCallId"] and call["status"] == "completed"
    assert (workspace / "NOTES.md").exists()


async def test_content_chunks_on_protocol_2(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "chunks", protocol_version=2)
    assert client.protocol_version == 2
    assert rec.of_type(sid, "tool_call_content")  # appended one item at a time
    assert_mirror_matches(client, sid, rec)


async def test_protocol_1_is_the_default(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "chunks")
    assert client.protocol_version == 1
    assert not rec.of_type(sid, "tool_call_content")


async def test_all_scenarios_in_one_turn(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, result = await run_prompt(start_client, "all")
    assert result["stopReason"] == "end_turn"
    assert len(tool_calls(client, sid)) >= 5
    assert_mirror_matches(client, sid, rec)


async def test_cancel_answers_the_pending_permission_cancelled(
    start_client: StartClient, workspace: Path
) -> None:
    rec = Recorder(answer_kind=None)  # never answers: the dialog stays open
    client = await start_client(frontend=rec)
    assert client.connection.root is not None
    session = await client.new_session(client.connection.root)
    turn = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "edit"}]))
    await asyncio.wait_for(rec.asked.wait(), 10)
    await client.cancel(session.id)
    result = await asyncio.wait_for(turn, 10)
    assert result["stopReason"] == "cancelled"
    assert rec.permission_cancelled == 1  # the editor's dialog was withdrawn
    assert (workspace / "hello.py").read_text() == HELLO
    statuses = {c["status"] for c in tool_calls(client, session.id)}
    assert statuses <= {"cancelled", "failed"}


async def test_cancel_during_a_long_tool_call(start_client: StartClient, workspace: Path) -> None:
    client = await start_client()
    assert client.connection.root is not None
    session = await client.new_session(client.connection.root)
    turn = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "wait"}]))

    def running() -> bool:  # the long tool call has started: cancel it mid-call
        return [c["status"] for c in tool_calls(client, session.id)] == ["in_progress"]

    await wait_until(running, timeout=15)
    await client.cancel(session.id)
    result = await asyncio.wait_for(turn, 10)
    assert result["stopReason"] == "cancelled"


async def test_allow_always_is_remembered_for_the_workspace(
    start_client: StartClient, workspace: Path
) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "edit", Recorder("allow_always"))
    assert len(rec.permissions) == 1
    assert "allow" in (workspace / ".acp-editor" / "permissions.json").read_text()
    rec.answer_kind = "reject_once"  # would reject, but is not asked again
    await client.prompt(sid, [{"type": "text", "text": "edit"}])
    assert len(rec.permissions) == 1
    assert (workspace / "hello.py").read_text().count("edited by the demo agent") == 2


async def test_reject_always_is_remembered(start_client: StartClient, workspace: Path) -> None:
    client, sid, rec, _ = await run_prompt(start_client, "edit", Recorder("reject_always"))
    rec.answer_kind = "allow_once"
    await client.prompt(sid, [{"type": "text", "text": "edit"}])
    assert len(rec.permissions) == 1 and (workspace / "hello.py").read_text() == HELLO


async def test_auto_approve_setting(start_client: StartClient, workspace: Path) -> None:
    from acp_editor.services.permissions import Rule

    rec = Recorder("reject_once")
    await run_prompt(start_client, "edit", rec, auto_approve=[Rule("allow", "edit")])
    assert rec.permissions == [] and "edited" in (workspace / "hello.py").read_text()
