"""The demo agent hands a task to a subagent, as claude-agent-acp's ``Task`` tool does.

To a client that advertised ``subagents`` the child is a session of its own, announced on the
parent (``subagent_update``) before any of its traffic: the parent's ``Task`` tool call, the task
as a ``session_message`` from parent to child, the child's own tool calls, file reads, permission
request and messages under the child's ``sessionId``, its ``idle`` state (``end_turn`` with its
usage, ``cancelled``, or ``error`` with the error) and its result as a ``session_message`` with
``session_message_chunk``s back to the parent, and then the ``Task`` call completes.
``session/cancel`` naming the child stops the child alone: the parent goes on. To any other
client, the child's text and tool calls are the parent's (claude-agent-acp's fallback).

* ``subagent``: the child reads ``hello.py`` and edits it after asking (as ``edit`` does:
  through the client's ``fs/*`` when offered, else on disk).
* ``subagent-fails``: the child reads ``hello.py``, then fails.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from dataclasses import dataclass
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import HELLO, edit
from acp_editor.demo_agent.turn.prompt_turn import AgentSession, Turn, TurnStopped, text_item

TASK = f"Explore {HELLO}: read it, then add a line at its end (ask before editing)."
CHILD_TITLE = f"Explore {HELLO}"
CHILD_DESCRIPTION = f"Reads {HELLO} and makes one small edit"
FAILURE = {"code": -32603, "message": "The subagent's model stopped answering (a demo failure)"}
"""The ``error`` of a failing child's ``idle`` state (an ``ErrorStopReason``)."""
RESULTS = {
    "end_turn": f"I read {HELLO} and added a line at its end.",
    "rejected": f"I read {HELLO}; the edit was rejected, so I left it as it was.",
    "cancelled": "The subagent was cancelled before it finished.",
    "error": f"The subagent failed: {FAILURE['message']}.",
}


class ChildFailed(Exception):
    """The child's work broke off (``subagent-fails``)."""


@dataclass
class Outcome:
    """How the child's work ended, and what it tells its parent."""

    stop_reason: str = "end_turn"
    result: str = ""
    error: dict[str, Any] | None = None


async def subagent(turn: Turn) -> None:
    await _delegate(turn, fails=False)


async def subagent_fails(turn: Turn) -> None:
    await _delegate(turn, fails=True)


async def _delegate(turn: Turn, *, fails: bool) -> None:
    """The parent's ``Task`` tool call around the child's work."""
    tid = turn.new_id("task")
    await turn.tool_call(
        tid,
        {
            "title": f"Task: explore {HELLO}",
            "kind": "think",
            "name": "Task",
            "status": "in_progress",
            "rawInput": {"description": CHILD_TITLE, "prompt": TASK},
        },
    )
    if turn.caps.subagents:
        outcome = await _in_child_session(turn, fails)
    else:
        inline = _inline(turn)
        outcome = await _run(inline, fails)
        turn.output_chars += inline.output_chars  # the parent said it
        if outcome.stop_reason == "cancelled":  # the parent's own turn was cancelled
            raise TurnStopped("cancelled")
        if outcome.error is not None:
            await turn.stream("agent_message_chunk", outcome.result)
    status = "failed" if outcome.error is not None else "completed"
    raw: dict[str, Any] = {"stopReason": outcome.stop_reason, "result": outcome.result}
    if outcome.error is not None:
        raw["error"] = outcome.error
    await turn.tool_update(
        tid, {"status": status, "content": [text_item(outcome.result)], "rawOutput": raw}
    )


def _writes_itself(turn: Turn) -> bool:
    """A child touches files through the client when it offers both ``fs`` methods, else on
    disk itself (real subagents work either way)."""
    return turn.writes_itself or not (turn.caps.read and turn.caps.write)


def _inline(turn: Turn) -> Turn:
    """The parent's own session, as a client without ``subagents`` sees the child's work."""
    return turn.child(turn.session, writes_itself=_writes_itself(turn))


