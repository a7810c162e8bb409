"""The link to one agent process: spawn it, ``initialize``, carry requests, notice its end,
shut it down. Sessions are ``agent.client``'s business; this module knows only the wire."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from acp_editor.agent.link.handshake import (
    AgentInfo,
    agreed_version,
    initialize_failure,
    initialize_params,
)
from acp_editor.agent.link.mapped_paths import MappedPaths
from acp_editor.agent.link.process import AgentProcess
from acp_editor.agent.link.rpc import JsonRpcPeer, Tracer, Writer
from acp_editor.errors import AgentError, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.agent.config import AgentConfig

log = get_logger(__name__)

Serve = Callable[[JsonRpcPeer], None]
"""Registers the handlers of the agent's requests on a new peer."""
Exited = Callable[[int | None, str, bool], None]
"""Told ``(returncode, stderr tail, expected)`` when the process ends."""


class AgentConnection:
    def __init__(self, config: AgentConfig, serve: Serve, exited: Exited) -> None:
        self.config = config
        self._serve = serve
        self._on_exit = exited
        self.process: AgentProcess | None = None
        self.peer: JsonRpcPeer | None = None
        self.info = AgentInfo()
        self.protocol_version = config.protocol_version
        self.root: str | None = None
        """The working directory the agent was started in."""
        self.exited = asyncio.Event()
        self.tracers: list[Tracer] = []
        """Observers of every ACP message, both directions (traffic logs, schema checks)."""
        self._tasks: list[asyncio.Task[Any]] = []

    async def start(self, cwd: str) -> dict[str, Any]:
        """Spawn the agent with ``cwd`` as its working directory and run ``initialize``."""
        self.root = cwd
        config = self.config
        self.process = await AgentProcess.start(
            config.command, cwd=cwd, extra_env=config.env, base_env=config.base_env()
        )
        stdin = self.process.stdin
        peer = JsonRpcPeer(
            "agent",
            Writer(stdin.write, stdin.drain),
            default_timeout=config.request_timeout,
            translation=MappedPaths(config.paths) if config.paths else None,
        )
        self._tasks.append(asyncio.ensure_future(self._read(peer)))
        self._tasks.append(asyncio.ensure_future(self._watch_exit(peer)))
        return await self.connect(peer)

    async def connect(self, peer: JsonRpcPeer) -> dict[str, Any]:
        """Serve the agent's requests on ``peer`` and run ``initialize`` over it. ``start`` gives
        the peer of a spawned process; unit tests give one wired to an agent in memory."""
        self.peer = peer
        peer.tracers = self.tracers  # shared: observers added later see traffic too
        self._serve(peer)
        try:
            result = await peer.request(
                acp.INITIALIZE,
                initialize_params(
                    self.config.protocol_version,
                    self.config.elicitation_modes,
                    terminal=self.config.offers_terminals(),
                ),
            )
            self.info = AgentInfo(result if isinstance(result, dict) else {})
            self.protocol_version = agreed_version(self.info.result, self.config.protocol_version)
        except RpcError as exc:
            await self.shutdown()
            raise AgentError(
                f"the agent failed to initialize: {initialize_failure(exc)}{self._tail()}"
            ) from exc
        except AgentError:
            await self.shutdown()
            raise
        return self.info.result

    def _tail(self) -> str:
        tail = self.process.stderr_tail() if self.process else ""
        return f"\nagent stderr (last lines):\n{tail}" if tail else ""

    async def _read(self, peer: JsonRpcPeer) -> None:
        assert self.process is not None
        await peer.run(self.process.stdout, close_at_eof=False)
        # EOF usually means the agent is exiting: wait a moment so the error says how it ended.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.process.proc.wait()), 2.0)
        code = self.process.returncode
        peer.close(
            f"the agent exited with code {code}"
            if code is not None
            else "the agent closed its output"
        )

    async def _watch_exit(self, peer: JsonRpcPeer) -> None:
        assert self.process is not None
        code = await self.process.wait()
        expected = self.process.stopping
        peer.close(f"the agent exited with code {code}")
        if not expected:
            log.error("the agent exited unexpectedly with code %s%s", code, self._tail())
        self.exited.set()
        self._on_exit(code, self.process.stderr_tail(), expected)

    async def call(
        self,
        method: str,
        params: dict[str, Any],
        *,
        timeout: float | None = None,
        answered: Callable[[], None] | None = None,
    ) -> Any:
        if self.peer is None:
            raise AgentError("the agent is not running")
        return await self.peer.request(method, params, timeout=timeout, answered=answered)

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        """A notification, dropped quietly when the link is already gone."""
        if self.peer is not None and not self.peer.is_closed:
            with contextlib.suppress(RpcError):
                await self.peer.notify(method, params)

    async def shutdown(self) -> None:
        """The agent's whole process group, then the link. Idempotent."""
        if self.process is not None and self.process.returncode is None:
            await self.process.shutdown(self.config.shutdown_grace)
        elif self.process is not None:
            await self.process.shutdown(0.0, 0.5)  # the leader is gone; its children may not be
        if self.peer is not None:
            self.peer.close("shut down")
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
