"""Lifecycle against real processes: versions, authentication, sessions, stderr, shutdown."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from acp_editor import procs
from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.agent.frontend import SilentFrontend
from acp_editor.errors import AgentError, InvalidParams
from tests.support.lsp import wait_until
from tests.support.recorder import Recorder
from tests.support.starter import SCRIPTED_AGENT, StartClient


class ChoosesAuth(Recorder):
    def __init__(self, choice: str | None) -> None:
        super().__init__()
        self.choice = choice
        self.offered: list[dict[str, Any]] = []

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        self.offered = methods
        return self.choice


def record_methods(client: AcpClient) -> list[str]:
    methods: list[str] = []
    client.connection.tracers.append(
        lambda d, m: methods.append(m["method"]) if d == "send" and "method" in m else None
    )
    return methods


async def test_initialize_is_honest(start_client: StartClient) -> None:
    client = await start_client()
    assert client.protocol_version == 1
    assert client.connection.info.result["agentCapabilities"]["loadSession"] is True


async def test_unsupported_version_is_refused_clearly(start_client: StartClient) -> None:
    with pytest.raises(AgentError, match="protocol version 99"):
        await start_client("--answer-version", "99")


async def test_agent_that_dies_at_start_is_reported_with_its_stderr(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "import sys; sys.stderr.write('no API key\\n'); sys.exit(3)"]
    client = AcpClient(AgentConfig(command))
    with pytest.raises(AgentError, match="no API key"):
        await client.start(str(tmp_path))
    await client.shutdown()


async def test_missing_agent_command_is_a_clear_error(tmp_path: Path) -> None:
    client = AcpClient(AgentConfig(["no-such-agent-xyz"]))
    with pytest.raises(AgentError, match="agent command not found: 'no-such-agent-xyz'"):
        await client.start(str(tmp_path))


async def test_preselected_auth_method(start_client: StartClient, tmp_path: Path) -> None:
    client = await start_client("--require-auth", auth_method="demo-login")
    session = await client.new_session(str(tmp_path))
    assert session.id


async def test_front_end_chooses_among_every_method_with_its_type(
    start_client: StartClient, tmp_path: Path
) -> None:
    rec = ChoosesAuth("demo-login")
    client = await start_client("--require-auth", frontend=rec)
    methods = record_methods(client)
    await client.new_session(str(tmp_path))
    assert [m["type"] for m in rec.offered] == ["agent", "terminal"]
    assert "authenticate" in methods


async def test_a_terminal_method_is_run_by_the_front_end_never_sent(
    start_client: StartClient, tmp_path: Path
) -> None:
    # The default front end runs nothing: the sign-in fails saying what to run, and the
    # agent is never asked to authenticate with a terminal method.
    client = await start_client("--require-auth", "--login-file", str(tmp_path / "login"))
    terminal_ids = [
        m["id"] for m in client.connection.info.auth_methods if m.get("type") == "terminal"
    ]
    assert terminal_ids, "the scripted agent offers a terminal-type method"
    client.config.auth_method = terminal_ids[0]
    methods = record_methods(client)
    with pytest.raises(AgentError, match="was not finished; to sign in yourself, run"):
        await client.new_session(str(tmp_path))
    assert "authenticate" not in methods


async def test_no_auth_method_is_a_clear_error(start_client: StartClient, tmp_path: Path) -> None:
    client = await start_client("--require-auth", frontend=ChoosesAuth(None))
    with pytest.raises(AgentError, match="needs you to sign in"):
        await client.new_session(str(tmp_path))


async def test_load_replays_the_conversation(start_client: StartClient, tmp_path: Path) -> None:
    client = await start_client()
    first = await client.new_session(str(tmp_path))
    await client.prompt(first.id, [{"type": "text", "text": "hello there"}])
    await client.close_session(first.id)
    loaded = await client.load_session(first.id, str(tmp_path))
    snap = loaded.state.snapshot()
    roles = [e["role"] for e in snap["entries"] if e["kind"] == "message"]
    assert roles[:2] == ["user", "agent"]
    assert "hello there" in str(snap["entries"][0]["content"])


async def test_list_sessions_and_modes(start_client: StartClient, tmp_path: Path) -> None:
    client = await start_client()
    session = await client.new_session(str(tmp_path))
    listed = await client.list_sessions()
    assert any(s["sessionId"] == session.id for s in listed["sessions"])
    modes = session.state.snapshot()["modes"]
    other = next(m["id"] for m in modes["availableModes"] if m["id"] != modes["currentModeId"])
    await client.set_mode(session.id, other)
    assert session.state.snapshot()["modes"]["currentModeId"] == other


async def test_five_megabytes_of_stderr_do_not_stall_initialize(start_client: StartClient) -> None:
    began = time.monotonic()
    client = await start_client("--stderr-flood", str(5 * 1024 * 1024))
    assert client.protocol_version == 1
    assert time.monotonic() - began < 15


async def test_agent_ignoring_stdin_eof_and_its_children_are_killed(
    start_client: StartClient,
) -> None:
    client = await start_client("--ignore-stdin-eof")
    assert client.connection.process is not None
    pgid = client.connection.process.proc.pid
    await wait_until(lambda: len(procs.group_members(pgid)) >= 2, timeout=15)  # its child too
    members = procs.group_members(pgid)
    began = time.monotonic()
    await client.shutdown()
    assert time.monotonic() - began < 8
    assert procs.group_members(pgid) == []
    for pid in members:
        assert not Path(f"/proc/{pid}").exists() or _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] == b"Z"


async def test_crash_mid_turn_fails_the_prompt_and_tells_the_front_end(
    start_client: StartClient, tmp_path: Path
) -> None:
    rec = Recorder()
    client = await start_client(frontend=rec)
    session = await client.new_session(str(tmp_path))
    turn = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "wait"}]))
    await wait_until(lambda: waiting(session.state.snapshot()), timeout=15)  # mid-turn
    assert client.connection.process is not None
    os.killpg(client.connection.process.proc.pid, 9)
    with pytest.raises(Exception, match="exited"):
        await asyncio.wait_for(turn, 10)
    await asyncio.wait_for(client.exited.wait(), 5)
    assert rec.exits and rec.exits[0][2] is False


def waiting(snapshot: dict[str, Any]) -> bool:
    """The ``wait`` scenario's long tool call is running."""
    return any(call["status"] == "in_progress" for call in snapshot["toolCalls"].values())


