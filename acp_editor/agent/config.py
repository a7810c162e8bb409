"""How to start and talk to one agent: the settings the agent side is built from."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from acp_editor.protocol import acp

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from acp_editor.review.queue.review_queue import Mode
    from acp_editor.services.path_map import PathMap
    from acp_editor.services.permissions import Rule


class EditorContext(Protocol):
    """The editor-context MCP server as the agent side sees it (``context/server.py``):
    an ``mcpServers`` entry and its token for each session set up: the token opens the call's
    folders at once (agents may connect before they answer) and is told the session's id with
    ``bind``."""

    async def entry(
        self, roots: Sequence[str], transport: str = "stdio", paths: PathMap | None = None
    ) -> tuple[dict[str, Any], str]: ...

    def prepare(self, transport: str) -> None: ...

    async def acp_connect(
        self, server_id: Any, notify: Callable[[str, dict[str, Any] | None], Awaitable[None]]
    ) -> str: ...

    async def acp_request(self, connection_id: Any, method: str, params: Any) -> Any: ...

    def acp_notification(self, connection_id: Any, method: str, params: Any) -> None: ...

    async def acp_disconnect(self, connection_id: Any) -> None: ...

    def bind(self, token: str, session_id: str, roots: Sequence[str]) -> None: ...

    def forget(self, token: str) -> None: ...

    def session_closed(self, session_id: str) -> None: ...

    def roots_changed(self, session_id: str, roots: Sequence[str]) -> None: ...


@dataclass
class AgentConfig:
    command: list[str]
    name: str = "default"
    """The agent's id in the editor protocol: its preset's name, ``default`` for the command
    after ``--``, ``demo`` for the built-in demo agent."""
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment variables on top of the sidecar's own."""
    protocol_version: int = acp.PROTOCOL_VERSION
    initial_mode: str | None = None
    """The session mode new sessions are switched to (``mode`` in a preset, ``--mode``)."""
    auth_method: str | None = None
    """Preselected auth method id (``--auth-method``); otherwise the front end asks."""
    unrestricted_fs: bool = False
    """Allow reads/writes outside the session roots."""
    request_timeout: float = 60.0
    session_timeout: float = 180.0
    """session/new and friends: real agents take seconds to set up a session."""
    prompt_timeout: float = 6 * 3600.0
    shutdown_grace: float = 0.0
    """Seconds between closing the agent's stdin and SIGTERM to its group (SIGKILL follows
    0.5 s later). No wait by default: editors kill a server that is slow to shut down (eglot
    after 1.5 s), and the agent's children must not outlive that."""
    review_mode: Mode = "after-write"
    """How the agent's changes are reviewed (see ``review.queue.review_queue``)."""
    tell_agent_rejections: bool = False
    """Add a note about rejected changes to the next prompt."""
    auto_approve: list[Rule] = field(default_factory=list)
    """Explicit auto-approval rules (off unless set)."""
    elicitation_modes: list[str] = field(default_factory=list)
    """The elicitation modes (``form``, ``url``) the front end can show: the ones advertised
    to the agent, set from the editor's capabilities. None by default."""
    mcp_servers: list[dict[str, Any]] = field(default_factory=list)
    """The user's own MCP servers, passed on in every session set-up."""
    editor_context: EditorContext | None = None
    """Gives every session the editor-context MCP server (None: off)."""
    env_allowlist: list[str] | None = None
    """When set, the agent (and the commands it runs) see only these variables of the sidecar's
    environment (``NAME`` or ``PREFIX*``), plus ``env``. None: the whole environment."""
    paths: PathMap | None = None
    """Where the agent sees the editor's folders, when elsewhere (a sandbox, a container,
    another machine: ``--map-path``, a preset's ``map_paths``): every path across the link is
    rewritten (``agent.link.mapped_paths``). Its commands would run where we are, not where it
    is: such an agent is offered no terminals, unless ``command_prefix`` says how to run them
    where it is."""
    command_prefix: list[str] | None = None
    """A command that runs the shell line given as its last argument where the agent is
    (``["ssh", "host"]``, ``["docker", "exec", "-i", "ctr", "sh", "-c"]``): its terminals run
    through it, in its path of the folder (``services.terminals.Elsewhere``)."""

    def offers_terminals(self) -> bool:
        """Whether the agent's terminals can be offered: it runs where its paths are ours, or
        a command prefix runs them where it is."""
        return not self.paths or bool(self.command_prefix)

    def base_env(self) -> dict[str, str]:
        if self.env_allowlist is None:
            return dict(os.environ)
        return {k: v for k, v in os.environ.items() if _allowed(k, self.env_allowlist)}


def _allowed(name: str, allowlist: list[str]) -> bool:
    return any(
        name.startswith(entry[:-1]) if entry.endswith("*") else name == entry for entry in allowlist
    )
