"""The server process: clean stdout, exit codes, the agent's life and death behind it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor import procs
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import wait_until
from tests.support.starter import SCRIPTED_AGENT

SERVER = [sys.executable, "-m", "acp_editor", "--stdio"]


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def parse_frames(data: bytes) -> list[dict[str, Any]]:
    """Every byte of stdout must belong to a valid LSP frame."""
    frames = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        assert sep, f"bytes outside any frame: {data[:80]!r}"
        headers = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        assert set(headers) <= {b"Content-Length", b"Content-Type"}, headers
        length = int(headers[b"Content-Length"])
        body, data = rest[:length], rest[length:]
        assert len(body) == length, "truncated frame"
        message = json.loads(body)
        assert message["jsonrpc"] == "2.0"
        frames.append(message)
    return frames


class RawEditor:
    """Talks LSP over the server's raw pipes, keeping every byte of its stdout."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.raw = bytearray()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := await self.proc.stdout.read(65536):
            self.raw.extend(chunk)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(frame(message))

    async def response(self, msg_id: int, timeout: float = 30) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                for message in parse_frames(bytes(self.raw)):
                    if message.get("id") == msg_id and "method" not in message:
                        return message
                await asyncio.sleep(0.02)  # a poll's interval: the bytes are read in the background


async def start_raw(workspace: Path, *agent_flags: str, features: list[str]) -> RawEditor:
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        "--",
        *SCRIPTED_AGENT,
        *agent_flags,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    editor = RawEditor(proc)
    uri = path_to_uri(str(workspace))
    editor.send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": os.getpid(),
                "rootUri": uri,
                "capabilities": {"window": {"showDocument": {"support": True}}},
                "initializationOptions": {"acp": {"features": features}},
            },
        }
    )
    await editor.response(1)
    editor.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    return editor


@pytest.mark.parametrize("features", [[], list(proto.FEATURES)])
async def test_stdout_holds_nothing_but_lsp_frames(workspace: Path, features: list[str]) -> None:
    editor = await start_raw(workspace, features=features)
    editor.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "acp.prompt", "arguments": ["stream plan read custom"]},
        }
    )
    result = await editor.response(2)
    assert result["result"]["stopReason"] == "end_turn"
    editor.send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    await editor.response(3)
    editor.send({"jsonrpc": "2.0", "method": "exit"})
    assert await asyncio.wait_for(editor.proc.wait(), 15) == 0
    await editor.reader
    frames = parse_frames(bytes(editor.raw))
    assert len(frames) > 3


async def test_exit_without_shutdown_is_exit_code_1_and_the_agent_dies(workspace: Path) -> None:
    editor = await start_raw(workspace, features=[])
    editor.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "acp.status", "arguments": []},
        }
    )
    await editor.response(2)
    agents = procs_of_parent(editor.proc.pid)
    assert agents, "the agent was started"
    editor.send({"jsonrpc": "2.0", "method": "exit"})
    assert await asyncio.wait_for(editor.proc.wait(), 15) == 1
    await wait_until(lambda: all(not alive(pid) for pid in agents), 10)


async def start_stubborn(workspace: Path) -> tuple[RawEditor, int]:
    """A server whose agent ignores stdin EOF and SIGTERM and has a child that does the same
    (as claude-code-acp's children may): returns the editor and the agent's process group."""
    editor = await start_raw(workspace, "--ignore-stdin-eof", features=[])
    editor.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "acp.status", "arguments": []},
        }
    )
    await editor.response(2)
    # A child forked this very moment (git, the reaper) shows the server's command line until it
    # execs: wait until the agent is the one left, rather than judge one instant.
    await wait_until(lambda: len(procs_of_parent(editor.proc.pid)) == 1, 10)
    (agent_pid,) = procs_of_parent(editor.proc.pid)
    await wait_until(lambda: len(procs.group_members(agent_pid)) >= 2, 10)  # agent and child
    return editor, agent_pid


