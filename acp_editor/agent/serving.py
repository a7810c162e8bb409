"""Serving the agent's requests and notifications: session updates, permissions, fs, terminals.

Handlers are registered on the JSON-RPC peer. Each validates its params (bad ones get -32602),
applies whatever it changes to the session state *synchronously*, in arrival order, and only then
awaits (the user, the disk, a process).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.agent.frontend import Session
from acp_editor.agent.rpc import JsonRpcPeer
from acp_editor.errors import InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import acp
from acp_editor.services.documents import DocumentSource, FileService
from acp_editor.services.paths import PathPolicy
from acp_editor.services.terminals import TerminalManager
from acp_editor.session.state import InvalidUpdate

if TYPE_CHECKING:
    from acp_editor.agent.client import AcpClient

log = get_logger("agent.serving")

ORPHAN_LIMIT = 10_000
"""Updates kept for a session id we do not know yet (see ``_on_update``)."""
ORPHAN_SESSIONS = 8
"""How many unknown session ids are waited for at once; beyond that updates are dropped."""


class AgentRequests:
    """Everything the agent may ask of the client, for all sessions of one agent."""

    def __init__(self, client: AcpClient, documents: DocumentSource) -> None:
        self.client = client
        self.policy = PathPolicy([], unrestricted=client.config.unrestricted_fs)
        self.files = FileService(self.policy, documents)
        self.files.on_access = self._file_accessed
        frontend = client.frontend
        self.terminals = TerminalManager(
            self.policy,
            env=client.config.base_env(),
            on_output=frontend.terminal_output,
            on_exit=frontend.terminal_exited,
        )
        self._permission_ids = itertools.count(1)
        # session/update for an id we do not know yet: an agent may send one right after its
        # session/new response, and that line can be read before the awaiting call resumes.
        self._orphans: dict[str, list[Any]] = {}

    def register(self, peer: JsonRpcPeer) -> None:
        peer.on_notification(acp.SESSION_UPDATE, self._on_update)
        peer.on_request(acp.SESSION_REQUEST_PERMISSION, self._on_permission)
        peer.on_request(acp.FS_READ_TEXT_FILE, self._with_session(self.files.read_text_file))
        peer.on_request(acp.FS_WRITE_TEXT_FILE, self._write_text_file)
        peer.on_request(acp.TERMINAL_CREATE, self._terminal_create)
        peer.on_request(acp.TERMINAL_OUTPUT, self._with_session(self.terminals.output))
        peer.on_request(
            acp.TERMINAL_WAIT_FOR_EXIT, self._with_session(self.terminals.wait_for_exit)
        )
        peer.on_request(acp.TERMINAL_KILL, self._with_session(self.terminals.kill))
        peer.on_request(acp.TERMINAL_RELEASE, self._with_session(self.terminals.release))

    # -- sessions -------------------------------------------------------------------------------

    def session_opened(self, session: Session) -> None:
        for root in [session.cwd, *session.additional_directories]:
            self.policy.add_root(root, session=session.id)
        for update in self._orphans.pop(session.id, []):
            self._apply(session, update)

    def emit(self, session: Session, changes: list[dict[str, Any]]) -> None:
        if changes:
            self.client.reviewing.observe(session.state, changes)
            self.client.frontend.session_changed(session.id, changes)

    def allowed(self, path: str, session_id: str) -> Path | None:
        """The checked path if the session may touch it, else None (outside its roots)."""
        try:
            return self.policy.check(path, session=session_id)
        except RpcError:
            return None

    def _session_of(self, params: Any) -> Session:
        session_id = acp.field(acp.obj(params), "sessionId", str)
        session = self.client.sessions.get(session_id)
        if session is None:
            raise InvalidParams(f"unknown session: {session_id!r}")
        return session

    def _with_session(self, handler: Any) -> Any:
        """Wrap a service handler so it only runs for a session we know."""

        def serve(params: Any) -> Awaitable[Any]:
            self._session_of(params)
            result: Awaitable[Any] = handler(params)
            return result

        return serve

    # -- session/update -------------------------------------------------------------------------

    def _on_update(self, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("sessionId"), str):
            log.warning("session/update without a sessionId ignored")
            return
        session = self.client.sessions.get(params["sessionId"])
        if session is None:
            self._keep_orphan(params["sessionId"], params.get("update"))
            return
        self._apply(session, params.get("update"))

    def _keep_orphan(self, session_id: str, update: Any) -> None:
        """Keep an update for a session not opened yet, within bounds (a confused or hostile
        agent naming endless unknown sessions must not grow memory)."""
        waiting = self._orphans.get(session_id)
        if waiting is None:
            if len(self._orphans) >= ORPHAN_SESSIONS:
                log.warning("session/update for unknown session %r ignored", session_id)
                return
            waiting = self._orphans[session_id] = []
            log.info("session/update for session %r, not open (yet): kept for now", session_id)
        if len(waiting) >= ORPHAN_LIMIT:
            log.warning("session/update for unknown session %r ignored", session_id)
            return
        waiting.append(update)

    def _apply(self, session: Session, update: Any) -> None:
        try:
            changes = session.state.apply_update(update)
        except InvalidUpdate as exc:
            log.warning("session %s: unusable update skipped: %s", session.id, exc)
            return
        self.emit(session, changes)

    # -- permissions ----------------------------------------------------------------------------

    def _on_permission(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        tool_call = acp.obj(params.get("toolCall"), "params.toolCall")
        options = params.get("options")
        if not isinstance(options, list) or not all(
            isinstance(o, dict) and isinstance(o.get("optionId"), str) for o in options
        ):
            raise InvalidParams("params.options must be a list of options with an optionId")
        try:
            changes = session.state.apply_permission_tool_call(tool_call)
        except InvalidUpdate as exc:
            raise InvalidParams(f"params.toolCall: {exc}") from exc
        self.emit(session, changes)
        stored = session.state.tool_call(str(tool_call.get("toolCallId"))) or tool_call
        return self._ask(session, stored, options)

    async def _ask(
        self, session: Session, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> dict[str, Any]:
        if session.cancelling:
            return acp.cancelled_outcome()
        policy = self.client.permissions
        automatic = await asyncio.to_thread(policy.decide, session.cwd, tool_call, options)
        if automatic is not None:
            log.info("permission for %s answered by a rule: %s", tool_call.get("title"), automatic)
            return acp.selected_outcome(automatic)
        outcome = await self._ask_user(session, tool_call, options)
        chosen = outcome["outcome"].get("optionId")
        kind = next((o.get("kind") for o in options if o.get("optionId") == chosen), None)
        if isinstance(kind, str):
            rule = await asyncio.to_thread(policy.remember, session.cwd, tool_call, kind)
            if rule is not None:
                log.info("remembered for this workspace: %s", rule)
        return outcome

    async def _ask_user(
        self, session: Session, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> dict[str, Any]:
        key = next(self._permission_ids)
        decided: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        session.permissions[key] = decided
        asking = asyncio.ensure_future(
            self.client.frontend.request_permission(session.id, tool_call, options)
        )

        def settle(task: asyncio.Future[str | None]) -> None:
            if decided.done():
                return
            choice = None
            if not task.cancelled() and task.exception() is None:
                choice = task.result()
            elif not task.cancelled():
                log.warning("asking for permission failed: %s", task.exception())
            decided.set_result(_outcome(choice, options))

        asking.add_done_callback(settle)
        try:
            return await asyncio.shield(decided)
        except asyncio.CancelledError:
            # The agent withdrew the request, or the link closed.
            if not decided.cancelled():
                raise
            return acp.cancelled_outcome()
        finally:
            session.permissions.pop(key, None)
            if not asking.done():
                asking.cancel()

    def cancel_permissions(self, session: Session) -> None:
        """Answer every pending permission of ``session`` with ``cancelled``."""
        for fut in list(session.permissions.values()):
            if not fut.done():
                fut.set_result(acp.cancelled_outcome())

    # -- fs and terminals -----------------------------------------------------------------------

    def _file_accessed(self, kind: str, path: Path, session_id: str) -> None:
        self.client.frontend.file_accessed(kind, str(path), session_id)

    def _write_text_file(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        path = params.get("path")
        call_id = _tool_call_for(session, path) if isinstance(path, str) else None
        return self.files.write_text_file(params, tool_call_id=call_id)

    def _terminal_create(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        return self.terminals.create(params, default_cwd=session.cwd)


FINISHED = ("completed", "failed", "cancelled")


def _tool_call_for(session: Session, path: str) -> str | None:
    """The unfinished tool call a write belongs to: ``fs/write_text_file`` names no tool call,
    so the latest one whose diff, locations or input name the same path is taken."""
    state = session.state
    for call_id in reversed(state.tool_call_order()):
        call = state.peek_tool_call(call_id) or {}
        if call.get("status") in FINISHED:
            continue
        if path in _paths_named(call):
            return call_id
    return None


def _paths_named(call: Mapping[str, Any]) -> set[str]:
    paths = set()
    for key in ("content", "locations"):
        items = call.get(key)
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and isinstance(item.get("path"), str):
                paths.add(item["path"])
    raw = call.get("rawInput")
    if isinstance(raw, dict):
        paths.update(
            v
            for k, v in raw.items()
            if k in ("path", "file_path", "abs_path") and isinstance(v, str)
        )
    return paths


def _outcome(choice: str | None, options: list[dict[str, Any]]) -> dict[str, Any]:
    if choice is not None and any(o.get("optionId") == choice for o in options):
        return acp.selected_outcome(choice)
    if choice is not None:
        log.warning("the front end chose %r, which the agent did not offer: rejecting", choice)
    reject = acp.default_reject(options)
    return acp.selected_outcome(reject) if reject is not None else acp.cancelled_outcome()
