"""The demo agent's scenarios that send what a client opts in to (schema 1.25 and the
stabilisations of 2026-11-20), each said plainly to a client that did not:

* ``notice``: a ``notice`` (``session.notices``), else the same words as an agent message.
* ``compact``: ``compaction_update`` in progress, the summary in ``compaction_summary_chunk``s,
  ``compaction_update`` completed (``session.compaction``), else an agent message saying so;
  either way ``usage_update`` shows the context used dropping.
* ``plans``: two plans by id (``plan``): ``plan_update`` of an ``items`` plan ``p1`` whose
  entries advance, a ``markdown`` plan ``p2``, then ``plan_removed`` of ``p2``; else ``p1`` alone
  as the whole ``plan`` update, resent at each step.
* ``untitled``: a tool call whose ``title`` is empty: a client shows its ``name``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from acp_editor.demo_agent.scenarios.file_scenarios import HELLO
from acp_editor.demo_agent.turn.prompt_turn import Turn, text_item

NOTICE = (
    "warning",
    "Rate limit almost reached",
    "The demo agent has used 90% of this hour's requests: answers may slow down.",
)
"""The ``notice`` scenario's severity, title and description."""
CONTEXT_SIZE = 200_000
USED_BEFORE, USED_AFTER = 184_000, 23_000
"""The context used just before and just after ``compact``."""
SUMMARY = (
    "The user is trying the acp-editor demo agent. ",
    f"So far it read {HELLO}, ",
    "edited it after asking, ",
    "and ran a command in a terminal.",
)
"""The compaction's summary, a chunk each."""
PLAN_ITEMS, PLAN_MARKDOWN = "p1", "p2"
PLAN_STEPS = (f"Read {HELLO}", f"Edit {HELLO}", "Run the tests")
FOLLOW_UP = "## Follow-up\n\n- Tidy the imports\n- Write a docstring for `greet`\n"
"""The ``markdown`` plan ``p2``, removed once ``p1`` is done."""


async def notice(turn: Turn) -> None:
    await turn.notice(*NOTICE)


async def compact(turn: Turn) -> None:
    """The context was nearly full: summarise the conversation, then report the room made."""
    await _used(turn, USED_BEFORE)
    if turn.caps.compaction:
        compaction_id = turn.new_id("compaction")
        head = {"sessionUpdate": "compaction_update", "compactionId": compaction_id}
        await turn.update({**head, "status": "in_progress"})
        for piece in SUMMARY:
            await turn.pause(0.1)
            chunk = {"compactionId": compaction_id, "content": {"type": "text", "text": piece}}
            await turn.update({"sessionUpdate": "compaction_summary_chunk", **chunk})
        await turn.update({**head, "status": "completed"})
    else:
        said = "I compacted the conversation to make room in the context window. " + "".join(
            SUMMARY
        )
        await turn.stream("agent_message_chunk", said)
    await _used(turn, USED_AFTER)


async def _used(turn: Turn, used: int) -> None:
    await turn.update({"sessionUpdate": "usage_update", "used": used, "size": CONTEXT_SIZE})


def plan_entries(steps: tuple[str, ...], current: int) -> list[dict[str, Any]]:
    """``steps`` before ``current`` completed, ``current`` in progress, the rest pending."""
    return [
        {
            "content": step,
            "priority": "high" if i == 0 else "medium",
            "status": "completed" if i < current else "in_progress" if i == current else "pending",
        }
        for i, step in enumerate(steps)
    ]


async def plans(turn: Turn) -> None:
    """Two plans side by side, one of them dropped (plan operations)."""
    for current in range(len(PLAN_STEPS) + 1):
        entries = plan_entries(PLAN_STEPS, current)
        if not turn.caps.plans:
            await turn.update({"sessionUpdate": "plan", "entries": entries})
        else:
            items = {"type": "items", "planId": PLAN_ITEMS, "entries": entries}
            await turn.update({"sessionUpdate": "plan_update", "plan": items})
            if current == 0:
                markdown = {"type": "markdown", "planId": PLAN_MARKDOWN, "content": FOLLOW_UP}
                await turn.update({"sessionUpdate": "plan_update", "plan": markdown})
        await turn.pause(0.15)
    if turn.caps.plans:
        await turn.update({"sessionUpdate": "plan_removed", "planId": PLAN_MARKDOWN})


async def untitled(turn: Turn) -> None:
    """A tool call with an empty ``title`` and only its tool's ``name`` (``Glob``), as agents
    send before they know what to call it: a client must show something anyway."""
    tid = turn.new_id("glob")
    await turn.tool_call(
        tid,
        {
            "title": "",
            "kind": "search",
            "name": "Glob",
            "status": "in_progress",
            "rawInput": {"pattern": "*.py"},
        },
    )
    found = await asyncio.to_thread(
        lambda: sorted(p.name for p in Path(turn.session.cwd).glob("*.py"))
    )
    listed = "\n".join(found) or "(no Python files)"
    await turn.tool_update(tid, {"status": "completed", "content": [text_item(listed)]})