async def test_editor_disconnect_ends_the_agent_and_its_terminals(workspace: Path) -> None:
    editor, agent_pid = await start_stubborn(workspace)
    assert editor.proc.stdin is not None
    editor.proc.stdin.close()  # the editor went away
    await asyncio.wait_for(editor.proc.wait(), 20)
    await wait_until(lambda: procs.group_members(agent_pid) == [], 10)


async def test_shutdown_is_answered_at_once_and_a_stubborn_agent_ends_by_exit(
    workspace: Path,
) -> None:
    """Editors give ``shutdown`` little time (lsp-mode 0.5 s, eglot 1.5 s before SIGKILL): it
    is answered before the agent has ended (it took 515-555 ms with this agent when the
    answer waited for it), and by ``exit`` the agent's group is gone, its child too."""
    editor, agent_pid = await start_stubborn(workspace)
    editor.send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    answer = await editor.response(3)
    assert "error" not in answer
    # The agent ignores SIGTERM and is killed only after a grace: still there when the answer
    # comes means the answer did not wait for it (no clock read, so no flake under load).
    assert procs.group_members(agent_pid) != [], "shutdown was answered only once the agent ended"
    editor.send({"jsonrpc": "2.0", "method": "exit"})
    assert await asyncio.wait_for(editor.proc.wait(), 15) == 0
    assert procs.group_members(agent_pid) == []


async def test_shutdown_then_a_closed_pipe_still_ends_the_stubborn_agent(workspace: Path) -> None:
    """An editor that answers ``shutdown`` by closing the pipe (no ``exit``): the teardown
    begun at the answer still ends the agent's group before the server exits."""
    editor, agent_pid = await start_stubborn(workspace)
    editor.send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    await editor.response(3)
    assert editor.proc.stdin is not None
    editor.proc.stdin.close()
    await asyncio.wait_for(editor.proc.wait(), 15)
    assert procs.group_members(agent_pid) == []


async def test_a_killed_sidecar_leaves_no_process(workspace: Path) -> None:
    """SIGKILL gives the sidecar no chance to clean up: the parent-death signal ends the agent,
    the reaper its child."""
    editor, agent_pid = await start_stubborn(workspace)
    reapers = [p for p in children_of(editor.proc.pid) if b"reaper.py" in cmdline(p)]
    assert len(reapers) == 1
    editor.proc.kill()
    await editor.proc.wait()
    await wait_until(lambda: procs.group_members(agent_pid) == [], 10)
    await wait_until(lambda: not alive(reapers[0]), 10)  # and the reaper is gone too


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def procs_of_parent(ppid: int) -> list[int]:
    """The server's children but its reaper and any git it runs a moment (a checkpoint, seen
    once beside the agent in CI): the agent."""
    return [
        pid
        for pid in children_of(ppid)
        if b"reaper.py" not in cmdline(pid) and not cmdline(pid).startswith(b"git\0")
    ]


