"""One prompt turn of the scripted agent: the session it runs in and what a scenario may do.

Scenarios only talk to the client through ``Turn``, so every rule the agent follows lives here:
check the client's capabilities before calling it, give every request a deadline, choose
permission options by ``kind`` (never by id), and turn a client error into a failed tool call
instead of a failed turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.demo_agent.turn.v2 import Work, state_update, to_v2, tool_call_v2
from acp_editor.errors import ConnectionClosed, ResourceNotFound, RpcError
from acp_editor.log import get_logger

if TYPE_CHECKING:
    from acp_editor.agent.link.rpc import JsonRpcPeer
    from acp_editor.demo_agent.turn.capabilities import ClientCaps

FS_TIMEOUT = 30.0
TERMINAL_TIMEOUT = 120.0
RELEASE_TIMEOUT = 2.0
# A person answers permission requests: wait long, but not forever.
PERMISSION_TIMEOUT = 1800.0

log = get_logger(__name__)

PERMISSION_OPTIONS = [
    {"optionId": "proceed_once", "name": "Allow", "kind": "allow_once"},
    {"optionId": "proceed_always", "name": "Always allow", "kind": "allow_always"},
    {"optionId": "decline_once", "name": "Reject", "kind": "reject_once"},
    {"optionId": "decline_always", "name": "Always reject", "kind": "reject_always"},
]
_KIND_BY_ID = {o["optionId"]: o["kind"] for o in PERMISSION_OPTIONS}
TOOL_NAMES = {
    "read": "Read",
    "edit": "Edit",
    "execute": "Bash",
    "search": "Grep",
    "think": "Task",
    "fetch": "WebFetch",
}
"""A tool call's ``name`` by its ``kind``: the names of Claude Code's tools."""
PERMISSION_DESCRIPTION = "The demo agent ends its turn if you reject this."
"""The ``description`` of its v2 permission requests (their ``title`` names the change)."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def text_item(text: str) -> dict[str, Any]:
    """Tool-call content holding plain text."""
    return {"type": "content", "content": {"type": "text", "text": text}}


@dataclass
class AgentSession:
    """What the agent remembers of a session: enough to list it and to replay it on load."""

    session_id: str
    cwd: str
    mode: str = "code"
    model: str = "demo-fast"
    history: list[tuple[str, str]] = field(default_factory=list)
    title: str | None = None
    updated_at: str = field(default_factory=now)
    active: bool = True
    turn: asyncio.Task[Any] | None = None
    """The running turn (a subagent's: its work), which ``session/cancel`` cancels."""
    queue: list[Any] = field(default_factory=list)
    """v2: prompts accepted and not taken up yet (the running turn takes them in order)."""
    editor_server: str | None = None
    """The ``serverId`` of the client's ``editor`` MCP server over ACP, when it gave one."""
    think_aloud: bool = False
    """The ``think-aloud`` boolean config option: every turn starts with a thought."""
    parent: str | None = None
    """A subagent's session: its parent's id (the client may only cancel it)."""
    work: Work = field(default_factory=Work)
    """v2: what the client may cancel one piece of, and what runs on after a turn."""


class TurnStopped(Exception):
    """Ends the whole turn now with ``stop_reason`` (a rejected or cancelled permission)."""

    def __init__(self, stop_reason: str) -> None:
        super().__init__(stop_reason)
        self.stop_reason = stop_reason