async def _run(child: Turn, fails: bool) -> Outcome:
    """The child's work: read ``hello.py``, then fail or edit it and say what it did."""
    outcome = Outcome()
    try:
        path, rid = child.path(HELLO), child.new_id("read")
        location = [{"path": path, "line": 1}]
        fields = {"title": f"Read {HELLO}", "kind": "read", "status": "in_progress"}
        await child.tool_call(rid, {**fields, "rawInput": {"path": path}, "locations": location})
        async with child.tool_errors(rid, f"Reading {HELLO}"):
            text = await child.read_optional(path)
            shown = text if text is not None else f"{HELLO} does not exist yet."
            await child.tool_update(rid, {"status": "completed", "content": [text_item(shown)]})
        if fails:
            raise ChildFailed
        await edit(child)
    except ChildFailed:
        outcome.stop_reason, outcome.error = "error", dict(FAILURE)
    except TurnStopped as stopped:  # the edit was rejected (end_turn), or cancelled
        outcome.stop_reason = stopped.stop_reason
        outcome.result = RESULTS["rejected" if stopped.stop_reason == "end_turn" else "cancelled"]
        return outcome
    outcome.result = RESULTS[outcome.stop_reason]
    if outcome.error is None:
        await child.stream("agent_message_chunk", outcome.result)
    return outcome


async def _in_child_session(turn: Turn, fails: bool) -> Outcome:
    """Announce the child, give it the task, run it as a turn of its own (``session/cancel``
    finds it in ``turn.children``) and pass its result back to the parent."""
    parent_id = turn.session.session_id
    session = AgentSession(f"demo_{uuid.uuid4().hex[:12]}", turn.session.cwd, parent=parent_id)
    turn.children[session.session_id] = session
    child = turn.child(session, writes_itself=_writes_itself(turn))
    await _about_child(
        turn,
        session.session_id,
        title=CHILD_TITLE,
        description=CHILD_DESCRIPTION,
        state={"state": "running"},
        capabilities={"cancel": {}},
    )
    out_id, in_id = _message_id(), _message_id()
    task = [{"type": "text", "text": TASK}]
    to_child = {"senderSessionId": parent_id, "recipientSessionId": session.session_id}
    await turn.update(
        {"sessionUpdate": "session_message", "messageId": out_id, **to_child, "content": task}
        | {"recipientMessageId": in_id}
    )
    await child.update(
        {"sessionUpdate": "session_message", "messageId": in_id, **to_child, "content": task}
        | {"senderMessageId": out_id}
    )
    work = asyncio.ensure_future(_child_turn(turn, child, fails))
    session.turn = work
    try:
        await asyncio.wait({work})
    except asyncio.CancelledError:  # the parent's turn was cancelled: the child goes with it
        work.cancel()
        await asyncio.wait({work})
        raise
    finally:
        session.turn = None
    return work.result()


async def _child_turn(turn: Turn, child: Turn, fails: bool) -> Outcome:
    """The child's turn, then its ``idle`` state and its result, both on the parent."""
    try:
        outcome = await _run(child, fails)
    except asyncio.CancelledError:  # session/cancel named the child: it alone stops
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()
        outcome = Outcome("cancelled", RESULTS["cancelled"])
    idle: dict[str, Any] = {"state": "idle", "stopReason": outcome.stop_reason}
    if outcome.error is not None:
        idle["error"] = outcome.error
    idle["usage"] = _usage(child)
    await _about_child(turn, child.session.session_id, state=idle)
    reply_id = _message_id()
    from_child = {"senderSessionId": child.session.session_id}
    await turn.update(
        {"sessionUpdate": "session_message", "messageId": reply_id, **from_child}
        | {"recipientSessionId": turn.session.session_id}
    )
    for piece in re.findall(r"\S+\s*", outcome.result):
        content = {"type": "text", "text": piece}
        await turn.update(
            {"sessionUpdate": "session_message_chunk", "messageId": reply_id, "content": content}
        )
        await turn.pause(0.02)
    return outcome


async def _about_child(turn: Turn, child_id: str, **fields: Any) -> None:
    await turn.update({"sessionUpdate": "subagent_update", "sessionId": child_id, **fields})


def _usage(child: Turn) -> dict[str, int]:
    read, written = 900, 1 + child.output_chars // 4
    return {"totalTokens": read + written, "inputTokens": read, "outputTokens": written}


def _message_id() -> str:
    return f"msg_{uuid.uuid4().hex[:10]}"
