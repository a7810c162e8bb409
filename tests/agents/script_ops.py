"""``script <json>`` prompts for the scripted agent (``--scripts``): a turn that does exactly the
work a test lists, so a model-based test (``tests/e2e_lsp/test_lsp_review_model.py``) can make
an agent do anything a real one does to files. Test-only: the demo's scenarios never see it.

The JSON is a list of operations, each carried out as one tool call (of kind ``edit``,
``delete`` or ``move``) whose ``locations`` name the file (so review attributes the change to
this session):

* ``{"op": "write", "path": P, "text": T, "via": V}``: the file becomes ``T`` (created when
  missing). ``via`` is ``"fs"`` (``fs/write_text_file``: the client writes it), ``"disk"`` (the
  agent writes the disk itself, as most agents do) or ``"both"`` (the disk, then
  ``fs/write_text_file`` of the same text: opencode's pattern).
* ``{"op": "delete", "path": P}``: the agent removes the file itself.
* ``{"op": "rename", "path": P, "to": Q}``: the agent renames ``P`` over ``Q`` itself (kind
  ``move``, naming ``Q``): the last step of an atomic write, as claude-agent-acp writes a file
  (``Q.tmp.<pid>.<n>``, written first by a ``"disk"`` write, then renamed over ``Q``).

``"ask": true`` on an operation asks permission first; a rejection ends the turn there, as the
demo's own scenarios do. ``P`` is relative to the session's ``cwd``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from acp_editor.demo_agent.scenarios import words
from acp_editor.demo_agent.server import prompts
from acp_editor.demo_agent.turn.prompt_turn import Turn, TurnStopped

PREFIX = "script "
FS_TIMEOUT = 30.0


def scripts_first() -> None:
    """Prompts that start with ``script `` run their operations; any other runs as before."""
    plain = words.run_turn

    async def run_turn(turn: Turn, text: str, *, wait_first: bool = False) -> str:
        if text.startswith(PREFIX):
            return await run_script(turn, json.loads(text[len(PREFIX) :]))
        return await plain(turn, text, wait_first=wait_first)

    prompts.run_turn = run_turn  # type: ignore[attr-defined]  # prompts calls it by this name


async def run_script(turn: Turn, ops: list[dict[str, Any]]) -> str:
    """Each operation in order, as its own tool call; the stop reason of the turn."""
    try:
        for op in ops:
            await _one(turn, op)
    except TurnStopped as stop:
        return stop.stop_reason
    return "end_turn"


async def _one(turn: Turn, op: dict[str, Any]) -> None:
    path = turn.path(op["path"])
    named = turn.path(op.get("to", op["path"]))  # the file the call changes
    tid = turn.new_id(op["op"])
    verb = {"delete": "Delete", "rename": "Rename"}.get(op["op"], "Write")
    fields: dict[str, Any] = {
        "title": f"{verb} {op['path']}",
        "kind": {"delete": "delete", "rename": "move"}.get(op["op"], "edit"),
        "status": "pending",
        "locations": [{"path": named, "line": 1}],
        "rawInput": {"path": named},
    }
    await turn.tool_call(tid, fields)
    if op.get("ask"):
        await turn.permit(tid, {"toolCallId": tid, "title": fields["title"]}, fields["title"])
    await turn.tool_update(tid, {"status": "in_progress"})
    if op["op"] == "delete":
        await asyncio.to_thread(Path(path).unlink, missing_ok=True)
    elif op["op"] == "rename":
        await asyncio.to_thread(Path(path).replace, named)
    else:
        via = op.get("via", "fs")
        if via in ("disk", "both"):
            await asyncio.to_thread(Path(path).write_text, op["text"], encoding="utf-8")
        if via in ("fs", "both"):
            params = {"sessionId": turn.session.session_id, "path": path, "content": op["text"]}
            await turn.peer.request("fs/write_text_file", params, timeout=FS_TIMEOUT)
    await turn.tool_update(tid, {"status": "completed"})
