"""How tests start the scripted agent (shared by the e2e, editor-link and Neovim tests).

They run the test agent, ``tests/agents/scripted.py``: the product's demo agent plus the switches
only tests need (``--fast`` and the misbehaving ones), by file path since the cwd is temporary.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from acp_editor.agent.client import AcpClient

SCRIPTED_AGENT_FILE = Path(__file__).resolve().parents[1] / "agents" / "scripted.py"
STREAMING_AGENT = [sys.executable, str(SCRIPTED_AGENT_FILE)]
"""The test agent at the demo's pace: text arrives word by word, 20 ms apart."""
SCRIPTED_AGENT = [*STREAMING_AGENT, "--fast"]
"""The test agent without delays: what most tests run."""

StartClient = Callable[..., Awaitable[AcpClient]]
