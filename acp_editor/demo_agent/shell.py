"""Commands the demo agent runs itself on the ACP v2 draft (which has no client terminals),
shown live as display terminals: ``terminal_update`` (the command, then its exit) and
``terminal_output_chunk`` (base64 output, as it comes)."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from acp_editor.demo_agent.turn import Turn


async def run_displayed(
    turn: Turn, tool_id: str, command: str
) -> tuple[int | None, str, dict[str, Any]]:
    """Run ``command`` ourselves, shown live as a display terminal of tool call ``tool_id``;
    returns its exit code, its output, and the terminal's content item."""
    terminal_id = turn.new_id("term")
    shown = {"type": "terminal", "terminalId": terminal_id}
    await turn.tool_update(tool_id, {"status": "in_progress", "content": [shown]})
    await turn.update(
        {
            "sessionUpdate": "terminal_update",
            "terminalId": terminal_id,
            "command": command,
            "cwd": turn.session.cwd,
        }
    )
    proc = await turn.spawn(command)
    output = bytearray()
    try:
        assert proc.stdout is not None
        while chunk := await proc.stdout.read(4096):
            output += chunk
            data = base64.b64encode(chunk).decode("ascii")
            await turn.update(
                {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id, "data": data}
            )
        code = await proc.wait()
    finally:
        if proc.returncode is None:  # cancelled: the command must not outlive the turn
            proc.kill()
            await proc.wait()
    exit_status = {"exitCode": code, "signal": None}
    await turn.update(
        {"sessionUpdate": "terminal_update", "terminalId": terminal_id, "exitStatus": exit_status}
    )
    return code, output.decode("utf-8", errors="replace"), shown
