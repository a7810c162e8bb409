"""Which tool call of the agent is an editor-context MCP call, and what acp-editor adds when the
agent reports none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from acp_editor.context.calls import ContextCalls
from acp_editor.session.state import SessionState

ROOT = Path("/work/project")


def calls_on(state: SessionState) -> ContextCalls:
    def add(session_id: str, update: dict[str, Any]) -> None:
        assert session_id == state.session_id
        state.apply_update(update)

    return ContextCalls(lambda sid: state if sid == state.session_id else None, add)


def agent_call(state: SessionState, title: str, status: str = "in_progress", **more: Any) -> None:
    state.apply_update(
        {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": title, "status": status, **more}
    )


@pytest.mark.parametrize(
    ("title", "meta"),
    [
        ("mcp__editor__read_buffer", None),  # Claude Code's title
        ("Some title", {"claudeCode": {"toolName": "mcp__editor__read_buffer"}}),
        ("Tool: editor/read_buffer", None),  # Codex
        ("read_buffer (editor MCP Server)", None),  # Gemini CLI
    ],
)
def test_the_agents_own_call_gets_the_location_and_nothing_is_added(
    title: str, meta: dict[str, Any] | None
) -> None:
    state = SessionState("s")
    agent_call(state, title, **({"_meta": meta} if meta else {}))
    shown = calls_on(state).begin("s", [ROOT], "read_buffer", {"path": str(ROOT / "a.py")})
    shown.end()
    assert state.tool_call_order() == ["t1"]
    call = state.tool_call("t1")
    assert call is not None and call["locations"] == [{"path": str(ROOT / "a.py")}]
    assert call["status"] == "in_progress"  # the agent finishes its own call


@pytest.mark.parametrize(
    ("title", "status"),
    [
        ("mcp__editor__open_buffers", "in_progress"),  # another tool of the server
        ("mcp__editorial__read_buffer", "in_progress"),  # another server
        ("mcp__editor__read_buffer", "completed"),  # an earlier call, finished
    ],
)
def test_a_call_that_is_not_this_one_is_left_alone(title: str, status: str) -> None:
    state = SessionState("s")
    agent_call(state, title, status)
    calls_on(state).begin("s", [ROOT], "read_buffer", {"path": str(ROOT / "a.py")}).end()
    assert state.tool_call_order() == ["t1", "editor-context-1"]
    assert "locations" not in (state.tool_call("t1") or {})


def test_without_the_agents_report_acp_editor_shows_the_call_once_it_ended() -> None:
    state = SessionState("s")
    calls = calls_on(state)
    first = calls.begin("s", [ROOT], "read_buffer", {"path": str(ROOT / "src/a.py"), "line": 3})
    assert state.tool_call_order() == []  # the agent's report may still be on its way
    first.end()
    first.end()  # once only
    assert state.tool_call_order() == ["editor-context-1"]
    call = state.tool_call("editor-context-1")
    assert call is not None and call["status"] == "completed"
    assert call["title"] == "Editor: read src/a.py from line 3"
    assert call["locations"] == [{"path": str(ROOT / "src/a.py"), "line": 3}]
    calls.begin("s", [ROOT], "diagnostics", {}).end("the editor did not answer")
    failed = state.tool_call("editor-context-2")
    assert failed is not None and failed["status"] == "failed"
    assert failed["title"] == "Editor: diagnostics of open files"
    assert "the editor did not answer" in str(failed["content"])


def test_the_agents_report_arriving_during_the_call_is_the_call() -> None:
    """Its notification and its MCP request come by different ways, in either order."""
    state = SessionState("s")
    shown = calls_on(state).begin("s", [ROOT], "diagnostics", {"path": str(ROOT / "a.py")})
    agent_call(state, "mcp__editor__diagnostics")
    shown.end()
    assert state.tool_call_order() == ["t1"]
    call = state.tool_call("t1")
    assert call is not None and call["locations"] == [{"path": str(ROOT / "a.py")}]


def test_the_agents_report_arriving_after_the_answer_still_gets_the_location() -> None:
    """On a loaded machine Claude's tool_call came after its MCP call was answered: ours is
    shown by then, and the agent's, when it comes, gets the file as its location too."""
    state = SessionState("s")
    calls = calls_on(state)
    shown = calls.begin("s", [ROOT], "read_buffer", {"path": str(ROOT / "a.py")})
    shown.end()
    (ours,) = state.tool_call_order()
    changes = state.apply_update(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "late",
            "title": "mcp__editor__read_buffer",
            "status": "completed",
        }
    )
    calls.session_changed(state, changes)
    late = state.tool_call("late")
    assert late is not None and late["locations"] == [{"path": str(ROOT / "a.py")}]
    other = state.apply_update(
        {"sessionUpdate": "tool_call", "toolCallId": "again", "title": "mcp__editor__read_buffer"}
    )
    calls.session_changed(state, other)  # claimed once: a second report gets nothing
    assert "locations" not in (state.tool_call("again") or {})
    assert state.tool_call_order() == [ours, "late", "again"]
