"""The demo agent's scenarios that read and write files: through the client (``fs/*``), so the
client sees and may refuse every access, or straight on disk with ``--writes-itself`` (and on the
v2 draft, which has no client ``fs/*``). Files used, relative to the session's ``cwd``:

* ``hello.py``: ``read`` reads lines 1-20; ``edit`` appends one line (creates it when missing);
  ``hunks`` changes its first line and appends one (two hunks to review).
* ``NOTES.md``: ``early-permission`` appends a line (creates it when missing).

Each edit shows its diff and asks permission first; a rejected permission ends the turn.
"""

from __future__ import annotations

from acp_editor.demo_agent.turn.prompt_turn import Turn, text_item
from acp_editor.errors import RpcError

HELLO = "hello.py"
NOTES = "NOTES.md"
READ_LIMIT = 20
EDIT_LINE = 'print("edited by the demo agent")\n'
NEW_HELLO = 'print("hello from the demo agent")\n'
NOTE_LINE = "- The demo agent was here.\n"
HUNK_MARK = "  # reviewed by the demo agent"


async def read(turn: Turn) -> None:
    """Announce the read twice (empty input first, as real agents do), then read via the client."""
    path, tid = turn.path(HELLO), turn.new_id("read")
    await turn.tool_call(
        tid, {"title": "Read", "kind": "read", "status": "pending", "rawInput": {}}
    )
    await turn.pause()
    await turn.tool_call(
        tid,
        {
            "title": f"Read {HELLO} (lines 1-{READ_LIMIT})",
            "kind": "read",
            "status": "pending",
            "rawInput": {"path": path, "line": 1, "limit": READ_LIMIT},
            "locations": [{"path": path, "line": 1}],
        },
    )
    async with turn.tool_errors(tid, f"Reading {HELLO}"):
        await turn.tool_update(tid, {"status": "in_progress"})
        text = await turn.read_file(path, line=1, limit=READ_LIMIT)
        await turn.tool_update(tid, {"status": "completed", "content": [text_item(text)]})


async def edit(turn: Turn) -> None:
    """Propose a whole-file diff, ask with all four option kinds, write only when allowed."""
    path, tid = turn.path(HELLO), turn.new_id("edit")
    async with turn.tool_errors(tid, f"Editing {HELLO}"):
        old = await turn.read_optional(path)
        new = NEW_HELLO if old is None else _with_newline(old) + EDIT_LINE
        await _propose_and_write(turn, tid, f"Edit {HELLO}", path, old, new, new.count("\n"))


async def hunks(turn: Turn) -> None:
    """An edit with two separate hunks (the first line and the end), to review one by one."""
    path, tid = turn.path(HELLO), turn.new_id("edit")
    async with turn.tool_errors(tid, f"Editing {HELLO}"):
        old = await turn.read_optional(path)
        if old is None:
            raise RpcError(f"{HELLO} does not exist")
        lines = old.splitlines(keepends=True)
        first = lines[0].rstrip("\r\n")
        lines[0] = lines[0].replace(first, first + HUNK_MARK, 1)
        new = _with_newline("".join(lines)) + EDIT_LINE
        await _propose_and_write(turn, tid, f"Edit {HELLO} in two places", path, old, new, 1)


async def _propose_and_write(
    turn: Turn, tid: str, title: str, path: str, old: str | None, new: str, line: int
) -> None:
    """Announce an edit with its diff and location, ask, then write (through the client, or
    straight to disk with ``--writes-itself``)."""
    await turn.tool_call(
        tid,
        {
            "title": title,
            "kind": "edit",
            "status": "pending",
            "content": [{"type": "diff", "path": path, "oldText": old, "newText": new}],
            "locations": [{"path": path, "line": line}],
            "rawInput": {"path": path, "newText": new},
        },
    )
    await turn.permit(tid, {"toolCallId": tid, "title": f"Edit {HELLO}"}, f"edit of {HELLO}")
    await turn.tool_update(tid, {"status": "in_progress"})
    await turn.write_file(path, new)
    await turn.tool_update(tid, {"status": "completed"})


async def early_permission(turn: Turn) -> None:
    """Ask before any ``tool_call`` exists, carrying the whole call; later updates name its id."""
    path, tid = turn.path(NOTES), turn.new_id("write")
    async with turn.tool_errors(tid, f"Writing {NOTES}"):
        old = await turn.read_optional(path)
        new = ("# Notes\n" if old is None else _with_newline(old)) + NOTE_LINE
        tool = {
            "toolCallId": tid,
            "title": f"Write {NOTES}",
            "kind": "edit",
            "status": "pending",
            "content": [{"type": "diff", "path": path, "oldText": old, "newText": new}],
            "locations": [{"path": path, "line": new.count("\n")}],
            "rawInput": {"path": path, "content": new},
        }
        await turn.permit(tid, tool, f"write to {NOTES}")
        await turn.tool_update(tid, {"status": "in_progress"})
        await turn.write_file(path, new)
        await turn.tool_update(tid, {"status": "completed"})


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
