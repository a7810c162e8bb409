"""The agent's requests and notifications as ``AgentRequests`` routes them: updates applied in
arrival order (kept, within bounds, for a session not open yet), requests for a session we do not
know refused before any service runs, a permission's tool call in the state before the question,
and a write tied to the tool call that names its file."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from acp_editor.agent.frontend import Frontend
from acp_editor.agent.serving import requests as serving
from acp_editor.agent.serving.requests import AgentRequests, tool_call_for
from acp_editor.agent.sessions import Session
from acp_editor.errors import InvalidParams
from acp_editor.protocol import acp
from acp_editor.session.state import SessionState, SessionView

Handler = Callable[[Any], Any]


class Peer:
    """The handler tables of a JSON-RPC peer, called as the peer would."""

    def __init__(self) -> None:
        self.requests: dict[str, Handler] = {}
        self.notifications: dict[str, Handler] = {}

    def on_request(self, method: str, handler: Handler) -> None:
        self.requests[method] = handler

    def on_notification(self, method: str, handler: Handler) -> None:
        self.notifications[method] = handler


class Screen(Frontend):
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.changes: list[dict[str, Any]] = []

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        self.log.append("shown")
        self.changes += changes


class Policy:
    def __init__(self) -> None:
        self.roots: list[tuple[str, str | None]] = []

    def add_root(self, root: str, session: str | None = None) -> None:
        self.roots.append((root, session))


class Services:
    """Files and terminals: each call recorded, answered with its own name."""

    def __init__(self) -> None:
        self.policy = Policy()
        self.calls: list[tuple[str, Any, Any]] = []

    def __getattr__(self, name: str) -> Callable[..., Awaitable[dict[str, Any]]]:
        async def call(params: Any, **how: Any) -> dict[str, Any]:
            self.calls.append((name, params, how))
            return {"served": name}

        return call


class Asker:
    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.asked: list[tuple[dict[str, Any], dict[str, str] | None]] = []

    async def ask(
        self,
        session: Session,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        self.log.append("asked")
        self.asked.append((tool_call, words))
        return {"outcome": {"outcome": "selected", "optionId": options[0]["optionId"]}}


class Served:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.screen = Screen(self.log)
        self.files = Services()
        self.terminals = Services()
        self.asker = Asker(self.log)
        self.seen: list[list[dict[str, Any]]] = []
        self.raw: list[tuple[str, Any]] = []
        self.sessions: dict[str, Session] = {}
        self.requests = AgentRequests(
            self.sessions,
            self.screen,
            self.files,  # type: ignore[arg-type]
            self.terminals,  # type: ignore[arg-type]
            self.asker,  # type: ignore[arg-type]
            [lambda state, changes: self.seen.append(changes)],
            [lambda session_id, update: self.raw.append((session_id, update))],
        )
        self.peer = Peer()
        self.requests.register(self.peer)  # type: ignore[arg-type]

    def open(self, session_id: str = "s1", cwd: str = "/w") -> Session:
        session = Session(session_id, cwd, SessionState(session_id, 1), ["/extra"])
        self.sessions[session_id] = session
        self.requests.session_opened(session)
        return session

    def update(self, session_id: str, update: dict[str, Any]) -> None:
        self.peer.notifications[acp.SESSION_UPDATE]({"sessionId": session_id, "update": update})

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        return await self.peer.requests[method](params)


def said(session: Session) -> str:
    """The agent's words in the session's transcript."""
    entries = session.state.snapshot()["entries"]
    return "".join(b["text"] for e in entries if e["kind"] == "message" for b in e["content"])


def say(text: str) -> dict[str, Any]:
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}


def tool_call(call_id: str, path: str, **fields: Any) -> dict[str, Any]:
    return {
        "sessionUpdate": "tool_call",
        "toolCallId": call_id,
        "title": f"edit {path}",
        "locations": [{"path": path}],
        **fields,
    }


def test_updates_before_the_session_opens_wait_for_it_in_order() -> None:
    served = Served()
    served.update("s1", say("one "))
    served.update("s1", say("two"))
    assert served.screen.changes == [] and served.raw == []
    session = served.open()
    assert [u["content"]["text"] for _, u in served.raw] == ["one ", "two"]
    assert said(session) == "one two"
    assert served.seen and served.log == ["shown", "shown"]  # observers before the front end
    assert served.files.policy.roots == [("/w", "s1"), ("/extra", "s1")]


def test_updates_for_unknown_sessions_are_kept_within_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serving, "ORPHAN_LIMIT", 2)
    served = Served()
    for n in range(serving.ORPHAN_SESSIONS + 1):
        served.update(f"s{n}", say("x"))
    served.update("s0", say("y"))
    served.update("s0", say("dropped: two are kept per session"))
    served.open("s0")
    served.open(f"s{serving.ORPHAN_SESSIONS}")  # one session too many: nothing was kept
    assert served.raw == [("s0", say("x")), ("s0", say("y"))]


def test_an_update_without_a_session_id_or_unusable_is_skipped() -> None:
    served = Served()
    session = served.open()
    served.peer.notifications[acp.SESSION_UPDATE]({"update": say("x")})
    served.update("s1", {"sessionUpdate": "tool_call"})  # no toolCallId
    served.update("s1", say("still here"))
    assert said(session) == "still here"


@pytest.mark.parametrize(
    "method",
    [
        acp.FS_READ_TEXT_FILE,
        acp.FS_WRITE_TEXT_FILE,
        acp.TERMINAL_CREATE,
        acp.TERMINAL_OUTPUT,
        acp.TERMINAL_KILL,
        acp.SESSION_REQUEST_PERMISSION,
    ],
)
async def test_a_request_for_a_session_we_do_not_know_is_refused_before_it_runs(
    method: str,
) -> None:
    served = Served()
    served.open()
    with pytest.raises(InvalidParams, match="unknown session: 'nope'"):
        await served.request(method, {"sessionId": "nope", "path": "/w/a"})
    assert served.files.calls == served.terminals.calls == served.asker.asked == []


async def test_terminals_start_in_the_sessions_folder_unless_told() -> None:
    served = Served()
    served.open(cwd="/w/project")
    params = {"sessionId": "s1", "command": "ls"}
    assert await served.request(acp.TERMINAL_CREATE, params) == {"served": "create"}
    assert served.terminals.calls == [("create", params, {"default_cwd": "/w/project"})]


async def test_a_permissions_tool_call_is_in_the_state_before_the_question() -> None:
    served = Served()
    session = served.open()
    params = {
        "sessionId": "s1",
        "toolCall": {"toolCallId": "c1", "title": "Run ls", "kind": "execute"},
        "options": [{"optionId": "ok", "name": "Allow", "kind": "allow_once"}],
    }
    answer = await served.request(acp.SESSION_REQUEST_PERMISSION, params)
    assert answer["outcome"]["optionId"] == "ok"
    assert served.log == ["shown", "asked"]
    ((asked, _words),) = served.asker.asked
    assert asked == session.state.tool_call("c1") and asked["title"] == "Run ls"


async def test_a_v2_command_question_is_asked_without_touching_the_state() -> None:
    served = Served()
    session = served.open()
    params = {
        "sessionId": "s1",
        "title": "Run make?",
        "subject": {"type": "command", "command": "make"},
        "options": [{"optionId": "ok", "name": "Allow", "kind": "allow_once"}],
    }
    await served.request(acp.SESSION_REQUEST_PERMISSION, params)
    ((asked, _words),) = served.asker.asked
    assert asked["kind"] == "execute" and asked["rawInput"]["command"] == "make"
    assert session.state.tool_call_order() == [] and served.log == ["asked"]


async def test_a_write_goes_with_the_latest_unfinished_tool_call_naming_its_file() -> None:
    served = Served()
    served.open()
    served.update("s1", tool_call("done", "/w/a.py", status="completed"))
    served.update("s1", tool_call("edit", "/w/a.py", status="in_progress"))
    served.update("s1", tool_call("other", "/w/b.py", status="in_progress"))
    params = {"sessionId": "s1", "path": "/w/a.py", "content": "x"}
    await served.request(acp.FS_WRITE_TEXT_FILE, params)
    await served.request(acp.FS_WRITE_TEXT_FILE, {**params, "path": "/w/c.py"})
    assert [how for _, _, how in served.files.calls] == [
        {"tool_call_id": "edit", "review_session": None},  # its own session's work
        {"tool_call_id": None, "review_session": None},
    ]


def test_the_tool_call_of_a_write_skips_finished_calls() -> None:
    state = SessionState("s1", 1)
    state.apply_update(tool_call("first", "/w/a.py"))
    state.apply_update(tool_call("second", "/w/a.py", status="failed"))
    assert tool_call_for(state, "/w/a.py") == "first"
    assert tool_call_for(state, "/w/elsewhere.py") is None
