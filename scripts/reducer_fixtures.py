"""Write tests/fixtures/reducer/*.json: change streams and final snapshots from the Python state.

The editors' mirrors of the session state (vscode-extension/src/core/reducer.ts, replayed by
vscode-extension/test/reducer.test.ts; lua/acp_editor's, by tests/nvim/test_plugin_mirror.py)
replay each stream from an empty snapshot and must end equal to the snapshot recorded here, which
is the server's own ``SessionState.snapshot()``. They live outside both editors' folders because
both read them. Run after changing acp_editor/session/ (until then
tests/unit/session/test_reducer_fixtures.py fails):

    python scripts/reducer_fixtures.py            # write them
    python scripts/reducer_fixtures.py --check    # exit 1 with a diff when one is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generated_files import sync, unexpected

from acp_editor.session.state import SessionState

ROOT = Path(__file__).resolve().parents[1]
OUT = Path("tests/fixtures/reducer")


def text(t: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": t, **extra}


def streamed_text(s: SessionState) -> list[list[dict[str, Any]]]:
    """Plain text merges; annotated text, images and a new role start new blocks/entries."""
    steps = [s.add_user_prompt([text("Fix "), text("it")])]
    for part in ["Look", "ing ", "at ", "it"]:
        steps.append(
            s.apply_update({"sessionUpdate": "agent_message_chunk", "content": text(part)})
        )
    steps.append(
        s.apply_update(
            {"sessionUpdate": "agent_message_chunk", "content": text("!", annotations={"x": 1})}
        )
    )
    steps.append(s.apply_update({"sessionUpdate": "agent_message_chunk", "content": text(" ok")}))
    steps.append(
        s.apply_update(
            {"sessionUpdate": "agent_message_chunk", "content": {"type": "image", "data": "AA=="}}
        )
    )
    steps.append(s.apply_update({"sessionUpdate": "agent_thought_chunk", "content": text("hm")}))
    steps.append(s.apply_update({"sessionUpdate": "agent_thought_chunk", "content": text("m")}))
    steps.append(s.apply_update({"sessionUpdate": "agent_message_chunk", "content": text("Done")}))
    return steps


def message_ids(s: SessionState) -> list[list[dict[str, Any]]]:
    """Chunks with a messageId go back to their own message even after others started."""
    u = "agent_message_chunk"
    return [
        s.apply_update({"sessionUpdate": u, "messageId": "m1", "content": text("one ")}),
        s.apply_update({"sessionUpdate": u, "messageId": "m2", "content": text("two ")}),
        s.apply_update({"sessionUpdate": u, "messageId": "m1", "content": text("more")}),
        s.apply_update({"sessionUpdate": u, "messageId": 7, "content": text("bad id")}),
    ]


def tool_calls(s: SessionState) -> list[list[dict[str, Any]]]:
    """Upserts: create, patch, unknown kinds/statuses, whole-array replacement, cancel."""
    return [
        s.apply_update(
            {
                "sessionUpdate": "tool_call",
                "toolCallId": "c1",
                "title": "Read a.py",
                "kind": "read",
                "status": "pending",
                "locations": [{"path": "/w/a.py", "line": 3}],
            }
        ),
        s.apply_update(
            {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress"}
        ),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c1",
                "status": "completed",
                "content": [{"type": "content", "content": text("x = 1")}],
                "title": None,
            }
        ),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c2",
                "kind": "_custom",
                "status": "_odd",
            }
        ),
        s.apply_permission_tool_call({"toolCallId": "c3", "title": "Run ls", "kind": "execute"}),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c1",
                "locations": [],
                "_meta": {"a": [1]},
            }
        ),
        s.mark_unfinished_cancelled(),
    ]


def tool_calls_v2(s: SessionState) -> list[list[dict[str, Any]]]:
    """Protocol 2: null clears a field; content chunks append (and create the call)."""
    return [
        s.apply_update(
            {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c1",
                "title": "Edit",
                "rawInput": {"p": 1},
            }
        ),
        s.apply_update({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "rawInput": None}),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_content_chunk",
                "toolCallId": "c1",
                "content": {"type": "terminal", "terminalId": "t1"},
            }
        ),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_content_chunk",
                "toolCallId": "c9",
                "content": {"type": "content", "content": text("hi")},
            }
        ),
        s.apply_update(
            {
                "sessionUpdate": "tool_call_content_chunk",
                "toolCallId": "c9",
                "content": {"type": "_new"},
            }
        ),
    ]


def replacements(s: SessionState) -> list[list[dict[str, Any]]]:
    """Plan, commands, modes, config options, usage and info are replaced whole."""
    return [
        s.apply_update(
            {
                "sessionUpdate": "plan",
                "entries": [{"content": "a", "status": "pending", "priority": "high"}],
            }
        ),
        s.apply_update(
            {
                "sessionUpdate": "plan",
                "entries": [{"content": "a", "status": "completed", "priority": "high"}],
            }
        ),
        s.apply_update(
            {
                "sessionUpdate": "available_commands_update",
                "availableCommands": [{"name": "read", "description": "r"}],
            }
        ),
        s.set_modes(
            {
                "currentModeId": "ask",
                "availableModes": [{"id": "ask", "name": "Ask"}, {"id": "code", "name": "Code"}],
            }
        ),
        s.apply_update({"sessionUpdate": "current_mode_update", "currentModeId": "code"}),
        s.set_current_mode("ask"),
        s.set_config_options(
            [{"id": "model", "type": "select", "currentValue": "a", "options": []}]
        ),
        s.apply_update({"sessionUpdate": "config_option_update", "configOptions": []}),
        s.apply_update({"sessionUpdate": "usage_update", "used": 10, "size": 100}),
        s.apply_update({"sessionUpdate": "session_info_update", "title": "T", "updatedAt": "now"}),
        s.apply_update({"sessionUpdate": "session_info_update", "title": None}),
    ]


def schema_1_25(s: SessionState) -> list[list[dict[str, Any]]]:
    """Schema 1.25's updates: a notice, a compaction (chunks, then completed), plans by id (one
    removed), a subagent announced and patched, and messages between the sessions."""
    up = s.apply_update
    child = {"sessionUpdate": "subagent_update", "sessionId": "child-1"}
    steps = [
        up({"sessionUpdate": "notice", "severity": "warning", "title": "Low on context"}),
        up({"sessionUpdate": "tool_call", "toolCallId": "task", "title": "", "name": "Task"}),
        up({**child, "title": "Explore", "state": {"state": "running"}}),
        up(
            {
                "sessionUpdate": "session_message",
                "messageId": "m1",
                "senderSessionId": "p",
                "recipientSessionId": "child-1",
                "content": [text("Look at a.py")],
            }
        ),
        up({"sessionUpdate": "session_message_chunk", "messageId": "m2", "content": text("Fo")}),
        up({"sessionUpdate": "session_message_chunk", "messageId": "m2", "content": text("und")}),
        up({**child, "title": None, "state": {"state": "idle", "stopReason": "end_turn"}}),
        up(
            {
                "sessionUpdate": "compaction_summary_chunk",
                "compactionId": "c1",
                "content": text("S"),
            }
        ),
        up(
            {
                "sessionUpdate": "compaction_summary_chunk",
                "compactionId": "c1",
                "content": text("o"),
            }
        ),
        up({"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "completed"}),
        up({"sessionUpdate": "compaction_update", "compactionId": "c2", "status": "failed"}),
        up({"sessionUpdate": "compaction_update", "compactionId": "c2", "error": "too big"}),
    ]
    for plan in (
        {"type": "items", "planId": "p1", "entries": [{"content": "a", "status": "pending"}]},
        {"type": "markdown", "planId": "p2", "content": "# Later"},
    ):
        steps.append(up({"sessionUpdate": "plan_update", "plan": plan}))
    steps.append(up({"sessionUpdate": "plan_removed", "planId": "p2"}))
    return steps


def unknown(s: SessionState) -> list[list[dict[str, Any]]]:
    """Unknown update types (and known ones missing their member) become raw entries."""
    return [
        s.apply_update({"sessionUpdate": "_future_thing", "x": [1, {"y": None}]}),
        s.apply_update({"sessionUpdate": "available_commands_update"}),
        s.apply_update(
            {"sessionUpdate": "agent_message_chunk", "content": {"type": "_weird", "z": True}}
        ),
    ]


def lifecycle_v2(s: SessionState) -> list[list[dict[str, Any]]]:
    """v2: our prompts echoed by the agent (one whole, one queued and streamed), message upserts
    by messageId, the run state, and plans by planId."""
    items = {"type": "items", "planId": "p1", "entries": [{"content": "a", "status": "pending"}]}
    return [
        s.add_user_prompt([text("first")], 1),
        s.add_user_prompt([text("second")], queued=True),
        s.apply_update(
            {"sessionUpdate": "user_message", "messageId": "u1", "content": [text("first")]}
        ),
        s.apply_update({"sessionUpdate": "state_update", "state": "running"}),
        s.apply_update(
            {"sessionUpdate": "agent_message", "messageId": "a1", "content": [text("x")]}
        ),
        s.apply_update(
            {"sessionUpdate": "agent_message_chunk", "messageId": "a1", "content": text("y")}
        ),
        s.apply_update(
            {"sessionUpdate": "agent_message", "messageId": "a1", "content": [text("z")]}
        ),
        s.apply_update({"sessionUpdate": "agent_thought", "messageId": "t1", "content": None}),
        s.apply_update({"sessionUpdate": "plan_update", "plan": items}),
        s.apply_update({"sessionUpdate": "plan_update", "plan": {**items, "planId": "p2"}}),
        s.apply_update({"sessionUpdate": "state_update", "state": "requires_action"}),
        s.apply_update(
            {"sessionUpdate": "user_message_chunk", "messageId": "u2", "content": text("sec")}
        ),
        s.apply_update(
            {"sessionUpdate": "user_message_chunk", "messageId": "u2", "content": text("ond")}
        ),
        s.apply_update(
            {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"}
        ),
        s.add_user_prompt([text("third")], 2, queued=True),
        s.settle_prompts(),
    ]


SCENARIOS: dict[str, tuple[int, Callable[[SessionState], list[list[dict[str, Any]]]]]] = {
    "streamed_text": (1, streamed_text),
    "message_ids": (1, message_ids),
    "tool_calls": (1, tool_calls),
    "tool_calls_v2": (2, tool_calls_v2),
    "replacements": (1, replacements),
    "unknown": (1, unknown),
    "lifecycle_v2": (2, lifecycle_v2),
    "schema_1_25": (1, schema_1_25),
}


def fixtures() -> dict[Path, str]:
    """Each scenario's fixture, by its path under the repository."""
    files = {}
    for name, (version, scenario) in SCENARIOS.items():
        state = SessionState(f"s_{name}", version)
        steps = scenario(state)
        fixture = {
            "sessionId": state.session_id,
            "protocolVersion": version,
            "changes": [c for step in steps for c in step],
            "snapshot": state.snapshot(),
        }
        files[OUT / f"{name}.json"] = json.dumps(fixture, indent=1, ensure_ascii=False) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 and diff if stale")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: ours)")
    args = parser.parse_args(argv)
    files = fixtures()
    names = {path.name for path in files}
    stale = sync(files, args.root, args.check)
    stale |= unexpected(OUT, "*.json", names, args.root, args.check)
    if stale:
        print("\nstale: run `python scripts/reducer_fixtures.py` (acp_editor/session/ changed)")
    return stale


if __name__ == "__main__":
    sys.exit(main())