def children_of(ppid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            if int(fields[1]) == ppid and fields[0] != b"Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


async def test_agent_crash_is_shown_and_the_next_prompt_restarts_it(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory()
    first = await editor.command("acp.prompt", "hello")
    server_pid = editor.client._server.pid  # type: ignore[union-attr]
    (agent_pid,) = procs_of_parent(server_pid)
    os.killpg(agent_pid, signal.SIGKILL)
    # The turn's end was announced before (a plain editor reads the reply as a message).
    await wait_until(lambda: any(m.type.name == "Error" for m in editor.client.messages))
    message = next(m for m in editor.client.messages if m.type.name == "Error")
    assert "exited unexpectedly" in message.message
    assert "-9" in message.message  # the exit status
    again = await editor.command("acp.prompt", "hello again")
    assert again["stopReason"] == "end_turn"
    assert again["sessionId"] != first["sessionId"]  # a new agent, a new session


async def test_missing_agent_is_a_clear_error(editor_factory: StartEditor) -> None:
    editor = await editor_factory(agent=["no-such-agent-xyz"], features=["stream"])
    with pytest.raises(JsonRpcException) as err:
        await editor.request(proto.ACP_PROMPT, {"prompt": "hi"})
    assert err.value.code == proto.AGENT_UNAVAILABLE
    assert "agent command not found: 'no-such-agent-xyz'" in err.value.message
    status = editor.of(proto.ACP_AGENT_STATUS)[-1]
    assert status["state"] == "failed" and "not found" in status["message"]


async def test_missing_agent_is_shown_to_a_plugin_less_editor(editor_factory: StartEditor) -> None:
    editor = await editor_factory(agent=["no-such-agent-xyz"])
    await wait_until(lambda: bool(editor.client.messages))
    assert "agent command not found" in editor.client.messages[0].message


async def test_named_agent_preset(editor_factory: StartEditor, tmp_path: Path) -> None:
    config = tmp_path / "agents.toml"
    command = ", ".join(json.dumps(part) for part in SCRIPTED_AGENT)
    config.write_text(f'[agents.scripted]\ncommand = [{command}]\nenv = {{ X = "1" }}\n')
    editor = await editor_factory(
        agent=[], server_args=("--config", str(config), "--agent", "scripted")
    )
    status = await editor.command("acp.status")
    assert status["command"] == SCRIPTED_AGENT
    assert (await editor.command("acp.prompt", "hi"))["stopReason"] == "end_turn"


async def test_without_an_agent_the_demo_agent_is_used(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path))  # no presets file there
    editor = await editor_factory(agent=[], env=env)
    assert (await editor.command("acp.prompt", "hi"))["stopReason"] == "end_turn"
    status = await editor.command("acp.status")
    assert status["command"][1:] == ["-m", "acp_editor.demo_agent"]
    assert status["agentInfo"]["name"]


async def test_after_a_crash_the_session_is_loaded_again_when_the_agent_can(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    editor = await editor_factory(
        agent_flags=("--state-dir", str(tmp_path / "agent-state")), features=["stream"]
    )
    first = await editor.request(proto.ACP_PROMPT, {"prompt": "remember me"})
    server_pid = editor.client._server.pid  # type: ignore[union-attr]
    (agent_pid,) = procs_of_parent(server_pid)
    os.killpg(agent_pid, signal.SIGKILL)
    await wait_until(lambda: editor.of(proto.ACP_AGENT_STATUS)[-1]["state"] == "failed")
    again = await editor.request(proto.ACP_PROMPT, {"prompt": "still there?"})
    assert again["sessionId"] == first["sessionId"]  # session/load on the new agent
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {"sessionId": first["sessionId"]})
    said = [
        block["text"]
        for entry in snapshot["sessions"][0]["entries"]
        if entry.get("role") == "user"
        for block in entry["content"]
    ]
    assert said[0] == "remember me" and said[-1] == "still there?"


@pytest.mark.parametrize(("folders", "root"), [(True, True), (False, True), (False, False)])
async def test_the_session_cwd_is_the_workspace_folder_else_root_uri_else_the_servers_cwd(
    editor_factory: StartEditor, workspace: Path, folders: bool, root: bool
) -> None:
    editor = await editor_factory(folders=folders, root=root, features=["stream"])
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "hi"})
    listed = await editor.request(proto.ACP_LIST_SESSIONS, {})
    (cwd,) = [s["cwd"] for s in listed["sessions"] if s["sessionId"] == result["sessionId"]]
    assert cwd == (str(workspace) if root else os.getcwd())  # pytest-lsp starts it in ours


async def test_shutdown_during_a_turn_is_answered_and_so_is_the_turn(
    editor_factory: StartEditor,
) -> None:
    """The editor closes while a turn waits for its permission question: ``shutdown`` still
    succeeds (pygls 2.1 fails it when other requests are in flight), and the turn's request is
    answered, not left hanging."""
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    editor = await editor_factory(answer_permission=lambda _p: never)
    turn = asyncio.ensure_future(editor.command("acp.prompt", "edit"))
    await asyncio.wait_for(editor.asked_event.wait(), 15)
    await editor.client.shutdown_session()  # raises when the server answers with an error
    with pytest.raises(JsonRpcException):
        await asyncio.wait_for(turn, 15)
