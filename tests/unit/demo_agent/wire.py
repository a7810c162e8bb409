"""The demo agent and a client joined in memory by two real ``JsonRpcPeer``s: the client answers
``fs/*`` from a folder and permission requests as told, keeps every update, and checks every
message the agent sends against the official schema (``ClientTrafficChecker`` works for either
side: it checks what its peer sends, by method)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp_editor.agent.link.rpc import JsonRpcPeer, Writer
from acp_editor.demo_agent.server.methods import ScriptedAgent
from acp_editor.demo_agent.server.prompts import Tuning
from acp_editor.errors import ResourceNotFound
from tests.support.schema import AcpSchema, ClientTrafficChecker

FS = {"fs": {"readTextFile": True, "writeTextFile": True}}
"""The capabilities of a client that offers its file system and nothing else."""
HELLO = 'print("hello")\n'


async def _drain() -> None:
    return None


class Wire:
    """One agent, one client; ``answer`` says how the client answers permission requests:
    ``allow``, ``reject`` or ``hold`` (never: until the agent withdraws the request)."""

    def __init__(self, schema: AcpSchema, root: Path, **agent: Any) -> None:
        loop = asyncio.get_running_loop()
        self.root = root
        self.agent_peer = JsonRpcPeer(
            "client", Writer(lambda data: loop.call_soon(self.client.feed, data), _drain)
        )
        self.client = JsonRpcPeer(
            "agent", Writer(lambda data: loop.call_soon(self.agent_peer.feed, data), _drain)
        )
        self.checker = ClientTrafficChecker(schema)
        self.sent: list[dict[str, Any]] = []
        self.agent_peer.tracers += [self.checker, self._keep]
        tuning = agent.pop("tuning", Tuning(fast=True))
        self.agent = ScriptedAgent(self.agent_peer, tuning=tuning, **agent)
        self.agent.register()
        self.answer = "allow"
        self.asked = asyncio.Event()
        """Set when a permission request came in."""
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.updates: list[dict[str, Any]] = []
        """Every ``session/update``'s params, in order."""
        self.statuses: list[dict[str, Any]] = []
        """Every ``auth/status_update``'s params."""
        for method, handler in {
            "fs/read_text_file": self._read,
            "fs/write_text_file": self._write,
            "session/request_permission": self._permission,
        }.items():
            self.client.on_request(method, self._recorded(method, handler))
        self.client.on_notification("session/update", self.updates.append)
        self.client.on_notification("auth/status_update", self.statuses.append)

    def _keep(self, direction: str, message: dict[str, Any]) -> None:
        if direction == "send":
            self.sent.append(message)

    def _recorded(self, method: str, handler: Any) -> Any:
        async def handle(params: Any) -> Any:
            self.requests.append((method, params))
            return await handler(params)

        return handle

    async def _read(self, params: dict[str, Any]) -> dict[str, Any]:
        path = Path(params["path"])
        if not path.exists():
            raise ResourceNotFound(f"no such file: {path}")
        return {"content": path.read_text(encoding="utf-8")}

    async def _write(self, params: dict[str, Any]) -> dict[str, Any]:
        Path(params["path"]).write_text(params["content"], encoding="utf-8")
        return {}

    async def _permission(self, params: dict[str, Any]) -> dict[str, Any]:
        self.asked.set()
        if self.answer == "hold":
            await asyncio.Event().wait()
        kind = "allow_once" if self.answer == "allow" else "reject_once"
        option = next(o for o in params["options"] if o["kind"] == kind)
        return {"outcome": {"outcome": "selected", "optionId": option["optionId"]}}

    # -- what a test does ---------------------------------------------------------------------

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        return await self.client.request(method, params, timeout=10)

    async def start(self, caps: dict[str, Any] | None = None) -> dict[str, Any]:
        params = {"protocolVersion": 1, "clientCapabilities": caps or {}}
        answer: dict[str, Any] = await self.call("initialize", params)
        return answer

    async def start_v2(self) -> dict[str, Any]:
        """``initialize`` offering ACP v2 (v2's ``info``, and v1's capabilities beside it)."""
        params = {"protocolVersion": 2, "info": {"name": "wire"}, "clientCapabilities": {}}
        answer: dict[str, Any] = await self.call("initialize", params)
        return answer

    async def new(self) -> str:
        answer = await self.call("session/new", {"cwd": str(self.root), "mcpServers": []})
        session_id: str = answer["sessionId"]
        return session_id

    async def prompt(self, session_id: str, text: str) -> dict[str, Any]:
        blocks = [{"type": "text", "text": text}]
        answer: dict[str, Any] = await self.call(
            "session/prompt", {"sessionId": session_id, "prompt": blocks}
        )
        return answer

    async def settle(self) -> None:
        """Let what is already on its way arrive: until nothing came for a while."""
        seen, quiet = len(self.sent), 0
        while quiet < 20:
            await asyncio.sleep(0)
            quiet = quiet + 1 if len(self.sent) == seen else 0
            seen = len(self.sent)

    def of(self, session_id: str, *kinds: str) -> list[dict[str, Any]]:
        """The updates sent under ``session_id`` (of these kinds, if any are named)."""
        return [
            u["update"]
            for u in self.updates
            if u["sessionId"] == session_id and (not kinds or u["update"]["sessionUpdate"] in kinds)
        ]

    def kinds(self, session_id: str) -> list[str]:
        return [u["sessionUpdate"] for u in self.of(session_id)]

    def text(self, session_id: str, kind: str = "agent_message_chunk") -> str:
        return "".join(u["content"]["text"] for u in self.of(session_id, kind))

    async def close(self) -> None:
        await self.agent.shutdown()
