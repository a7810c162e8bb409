"""The scripted agent speaks ACP correctly as a real subprocess.

It runs as the test agent (``tests/agents/scripted.py``): the product's demo agent with the
test-only switches (``--fast``, ``--record``, ``--answer-version``, ``--slow``) on top.

A minimal client built on the project's ``JsonRpcPeer`` serves ``fs/*``, ``terminal/*`` and
permission requests from a temporary workspace. These tests prove the agent itself; the lead's
end-to-end tests drive it through the real client.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from acp_editor.agent.link.rpc import JsonRpcPeer, Writer
from acp_editor.errors import ResourceNotFound, RpcError
from tests.support.starter import SCRIPTED_AGENT

HELLO = 'print("hello")\n'
CAPS = {"fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True}


class MiniClient:
    """Just enough ACP client: answers the agent's requests and keeps every update."""

    def __init__(self, proc: asyncio.subprocess.Process, root: Path, choose: str) -> None:
        assert proc.stdin is not None
        self.proc, self.root, self.choose = proc, root, choose
        self.peer = JsonRpcPeer("agent", Writer(proc.stdin.write, proc.stdin.drain))
        self.updates: list[dict[str, Any]] = []
        self.requests: list[tuple[str, Any]] = []
        self.raw = bytearray()
        self.terminals: dict[str, asyncio.subprocess.Process] = {}
        for method in (
            "fs/read_text_file",
            "fs/write_text_file",
            "terminal/create",
            "terminal/wait_for_exit",
            "terminal/output",
            "terminal/release",
            "session/request_permission",
        ):
            self.peer.on_request(method, self._handler(method))
        self.tool_started = asyncio.Event()
        self.idle: asyncio.Queue[Any] = asyncio.Queue()
        """v2: the stopReason of each ``idle`` state update, in order."""
        self.peer.on_notification("session/update", self._on_update)

    def _on_update(self, params: dict[str, Any]) -> None:
        update = params["update"]
        self.updates.append(update)
        if update["sessionUpdate"] in ("tool_call", "tool_call_update") and "title" in update:
            self.tool_started.set()
        if update["sessionUpdate"] == "state_update" and update["state"] == "idle":
            self.idle.put_nowait(update.get("stopReason"))

    def _handler(self, method: str) -> Any:
        async def handle(params: Any) -> Any:
            self.requests.append((method, params))
            return await getattr(self, method.replace("/", "_"))(params)

        return handle

    async def pump(self) -> None:
        """Feed stdout to the peer, keeping the raw bytes to check nothing else got there."""
        assert self.proc.stdout is not None
        while data := await self.proc.stdout.read(65536):
            self.raw += data
            self.peer.feed(data)
        self.peer.close()

    async def fs_read_text_file(self, p: dict[str, Any]) -> dict[str, Any]:
        path = Path(p["path"])
        if not path.exists():
            raise ResourceNotFound(f"{path} does not exist")
        lines = path.read_text().splitlines(keepends=True)
        start = max(p.get("line") or 1, 1) - 1
        end = start + p["limit"] if p.get("limit") else None
        return {"content": "".join(lines[start:end])}

    async def fs_write_text_file(self, p: dict[str, Any]) -> dict[str, Any]:
        Path(p["path"]).write_text(p["content"])
        return {}

    async def terminal_create(self, p: dict[str, Any]) -> dict[str, Any]:
        assert "args" not in p
        proc = await asyncio.create_subprocess_shell(
            p["command"], cwd=p["cwd"], stdout=asyncio.subprocess.PIPE, stderr=-2
        )
        terminal_id = f"term{len(self.terminals)}"
        self.terminals[terminal_id] = proc
        return {"terminalId": terminal_id}

    async def terminal_wait_for_exit(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"exitCode": await self.terminals[p["terminalId"]].wait(), "signal": None}

    async def terminal_output(self, p: dict[str, Any]) -> dict[str, Any]:
        proc = self.terminals[p["terminalId"]]
        assert proc.stdout is not None
        out = (await proc.stdout.read()).decode()
        return {"output": out, "truncated": False, "exitStatus": {"exitCode": proc.returncode}}

    async def terminal_release(self, p: dict[str, Any]) -> dict[str, Any]:
        self.terminals.pop(p["terminalId"])
        return {}

    async def session_request_permission(self, p: dict[str, Any]) -> dict[str, Any]:
        kinds = {o["kind"] for o in p["options"]}
        assert kinds == {"allow_once", "allow_always", "reject_once", "reject_always"}
        option = next(o for o in p["options"] if o["kind"] == self.choose)
        return {"outcome": {"outcome": "selected", "optionId": option["optionId"]}}

    def of(self, variant: str) -> list[dict[str, Any]]:
        return [u for u in self.updates if u["sessionUpdate"] == variant]


