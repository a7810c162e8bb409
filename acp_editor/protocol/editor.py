"""The ``acp/...`` editor protocol in Python: a mirror of ``docs/protocol.md``.

The document is the source of truth. Its tables (methods, features, commands, permission kinds,
review modes) are generated into ``editor_names`` by ``scripts/protocol_tables.py`` and re-exported
here, so every module imports the protocol's names from this one place; ``tests/unit/protocol``
fails when the generated module is stale. What follows is what the document says in prose only.
Payloads are plain JSON objects, typed here only as far as the server reads them.
"""

from __future__ import annotations

# Every name of the generated module (its __all__), so that a new message needs no edit here.
from acp_editor.protocol.editor_names import *  # noqa: F403

DIAGNOSTIC_SOURCE = "acp"
"""The ``source`` of the diagnostics that mark pending hunks and conflicts."""

AGENT_UNAVAILABLE = -32050
"""Error code: the agent failed to start or has exited."""