def test_frontend_defaults_are_harmless() -> None:
    frontend = SilentFrontend()
    assert asyncio.run(frontend.request_permission("s", {}, [])) is None
    assert SCRIPTED_AGENT[0] == sys.executable


async def test_env_allowlist_restricts_what_the_agent_and_its_commands_see(
    tmp_path: Path, start_client: StartClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "s3cret")
    monkeypatch.setenv("LC_DEMO", "x")
    dump = tmp_path / "env.json"
    script = f"import os, json; open({str(dump)!r}, 'w').write(json.dumps(dict(os.environ)))"
    client = AcpClient(
        AgentConfig(
            [sys.executable, "-c", script], env={"EXTRA": "1"}, env_allowlist=["PATH", "LC_*"]
        )
    )
    with pytest.raises(AgentError):
        await client.start(str(tmp_path))  # it exits at once: we only want what it saw
    seen = json.loads(dump.read_text())
    assert "SECRET_TOKEN" not in seen and seen["LC_DEMO"] == "x" and seen["EXTRA"] == "1"
    assert "PATH" in seen

    agent = await start_client(env_allowlist=["PATH"])
    session = await agent.new_session(str(tmp_path))
    terminals = agent.requests.terminals
    created = await terminals.create(
        {"sessionId": session.id, "command": "env"}, default_cwd=str(tmp_path)
    )
    params = {"sessionId": session.id, "terminalId": created["terminalId"]}
    await terminals.wait_for_exit(params)
    output = (await terminals.output(params))["output"]
    assert "PATH=" in output and "SECRET_TOKEN" not in output


async def test_a_session_cannot_reach_another_sessions_project(
    start_client: StartClient, tmp_path: Path
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (two / "secret.txt").write_text("two's file")
    client = await start_client(cwd=one)
    first = await client.new_session(str(one))
    second = await client.new_session(str(two))
    files = client.requests.files
    read = {"sessionId": second.id, "path": str(two / "secret.txt")}
    assert (await files.read_text_file(read))["content"] == "two's file"
    with pytest.raises(InvalidParams, match="outside the allowed roots") as err:
        await files.read_text_file({**read, "sessionId": first.id})
    assert str(one) in err.value.message and str(two) not in err.value.message.split("allowed:")[1]
    with pytest.raises(InvalidParams, match="outside the allowed roots"):
        await client.requests.terminals.create(
            {"sessionId": first.id, "command": "true", "cwd": str(two)}, default_cwd=str(one)
        )


async def test_loading_the_open_session_again_shows_its_conversation_once(
    start_client: StartClient, tmp_path: Path
) -> None:
    """The agent replays the whole conversation on session/load: over the state already open
    it would be there twice."""
    client = await start_client()
    first = await client.new_session(str(tmp_path))
    await client.prompt(first.id, [{"type": "text", "text": "hello there"}])
    before = first.state.snapshot()["entries"]
    loaded = await client.load_session(first.id, str(tmp_path))
    entries = loaded.state.snapshot()["entries"]
    users = [e for e in entries if e["kind"] == "message" and e["role"] == "user"]
    assert len(users) == 1, entries
    assert len(entries) == len(before)


async def test_a_session_s_file_access_follows_the_editor_s_folders(
    start_client: StartClient, tmp_path: Path
) -> None:
    docs, extra = tmp_path / "docs", tmp_path / "extra"
    docs.mkdir()
    extra.mkdir()
    client = await start_client("--fast", cwd=tmp_path)
    session = await client.new_session(str(tmp_path), [str(docs)])
    policy = client.requests.files.policy
    assert docs.resolve() in policy.roots_for(session.id)
    client.set_directories(session.id, [str(tmp_path), str(extra)])
    roots = policy.roots_for(session.id)
    assert extra.resolve() in roots and docs.resolve() not in roots
    assert session.additional_directories == [str(extra)]


async def test_delete_fork_and_logout_go_to_an_agent_that_advertises_them(
    start_client: StartClient, tmp_path: Path
) -> None:
    """Checked against the schema like everything sent (session/fork: the unstable one)."""
    client = await start_client("--fast", cwd=tmp_path)
    parent = await client.new_session(str(tmp_path))
    await client.prompt(parent.id, [{"type": "text", "text": "stream"}])
    fork = await client.fork_session(parent.id, str(tmp_path))
    assert fork.id != parent.id
    assert fork.state.snapshot()["entries"] == parent.state.snapshot()["entries"]
    await client.delete_session(parent.id)
    assert parent.id not in client.sessions
    listed = {s["sessionId"] for s in (await client.list_sessions())["sessions"]}
    assert parent.id not in listed and fork.id in listed
    await client.logout()
