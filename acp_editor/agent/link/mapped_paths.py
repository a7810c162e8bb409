"""The ACP link's paths for an agent that sees the workspace elsewhere (issue 38).

Every message to the agent has its paths made the agent's, every message from it the editor's
(``services.path_map``): the rest of the sidecar sees the editor's paths only. Where a path
outside every pair would be read, written or run in, the message is refused with the pairs
named: the agent's ``fs/*`` and ``terminal/create`` (answered with an error), and a session
opened in a folder no pair holds (the agent would be told a folder it cannot see).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.errors import AgentError, InvalidParams
from acp_editor.protocol import acp

if TYPE_CHECKING:
    from acp_editor.services.path_map import PathMap

TOUCHING = frozenset({acp.FS_READ_TEXT_FILE, acp.FS_WRITE_TEXT_FILE, acp.TERMINAL_CREATE})
"""The agent's requests that read, write or run in a path: refused outside every pair."""
OPENING = frozenset({acp.SESSION_NEW, acp.SESSION_LOAD, acp.SESSION_RESUME, acp.SESSION_FORK})
"""Our requests that tell the agent the session's folder: it must be one it sees."""


class MappedPaths:
    """A ``Translation`` for ``agent.link.rpc.JsonRpcPeer``: paths across the link, both ways."""

    def __init__(self, paths: PathMap) -> None:
        self.paths = paths

    def outgoing(self, method: str, params: Any) -> Any:
        mapped = self.paths.outbound(params)
        cwd = params.get("cwd") if isinstance(params, dict) else None
        if method in OPENING and cwd in mapped.unmapped:
            raise AgentError(
                f"the folder {cwd} is not where the agent sees it: no --map-path pair holds it"
                f" ({self.paths.describe()}); add one, AGENT_PATH={cwd}"
            )
        return mapped.value

    def incoming(self, method: str, params: Any) -> Any:
        mapped = self.paths.inbound(params)
        if method in TOUCHING and mapped.unmapped:
            raise InvalidParams(
                f"{', '.join(mapped.unmapped)} is outside the folders shared with the editor"
                f" (--map-path {self.paths.describe()})"
            )
        return mapped.value

    def answer_in(self, method: str, result: Any) -> Any:
        return self.paths.inbound(result).value

    def answer_out(self, method: str, result: Any) -> Any:
        return self.paths.outbound(result).value
