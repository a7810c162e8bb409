"""The agent's status as the editor sees it: starting, ready, failed, exited.

One object holds it, the agent supervisor sets it as it starts agents and the front end when an
agent exits; editors with the rich ``stream`` feature are told each change (``acp/agentStatus``),
the others read it with ``acp.status``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel


class AgentStatus:
    def __init__(self, channel: EditorChannel, command: list[str]) -> None:
        self.channel = channel
        self.command = command
        self.current: dict[str, Any] = {"state": "starting", "command": command}

    def set(self, **status: Any) -> None:
        self.current = {"command": self.command, **status}
        if self.channel.features.has(proto.FEATURE_STREAM) and self.channel.initialized:
            self.channel.notify(proto.ACP_AGENT_STATUS, self.current)

    def exited(self, returncode: int | None, stderr_tail: str, expected: bool) -> None:
        if expected:
            self.set(state="exited", exitCode=returncode)
        else:
            self.set(
                state="failed",
                exitCode=returncode,
                stderrTail=stderr_tail,
                message=f"the agent exited unexpectedly with code {returncode}",
            )