class Turn:
    """The context a scenario runs in: one session, one negotiated version, one client."""

    def __init__(
        self,
        peer: JsonRpcPeer,
        session: AgentSession,
        *,
        version: int,
        caps: ClientCaps,
        fast: bool,
        wait_seconds: float,
        writes_itself: bool = False,
        children: dict[str, AgentSession] | None = None,
    ) -> None:
        self.peer = peer
        self.session = session
        self.version = version
        self.caps = caps
        self.fast = fast
        self.wait_seconds = wait_seconds
        self.writes_itself = writes_itself or version >= 2  # v2 has no client fs/*
        """Touch files directly, as many real agents do, reporting only diffs to the client."""
        self.children: dict[str, AgentSession] = {} if children is None else children
        """The agent's subagent sessions, by id: where ``session/cancel`` finds them."""
        self.output_chars = 0
        """What the agent said in this turn (the ``usage`` of its answer is made from it)."""

    def child(self, session: AgentSession, *, writes_itself: bool) -> Turn:
        """The same client and pace for another session (a subagent's)."""
        return Turn(
            self.peer,
            session,
            version=self.version,
            caps=self.caps,
            fast=self.fast,
            wait_seconds=self.wait_seconds,
            writes_itself=writes_itself,
            children=self.children,
        )

    # -- helpers ------------------------------------------------------------------------------

    def path(self, name: str) -> str:
        return os.path.join(self.session.cwd, name)

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_{uuid.uuid4().hex[:10]}"

    async def pause(self, seconds: float = 0.02) -> None:
        """A visible delay for viewers; when ``fast`` (tests), still a point where cancel can
        land."""
        await asyncio.sleep(0 if self.fast else seconds)

    # -- session/update -----------------------------------------------------------------------

    async def update(self, update: dict[str, Any]) -> None:
        if self.version >= 2:
            update = to_v2(update)
        await self.peer.notify(
            "session/update", {"sessionId": self.session.session_id, "update": update}
        )

    async def tool_call(self, tool_id: str, fields: dict[str, Any]) -> None:
        """Announce a tool call; its ``name`` (the tool's own, as Claude Code's) comes from its
        kind unless the scenario gave one."""
        named = TOOL_NAMES.get(str(fields.get("kind")))
        if named is not None and "name" not in fields:
            fields = {**fields, "name": named}
        await self.update({"sessionUpdate": "tool_call", "toolCallId": tool_id, **fields})

    async def tool_update(self, tool_id: str, fields: dict[str, Any]) -> None:
        await self.update({"sessionUpdate": "tool_call_update", "toolCallId": tool_id, **fields})

    async def stream(self, variant: str, text: str) -> None:
        """Send ``text`` word by word under one ``messageId``; agent messages join the history."""
        message_id = f"msg_{uuid.uuid4().hex[:10]}"
        for piece in re.findall(r"\S+\s*|\s+", text):
            content = {"type": "text", "text": piece}
            await self.update(
                {"sessionUpdate": variant, "messageId": message_id, "content": content}
            )
            await self.pause(0.02)
        self.output_chars += len(text)
        if variant == "agent_message_chunk":
            self.session.history.append(("agent", text))

    async def notice(self, severity: str, title: str, description: str) -> None:
        """A ``notice`` to a client that advertised ``session.notices``; to any other, the same
        words as an agent message (the spec's fallback)."""
        if self.caps.notices:
            notice = {"severity": severity, "title": title, "description": description}
            await self.update({"sessionUpdate": "notice", **notice})
        else:
            await self.stream("agent_message_chunk", f"{title}: {description}")

    @contextlib.asynccontextmanager
    async def tool_errors(self, tool_id: str, what: str) -> AsyncIterator[None]:
        """A client error fails this tool call (with the client's message); the turn goes on."""
        try:
            yield
        except ConnectionClosed:
            raise
        except RpcError as exc:
            message = f"{what} failed: {exc.message}"
            await self.tool_update(
                tool_id,
                {
                    "status": "failed",
                    "content": [text_item(message)],
                    "rawOutput": {"error": exc.to_json()},
                },
            )
            await self.stream("agent_message_chunk", message)

    # -- requests to the client ---------------------------------------------------------------

    async def _call(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        full = {"sessionId": self.session.session_id, **params}
        return await self.peer.request(method, full, timeout=timeout)

    async def read_file(
        self, path: str, *, line: int | None = None, limit: int | None = None
    ) -> str:
        if not self.caps.read:
            raise RpcError("the client does not offer fs/read_text_file")
        params: dict[str, Any] = {"path": path}
        if line is not None:
            params["line"] = line
        if limit is not None:
            params["limit"] = limit
        result = await self._call("fs/read_text_file", params, FS_TIMEOUT)
        content = result.get("content") if isinstance(result, dict) else None
        if not isinstance(content, str):
            raise RpcError(f"fs/read_text_file answered without text: {result!r}"[:200])
        return content

    async def read_optional(self, path: str) -> str | None:
        """The whole file, or ``None`` when the client says it does not exist (-32002)."""
        if self.writes_itself:
            return await asyncio.to_thread(_read_disk, path)
        try:
            return await self.read_file(path)
        except RpcError as exc:
            if exc.code == ResourceNotFound.CODE:
                return None
            raise

    async def write_file(self, path: str, content: str) -> None:
        if self.writes_itself:
            await asyncio.to_thread(Path(path).write_text, content, encoding="utf-8")
            return
        if not self.caps.write:
            raise RpcError("the client does not offer fs/write_text_file")
        await self._call("fs/write_text_file", {"path": path, "content": content}, FS_TIMEOUT)

    async def spawn(self, command: str) -> asyncio.subprocess.Process:
        """A command line of ours, in the session's cwd, its output and errors on one pipe. It
        stays in the agent's process group: whoever ends the agent's group ends it too."""
        return await asyncio.create_subprocess_shell(
            command,
            cwd=self.session.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )

    async def run_itself(self, command: str) -> tuple[int | None, str]:
        """Run a command line ourselves in the session's cwd (``--writes-itself``)."""
        proc = await self.spawn(command)
        out, _ = await proc.communicate()
        return proc.returncode, out.decode("utf-8", errors="replace")

    async def create_terminal(self, command: str) -> str:
        """A whole command line and no ``args``: the client runs it through a shell."""
        if not self.caps.terminal:
            raise RpcError("the client does not offer terminal/*")
        params = {"command": command, "cwd": self.session.cwd, "outputByteLimit": 1 << 20}
        result = await self._call("terminal/create", params, FS_TIMEOUT)
        terminal_id = result.get("terminalId") if isinstance(result, dict) else None
        if not isinstance(terminal_id, str):
            raise RpcError(f"terminal/create answered without a terminalId: {result!r}"[:200])
        return terminal_id

    async def terminal_call(self, method: str, terminal_id: str) -> dict[str, Any]:
        result = await self._call(method, {"terminalId": terminal_id}, TERMINAL_TIMEOUT)
        if not isinstance(result, dict):
            raise RpcError(f"{method} answered with {result!r}"[:200])
        return result

    async def release_terminal(self, terminal_id: str) -> None:
        """Always release what we created, even when cancelled; a failure here changes nothing."""
        try:
            await self._call("terminal/release", {"terminalId": terminal_id}, RELEASE_TIMEOUT)
        except RpcError as exc:
            log.info("terminal/release %s failed: %s", terminal_id, exc.message)

    async def permit(self, tool_id: str, tool_call: dict[str, Any], what: str) -> None:
        """Ask permission; return when allowed, otherwise end the turn (as real agents do)."""
        asked: dict[str, Any] = {"toolCall": tool_call, "options": PERMISSION_OPTIONS}
        if self.version >= 2:  # the v2 draft's shape: the question's own words, the tool call
            # as the subject. Worded apart from the tool call's title, as real v2 agents may.
            asked = {
                "title": f"Allow the {what}?",
                "description": PERMISSION_DESCRIPTION,
                "subject": {"type": "tool_call", "toolCall": tool_call_v2(tool_call)},
                "options": PERMISSION_OPTIONS,
            }
            await self.update(state_update(self.session.work, "requires_action"))
        result = await self._call("session/request_permission", asked, PERMISSION_TIMEOUT)
        if self.version >= 2:
            await self.update(state_update(self.session.work, "running"))
        outcome = result.get("outcome") if isinstance(result, dict) else None
        if not isinstance(outcome, dict):
            raise RpcError(f"session/request_permission answered without an outcome: {result!r}")
        if outcome.get("outcome") == "cancelled":
            raise TurnStopped("cancelled")
        kind = _KIND_BY_ID.get(str(outcome.get("optionId")))
        if kind is None:
            raise RpcError(f"the client chose an option never offered: {outcome!r}"[:200])
        if kind.startswith("allow"):
            return
        message = f"The {what} was rejected, so I stopped here."
        await self.tool_update(tool_id, {"status": "failed", "content": [text_item(message)]})
        await self.stream("agent_message_chunk", message)
        raise TurnStopped("end_turn")


def _read_disk(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
