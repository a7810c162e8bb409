"""Serving the agent's requests and notifications: session updates, permissions, fs, terminals.

Handlers are registered on the JSON-RPC peer. Each validates its params (bad ones get -32602),
applies whatever it changes to the session state *synchronously*, in arrival order, and only then
awaits (the user, the disk, a process). The collaborators are handed in; this module knows no
client object.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from acp_editor.agent import run_state
from acp_editor.agent.prompting import idle_reason
from acp_editor.errors import InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol import acp, elicitation, tool_call
from acp_editor.session.state import SessionView
from acp_editor.session.update_fields import InvalidUpdate

if TYPE_CHECKING:
    from acp_editor.agent.frontend import Frontend
    from acp_editor.agent.link.rpc import JsonRpcPeer
    from acp_editor.agent.serving.asking import PermissionAsker
    from acp_editor.agent.serving.eliciting import Elicitor
    from acp_editor.agent.sessions import Session
    from acp_editor.services.documents import FileService
    from acp_editor.services.terminals import TerminalManager

log = get_logger(__name__)

ORPHAN_LIMIT = 10_000
"""Updates kept for a session id we do not know yet (see ``_on_update``)."""
ORPHAN_SESSIONS = 8
"""How many unknown session ids are waited for at once; beyond that updates are dropped."""

Observer = Callable[[SessionView, list[dict[str, Any]]], None]
RawObserver = Callable[[str, Any], None]
OpenChild = Callable[["Session", str, dict[str, Any]], "Session"]
"""Opens a subagent's session (the parent, the child's id, the announcing ``subagent_update``)."""


class AgentRequests:
    """Everything the agent may ask of the client, for all sessions of one agent."""

    def __init__(
        self,
        sessions: Mapping[str, Session],
        frontend: Frontend,
        files: FileService,
        terminals: TerminalManager,
        asker: PermissionAsker,
        observers: list[Observer],
        raw_observers: list[RawObserver] | None = None,
        elicitor: Elicitor | None = None,
        open_child: OpenChild | None = None,
    ) -> None:
        self.sessions = sessions
        self.frontend = frontend
        self.files = files
        self.terminals = terminals
        self.asker = asker
        self.observers = observers
        """Called with every change before the front end sees it (review's disk watch)."""
        self.elicitor = elicitor
        self.open_child = open_child
        """Opens a subagent's session when its parent announces it (None: children stay
        unknown, their updates kept as for any session not open yet)."""
        self.raw_observers = raw_observers or []
        """Called with every ``session/update`` payload as the agent sent it, before the state
        takes it (agent-owned terminals read output there)."""
        # session/update for an id we do not know yet: an agent may send one right after its
        # session/new response, and that line can be read before the awaiting call resumes.
        self._orphans: dict[str, list[Any]] = {}

    def register(self, peer: JsonRpcPeer) -> None:
        peer.on_notification(acp.SESSION_UPDATE, self._on_update)
        peer.on_request(acp.SESSION_REQUEST_PERMISSION, self._on_permission)
        if self.elicitor is not None:
            peer.on_request(elicitation.CREATE, self.elicitor.create)
            peer.on_notification(elicitation.COMPLETE, self.elicitor.complete)
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
        for root in session.roots:
            self.files.policy.add_root(root, session=session.id)
        for update in self._orphans.pop(session.id, []):
            self._apply(session, update)

    def emit(self, session: Session, changes: list[dict[str, Any]]) -> None:
        if changes:
            for observe in self.observers:
                observe(session.state, changes)
            self.frontend.session_changed(session.state, changes)

    def show(self, session: Session, update: dict[str, Any]) -> None:
        """An update of the client's own to the front end alone (see ``AcpClient.add_update``)."""
        try:
            changes = session.state.apply_update(update)
        except InvalidUpdate:
            log.exception("session %s: our own update could not be applied", session.id)
            return
        if changes:
            self.frontend.session_changed(session.state, changes)

    def _session_of(self, params: Any) -> Session:
        session_id = acp.field(acp.obj(params), "sessionId", str)
        session = self.sessions.get(session_id)
        if session is None:
            raise InvalidParams(f"unknown session: {session_id!r}")
        return session

    def _with_session(self, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """Wrap a service handler so it only runs for a session we know."""

        def serve(params: Any) -> Awaitable[Any]:
            self._session_of(params)
            return handler(params)

        return serve

    # -- session/update -------------------------------------------------------------------------

    def _on_update(self, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("sessionId"), str):
            log.warning("session/update without a sessionId ignored")
            return
        session = self.sessions.get(params["sessionId"])
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
        for observe in self.raw_observers:
            observe(session.id, update)
        try:
            changes = session.state.apply_update(update)
        except InvalidUpdate as exc:
            log.warning("session %s: unusable update skipped: %s", session.id, exc)
            return
        self.emit(session, changes)
        if update.get("sessionUpdate") == "subagent_update":
            self._subagent(session, update)
        idle, stop_reason = idle_reason(update)
        if idle:  # after the state took it: a prompt that ends now sees the session idle
            session.foreground.idle(stop_reason)

    def _subagent(self, parent: Session, update: dict[str, Any]) -> None:
        """A child session announced or patched: it is a session of its own from its first
        announcement (its updates, questions and file access carry its id), and its run state
        is what the parent's agent says of it."""
        child_id = update["sessionId"]  # the state took the update: a string
        child = self.sessions.get(child_id)
        if child is None:
            if self.open_child is None:
                return
            child = self.open_child(parent, child_id, update)
        if "state" in update:
            state = update["state"]
            child.reported = dict(state) if isinstance(state, dict) else None
            self.emit(child, run_state.changes(child))

    # -- permissions, fs and terminals ------------------------------------------------------------

    def _on_permission(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        tool_call, held = acp.permission_subject(params)
        options = acp.permission_options(params)
        words = acp.permission_words(params)  # v2: the question's own title and description
        if not held:  # a v2 command or an unknown subject: asked about, not a tool call
            return self.asker.ask(session, tool_call, options, words)
        try:
            changes = session.state.apply_permission_tool_call(tool_call)
        except InvalidUpdate as exc:
            raise InvalidParams(f"params.toolCall: {exc}") from exc
        self.emit(session, changes)
        stored = session.state.tool_call(str(tool_call.get("toolCallId"))) or tool_call
        return self.asker.ask(session, stored, options, words)

    def _write_text_file(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        path = params.get("path")
        call_id = tool_call_for(session.state, path) if isinstance(path, str) else None
        owner = None
        if session.parent is not None:
            # A subagent's write is its parent's turn's work: reviewed (and undone) with it,
            # under the parent's tool call that started the subagent.
            owner, call_id = self._parents_work(session)
        return self.files.write_text_file(params, tool_call_id=call_id, review_session=owner)

    def _parents_work(self, child: Session) -> tuple[str, str | None]:
        """Whose work a subagent's is: its top parent's session, and the tool call of it that
        started the line of subagents (None: not known)."""
        session, call_id = child, None
        seen = {child.id}
        while session.parent is not None and session.parent not in seen:
            parent = self.sessions.get(session.parent)
            if parent is None:
                break
            seen.add(parent.id)
            record = (parent.state.snapshot_field("subagents") or {}).get(session.id) or {}
            started = record.get("toolCallId") if isinstance(record, dict) else None
            call_id = started if isinstance(started, str) else None
            session = parent
        return session.id, call_id

    def _terminal_create(self, params: Any) -> Awaitable[dict[str, Any]]:
        session = self._session_of(params)
        return self.terminals.create(params, default_cwd=session.cwd)


def tool_call_for(state: SessionView, path: str) -> str | None:
    """The unfinished tool call a write belongs to: ``fs/write_text_file`` names no tool call,
    so the latest one whose diff, locations or input name the same path is taken."""
    for call_id in reversed(state.tool_call_order()):
        call = state.peek_tool_call(call_id) or {}
        if not tool_call.is_finished(call) and path in tool_call.paths_named(call):
            return call_id
    return None
