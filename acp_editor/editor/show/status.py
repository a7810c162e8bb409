"""Each agent's status as the editor sees it: starting, ready, failed, exited.

One object per agent holds it (``AgentStatuses`` keeps them by the agent's id); the agent's
runner sets it as it starts the agent and the front end when the agent exits. Editors with the
rich ``stream`` feature are told each change (``acp/agentStatus``, which names the agent), the
others read it with ``acp.status``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.lsp.channel import EditorChannel


class AgentStatus:
    def __init__(self, channel: EditorChannel, command: list[str], agent: str = "default") -> None:
        self.channel = channel
        self.command = command
        self.agent = agent
        self.started = False
        """Whether the agent was started in this server's life (else its status is only the
        starting point every agent has)."""
        self.current: dict[str, Any] = {"agent": agent, "state": "starting", "command": command}
        self.auth: dict[str, Any] | None = None
        """Whether the agent says it is signed in (``AgentStatus.auth``): kept across the
        agent's other changes of state, as the agent said it last."""

    def set(self, **status: Any) -> None:
        self.started = True
        self.current = {"agent": self.agent, "command": self.command, **status}
        self._tell()

    def set_auth(self, auth: dict[str, Any]) -> None:
        self.auth = auth
        self._tell()

    def _tell(self) -> None:
        if self.auth is not None:
            self.current["auth"] = self.auth
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


class AgentStatuses:
    """Every agent's status, by the agent's id: made when an agent is first asked for."""

    def __init__(self, channel: EditorChannel) -> None:
        self.channel = channel
        self._by_id: dict[str, AgentStatus] = {}

    def of(self, agent: str, command: list[str]) -> AgentStatus:
        status = self._by_id.get(agent)
        if status is None:
            status = self._by_id[agent] = AgentStatus(self.channel, command, agent)
        return status

    def get(self, agent: str) -> AgentStatus | None:
        return self._by_id.get(agent)
