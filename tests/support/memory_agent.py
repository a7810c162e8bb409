"""An agent in memory for unit tests of the agent side: a JSON-RPC peer joined to the client's
peer without a process or a pipe, with handlers the test sets (scripted, like a real agent)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from acp_editor.agent.link.rpc import JsonRpcPeer, Writer

Handler = Callable[[Any], Any]


def joined() -> tuple[JsonRpcPeer, JsonRpcPeer]:
    """(the client's peer, the agent's peer). Each line is delivered on the next loop turn, as a
    pipe would, never inside the sender's own call."""
    loop = asyncio.get_running_loop()
    peers: dict[str, JsonRpcPeer] = {}

    def to(name: str) -> Callable[[bytes], None]:
        return lambda data: loop.call_soon(_deliver, peers, name, data)

    async def drain() -> None:
        return None

    peers["agent"] = JsonRpcPeer("client", Writer(to("client"), drain))
    peers["client"] = JsonRpcPeer("agent", Writer(to("agent"), drain))
    return peers["client"], peers["agent"]


def _deliver(peers: dict[str, JsonRpcPeer], name: str, data: bytes) -> None:
    if not peers[name].is_closed:
        peers[name].feed(data)


class MemoryAgent:
    """The agent's end: answers ``initialize`` and ``session/new``; ``prompt`` runs ``turn``."""

    def __init__(self, peer: JsonRpcPeer, version: int = 1) -> None:
        self.peer = peer
        self.version = version
        self.received: list[tuple[str, Any]] = []
        self.turn: Callable[[str], Awaitable[None]] | None = None
        self.cancelled = asyncio.Event()
        self.usage: dict[str, Any] | None = None
        self.auth_methods: list[dict[str, Any]] = []
        self.capabilities: dict[str, Any] = {"loadSession": False}
        """``initialize``'s ``agentCapabilities``."""
        """``initialize``'s ``authMethods``."""
        """What each prompt's answer says of its tokens (schema 1.25's ``usage``), if set."""
        peer.on_request("initialize", self._initialize)
        peer.on_request("session/new", self._new)
        peer.on_request("session/prompt", self._prompt)
        peer.on_notification("session/cancel", self._cancel)

    async def _initialize(self, params: Any) -> dict[str, Any]:
        self.received.append(("initialize", params))
        return {
            "protocolVersion": self.version,
            "agentCapabilities": self.capabilities,
            "authMethods": self.auth_methods,
        }

    async def _new(self, params: Any) -> dict[str, Any]:
        self.received.append(("session/new", params))
        # An update sent before the answer: the client must keep it for the session to come.
        await self.update("s1", {"sessionUpdate": "current_mode_update", "currentModeId": "ask"})
        return {
            "sessionId": "s1",
            "modes": {"currentModeId": "code", "availableModes": [{"id": "code", "name": "C"}]},
        }

    async def _prompt(self, params: Any) -> dict[str, Any]:
        self.received.append(("session/prompt", params))
        if self.turn is not None:
            await self.turn(params["sessionId"])
        answer: dict[str, Any] = {
            "stopReason": "cancelled" if self.cancelled.is_set() else "end_turn"
        }
        if self.usage is not None:
            answer["usage"] = self.usage
        return answer

    def _cancel(self, params: Any) -> None:
        self.received.append(("session/cancel", params))
        self.cancelled.set()

    async def update(self, session_id: str, update: dict[str, Any]) -> None:
        await self.peer.notify("session/update", {"sessionId": session_id, "update": update})

    async def ask(self, session_id: str, tool_call: dict[str, Any], options: Any) -> Any:
        return await self.peer.request(
            "session/request_permission",
            {"sessionId": session_id, "toolCall": tool_call, "options": options},
        )
