"""The editor-context MCP server's contract (docs/protocol.md, "The editor-context MCP
server"): its name, its tools, and how the stdio bridge gets its session's token. Both ends read
these: the sidecar (``context/server.py``) and the bridge the agent starts
(``context/bridge.py``)."""

from __future__ import annotations

SERVER_NAME = "editor"
TOKEN_ENV = "ACP_EDITOR_MCP_TOKEN"
"""The environment variable that carries the session's token to the stdio bridge."""
TOOLS = ("open_buffers", "read_buffer", "diagnostics", "selection", "review_state")