async def start(tmp_path: Path, *flags: str, choose: str = "allow_once") -> MiniClient:
    proc = await asyncio.create_subprocess_exec(
        *SCRIPTED_AGENT,
        *flags,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return MiniClient(proc, tmp_path, choose)


@pytest.fixture
async def agents(tmp_path: Path) -> AsyncIterator[list[MiniClient]]:
    """Started clients are shut down after the test: close stdin, wait, kill if needed."""
    (tmp_path / "hello.py").write_text(HELLO)
    started: list[MiniClient] = []
    yield started
    for client in started:
        assert client.proc.stdin is not None
        client.proc.stdin.close()
        try:
            await asyncio.wait_for(client.proc.wait(), 5)
        except TimeoutError:
            client.proc.kill()
            await client.proc.wait()


async def connect(
    agents: list[MiniClient],
    tmp_path: Path,
    *flags: str,
    version: int = 1,
    choose: str = "allow_once",
) -> tuple[MiniClient, asyncio.Task[None], dict[str, Any]]:
    client = await start(tmp_path, *flags, choose=choose)
    agents.append(client)
    pump = asyncio.create_task(client.pump())
    init = await client.peer.request(
        "initialize", {"protocolVersion": version, "clientCapabilities": CAPS}, timeout=10
    )
    return client, pump, init


async def prompt(client: MiniClient, session_id: str, text: str) -> Any:
    params = {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}
    return await client.peer.request("session/prompt", params, timeout=10)


async def test_all_scenarios_on_v1(agents: list[MiniClient], tmp_path: Path) -> None:
    client, pump, init = await connect(agents, tmp_path)
    assert init["protocolVersion"] == 1
    assert init["agentCapabilities"]["sessionCapabilities"] == {
        "list": {},
        "close": {},
        "additionalDirectories": {},
        "delete": {},
        "fork": {},
    }
    assert init["agentCapabilities"]["auth"] == {"logout": {}, "status": {}}
    new = await client.peer.request("session/new", {"cwd": str(tmp_path), "mcpServers": []})
    assert new["modes"]["currentModeId"] == "code"
    assert new["configOptions"][0]["type"] == "select"

    answer = await prompt(client, new["sessionId"], "all")
    assert answer["stopReason"] == "end_turn" and answer["usage"]["outputTokens"] > 0

    calls = client.of("tool_call")
    reads = [c for c in calls if c["kind"] == "read"]
    assert len(reads) == 2 and reads[0]["toolCallId"] == reads[1]["toolCallId"]
    assert reads[0]["rawInput"] == {} and reads[1]["locations"][0]["line"] == 1
    assert {"edit", "execute", "_deploy", "search"} <= {c["kind"] for c in calls}
    diffs = next(c for c in calls if c["kind"] == "edit")["content"]
    assert diffs[0]["type"] == "diff" and diffs[0]["oldText"] == HELLO
    assert len(client.of("plan")) >= 3
    assert client.of("_agent_note") and client.of("available_commands_update")
    assert not client.of("tool_call_content_chunk")  # v1 has none
    methods = [m for m, _ in client.requests]
    for method in ("fs/read_text_file", "fs/write_text_file", "terminal/create"):
        assert method in methods
    assert methods.count("session/request_permission") == 2
    early = [p for m, p in client.requests if m == "session/request_permission"][1]["toolCall"]
    assert early["toolCallId"] not in {c["toolCallId"] for c in calls}
    assert early["content"][0]["type"] == "diff" and early["locations"]
    assert (tmp_path / "hello.py").read_text() != HELLO
    assert (tmp_path / "NOTES.md").exists()
    statuses = {u["status"] for u in client.of("tool_call_update") if "status" in u}
    assert "failed" not in statuses
    shell = next(u for u in client.of("tool_call_update") if "rawOutput" in u)
    assert "hello from the demo agent" in shell["rawOutput"]["output"]

    client.proc.stdin.close()  # type: ignore[union-attr]
    await asyncio.wait_for(pump, 5)
    assert await asyncio.wait_for(client.proc.wait(), 5) == 0
    for line in bytes(client.raw).splitlines():  # stdout carried protocol lines only
        assert json.loads(line)["jsonrpc"] == "2.0"


async def test_v2_chunks_and_rejected_edit(agents: list[MiniClient], tmp_path: Path) -> None:
    client, _, init = await connect(agents, tmp_path, version=2, choose="reject_once")
    assert init["protocolVersion"] == 2
    new = await client.peer.request("session/new", {"cwd": str(tmp_path)})
    accepted = await prompt(client, new["sessionId"], "chunks edit")
    assert await asyncio.wait_for(client.idle.get(), 10) == "end_turn"
    # Inserted, no more: the answer names the user message the agent's echo carries.
    assert accepted == {"messageId": client.of("user_message")[0]["messageId"]}
    kinds = [u["sessionUpdate"] for u in client.updates]
    assert (
        kinds.index("user_message") < kinds.index("state_update") < kinds.index("tool_call_update")
    )
    assert client.updates[-1]["sessionUpdate"] == "state_update"
    assert "tool_call" not in kinds and "plan" not in kinds  # v1's words, gone in v2
    assert len(client.of("tool_call_content_chunk")) == 3
    assert client.of("tool_call_update")[-1]["status"] == "failed"
    assert (tmp_path / "hello.py").read_text() == HELLO
    said = "".join(u["content"]["text"] for u in client.of("agent_message_chunk"))
    assert "rejected" in said
    asked = next(p for m, p in client.requests if m == "session/request_permission")
    assert asked["subject"]["type"] == "tool_call" and asked["title"]
    edit = next(u for u in client.of("tool_call_update") if u.get("kind") == "edit")
    diff = edit["content"][0]
    assert diff["changes"] == [
        {"operation": "modify", "path": str(tmp_path / "hello.py"), "fileType": "text"}
    ]
    assert diff["patch"]["format"] == "git_patch"
    states = [u["state"] for u in client.of("state_update")]
    assert states == ["running", "requires_action", "running", "idle"]


async def test_v2_writes_and_runs_itself_and_queues(
    agents: list[MiniClient], tmp_path: Path
) -> None:
    client, _, _ = await connect(agents, tmp_path, version=2)
    sid = (await client.peer.request("session/new", {"cwd": str(tmp_path)}))["sessionId"]
    first = {"sessionId": sid, "prompt": [{"type": "text", "text": "edit shell plan"}]}
    answers = [await client.peer.request("session/prompt", first, timeout=10)]
    await asyncio.wait_for(client.tool_started.wait(), 5)
    second = {"sessionId": sid, "prompt": [{"type": "text", "text": "stream"}]}
    answers.append(await client.peer.request("session/prompt", second, timeout=10))  # queued
    assert await asyncio.wait_for(client.idle.get(), 10) == "end_turn"
    assert client.idle.empty()  # one idle for both: the second ran in the same work
    echoes = client.of("user_message")
    assert [e["content"][0]["text"] for e in echoes] == ["edit shell plan", "stream"]
    assert len({e["messageId"] for e in echoes}) == 2
    assert answers == [{"messageId": e["messageId"]} for e in echoes]  # named as inserted
    assert not [m for m, _ in client.requests if m.startswith(("fs/", "terminal/"))]
    assert (tmp_path / "hello.py").read_text() != HELLO  # written by the agent itself
    started = client.of("terminal_update")[0]
    assert started["command"] and started["cwd"] == str(tmp_path)
    output = b"".join(base64.b64decode(c["data"]) for c in client.of("terminal_output_chunk"))
    assert b"hello from the demo agent" in output
    assert client.of("terminal_update")[-1]["exitStatus"]["exitCode"] == 0
    plans = client.of("plan_update")
    assert len(plans) >= 3 and {p["plan"]["planId"] for p in plans} == {"plan_demo"}


async def test_cancel_load_and_errors(agents: list[MiniClient], tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    client, _, _ = await connect(agents, tmp_path, "--record", str(record))
    new = await client.peer.request("session/new", {"cwd": str(tmp_path)})
    sid = new["sessionId"]
    running = asyncio.create_task(prompt(client, sid, "wait"))
    await asyncio.wait_for(client.tool_started.wait(), 5)
    await client.peer.notify("session/cancel", {"sessionId": sid})
    assert (await asyncio.wait_for(running, 2))["stopReason"] == "cancelled"
    received = [json.loads(line) for line in record.read_text().splitlines()]
    assert [m.get("method") for m in received][-1] == "session/cancel"

    before = len(client.updates)
    await client.peer.request("session/load", {"sessionId": sid, "cwd": str(tmp_path)})
    replayed = [u["sessionUpdate"] for u in client.updates[before:]]
    assert replayed[0] == "user_message_chunk"
    listed = await client.peer.request("session/list", {})
    assert [s["sessionId"] for s in listed["sessions"]] == [sid]
    await client.peer.request("session/set_mode", {"sessionId": sid, "modeId": "ask"})
    assert client.of("current_mode_update")[-1]["currentModeId"] == "ask"
    for method, params, code in [
        ("session/new", {"cwd": "relative/dir"}, -32602),
        ("session/prompt", {"sessionId": sid, "prompt": "not a list"}, -32602),
        ("session/set_mode", None, -32602),
        ("no/such_method", {}, -32601),
    ]:
        with pytest.raises(RpcError) as err:
            await client.peer.request(method, params, timeout=5)
        assert err.value.code == code, method


async def test_slow_starts_every_turn_with_wait(agents: list[MiniClient], tmp_path: Path) -> None:
    client, _, _ = await connect(agents, tmp_path, "--slow", "--wait-seconds", "0")
    new = await client.peer.request("session/new", {"cwd": str(tmp_path)})
    assert (await prompt(client, new["sessionId"], "plan"))["stopReason"] == "end_turn"
    said = "".join(u["content"]["text"] for u in client.of("agent_message_chunk"))
    assert "Done: wait, plan." in said
    assert client.of("tool_call")[0]["toolCallId"].startswith("wait_")


async def test_answer_version_and_auth(agents: list[MiniClient], tmp_path: Path) -> None:
    _, _, init = await connect(agents, tmp_path, "--answer-version", "99")
    assert init["protocolVersion"] == 99

    client, _, init = await connect(agents, tmp_path, "--require-auth")
    kinds = {m.get("type", "agent"): m["id"] for m in init["authMethods"]}
    assert set(kinds) == {"agent"}  # a terminal method only for clients with auth.terminal
    with pytest.raises(RpcError) as err:
        await client.peer.request("session/new", {"cwd": str(tmp_path)})
    assert err.value.code == -32000
    assert await client.peer.request("authenticate", {"methodId": kinds["agent"]}) == {}
    assert "sessionId" in await client.peer.request("session/new", {"cwd": str(tmp_path)})
