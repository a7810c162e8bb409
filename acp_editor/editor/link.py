"""The agent behind the editor: started on demand, restarted after a crash, and its sessions.

Editor requests (commands and ``acp/...`` requests alike) come here; this module knows which
session is current and turns agent failures into one clear error the editor can show.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pygls.uris import to_fs_path

from acp_editor.agent.client import AcpClient, AgentConfig
from acp_editor.editor.documents import EditorDocuments
from acp_editor.editor.frontend import EditorFrontend
from acp_editor.editor.review import EditorReview
from acp_editor.errors import AgentError, InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.server import AcpLanguageServer

log = get_logger("editor.link")


class AgentUnavailable(RpcError):
    CODE = proto.AGENT_UNAVAILABLE
    MESSAGE = "The agent is not available"


@dataclass
class LinkOptions:
    agent: AgentConfig
    server_cwd: str = field(default_factory=os.getcwd)


class EditorLink:
    def __init__(self, server: AcpLanguageServer, options: LinkOptions) -> None:
        self.server = server
        self.options = options
        self.frontend = EditorFrontend(server, self)
        self.documents = EditorDocuments(server, self.frontend.tool_call_title)
        self.review = EditorReview(server, self)
        self.client: AcpClient | None = None
        self.current_session: str | None = None
        self._starting: asyncio.Task[AcpClient] | None = None
        self._lost_session: str | None = None
        """The current session of an agent that crashed: loaded again when the agent can."""
        self.status: dict[str, Any] = {"state": "starting", "command": options.agent.command}
        self._closed = False

    # -- the agent ------------------------------------------------------------------------------

    def workspace_root(self) -> str:
        """First workspace folder, else ``rootUri``, else the server's own working directory."""
        if self.server.initialized:
            folders = self.server.workspace.folders
            for folder in folders.values():
                path = to_fs_path(folder.uri)
                if path:
                    return path
            root = self.server.workspace.root_uri
            if root:
                path = to_fs_path(root)
                if path:
                    return path
        return self.options.server_cwd

    def _set_status(self, **status: Any) -> None:
        self.status = {"command": self.options.agent.command, **status}
        self.frontend.agent_status(self.status)

    async def ensure_client(self) -> AcpClient:
        if self._closed:
            raise AgentUnavailable("the server is shutting down")
        client = self.client
        if client is not None and not client.exited.is_set():
            return client
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(self._start())
        try:
            return await asyncio.shield(self._starting)
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc

    async def _start(self) -> AcpClient:
        if self.client is not None:  # a crashed agent: its sessions are gone with it
            await self.client.shutdown()
            self._lost_session = self.current_session or self._lost_session
            self.client, self.current_session = None, None
        self._set_status(state="starting")
        client = AcpClient(self.options.agent, self.frontend, self.documents)
        try:
            init = await client.start(self.workspace_root())
        except AgentError as exc:
            self._set_status(state="failed", message=str(exc))
            raise
        self.client = client
        self._set_status(
            state="ready",
            agentInfo=init.get("agentInfo"),
            protocolVersion=client.protocol_version,
            agentCapabilities=client.agent_capabilities,
        )
        return client

    def agent_exited(self, returncode: int | None, stderr_tail: str, expected: bool) -> None:
        if expected:
            self._set_status(state="exited", exitCode=returncode)
        else:
            self._set_status(
                state="failed",
                exitCode=returncode,
                stderrTail=stderr_tail,
                message=f"the agent exited unexpectedly with code {returncode}",
            )

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.frontend.close()
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(BaseException):
                await self._starting
        if self.client is not None:
            await self.client.shutdown()

    # -- sessions -------------------------------------------------------------------------------

    async def new_session(self, cwd: str | None = None) -> str:
        client = await self.ensure_client()
        try:
            session = await client.new_session(cwd or self.workspace_root())
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc
        self.current_session = session.id
        return session.id

    async def session_id(self, wanted: str | None = None) -> str:
        """The named session, or the current one (created on first use)."""
        client = await self.ensure_client()
        if wanted is not None:
            if wanted not in client.sessions:
                raise InvalidParams(f"unknown session: {wanted!r}")
            return wanted
        if self.current_session is None or self.current_session not in client.sessions:
            if await self._recover(client):
                assert self.current_session is not None
                return self.current_session
            return await self.new_session()
        return self.current_session

    async def _recover(self, client: AcpClient) -> bool:
        """After a crash, carry on in the same session if the new agent can load or resume it."""
        lost, self._lost_session = self._lost_session, None
        if lost is None or not (
            client.supports("session/load") or client.supports("session/resume")
        ):
            return False
        try:
            await self.load_session(lost)
        except RpcError as exc:
            log.info("could not load session %s after the agent restarted: %s", lost, exc.message)
            return False
        log.info("the restarted agent carries on with session %s", lost)
        return True

    async def prompt(
        self, blocks: list[dict[str, Any]], session_id: str | None = None
    ) -> dict[str, Any]:
        sid = await self.session_id(session_id)
        assert self.client is not None
        try:
            result = await self.client.prompt(sid, blocks)
        finally:
            # The editor must have the turn's last state before it learns the turn ended.
            self.frontend.coalescer.flush(sid)
        return {"sessionId": sid, "stopReason": result.get("stopReason")}

    async def cancel(self, session_id: str | None = None) -> str | None:
        client = self.client
        sid = session_id or self.current_session
        if client is None or sid is None or sid not in client.sessions:
            return None
        await client.cancel(sid)
        return sid

    async def load_session(self, session_id: str, cwd: str | None = None) -> str:
        client = await self.ensure_client()
        resume = not client.supports("session/load") and client.supports("session/resume")
        try:
            await client.load_session(session_id, cwd or self.workspace_root(), resume=resume)
        except AgentError as exc:
            raise AgentUnavailable(str(exc)) from exc
        self.current_session = session_id
        return session_id

    def snapshot(self, session_id: str | None = None) -> dict[str, Any]:
        sessions = []
        if self.client is not None:
            for sid, session in self.client.sessions.items():
                if session_id is None or sid == session_id:
                    sessions.append(session.state.snapshot())
        return {
            "agent": self.status,
            "sessions": sessions,
            "currentSessionId": self.current_session,
            "follow": self.frontend.follow.enabled,
            "terminals": self.frontend.terminal_snapshots(session_id),
            "review": [v for v in self.review.views() if session_id in (None, v["sessionId"])],
        }
