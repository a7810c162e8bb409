"""How end-to-end tests start the scripted agent (shared by the e2e fixtures and tests)."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable

from acp_editor.agent.client import AcpClient

SCRIPTED_AGENT = [sys.executable, "-m", "acp_editor.demo.agent", "--fast"]

StartClient = Callable[..., Awaitable[AcpClient]]
