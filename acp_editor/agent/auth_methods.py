"""An agent's sign-in methods as the client reads them (``authMethods``: each ``agent`` or, since
schema 1.25, ``terminal``), and a terminal sign-in to run: what the front end is handed."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

TERMINAL = "terminal"


def method_type(method: dict[str, Any]) -> str:
    """A method's type: ``agent`` unless it says otherwise (the schema's default)."""
    kind = method.get("type")
    return kind if isinstance(kind, str) else "agent"


@dataclass(frozen=True)
class TerminalSignIn:
    """A terminal sign-in to run where the user can type (``acp/signInTerminal``)."""

    agent: str
    """The agent's id (see "Several agents")."""
    agent_name: str
    method_id: str
    name: str
    command: list[str]
    """The agent's own command and the method's ``args``."""
    env: dict[str, str] = field(default_factory=dict)
    """Variables to set for it: the agent's configured ones, then the method's."""
    cwd: str | None = None
    description: str | None = None

    def command_line(self) -> str:
        """The command as a user would type it in a POSIX shell, variables first."""
        assignments = [f"{k}={shlex.quote(v)}" for k, v in self.env.items()]
        return " ".join([*assignments, shlex.join(self.command)])

    def to_json(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "agent": self.agent,
            "agentName": self.agent_name,
            "methodId": self.method_id,
            "name": self.name,
            "command": self.command,
            "env": self.env,
            "commandLine": self.command_line(),
        }
        if self.cwd is not None:
            params["cwd"] = self.cwd
        if self.description:
            params["description"] = self.description
        return params
