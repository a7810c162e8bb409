"""The demo: a scripted ACP agent with no model (``python -m acp_editor.demo.agent``) that replays
what real agents send, used by ``acp-editor demo``, and the terminal run. The tests run the same
agent through ``tests/agents/scripted.py``, which adds the switches only tests need."""

import sys

DEMO_AGENT = [sys.executable, "-m", "acp_editor.demo.agent"]
"""The demo agent's command: what the sidecar runs when no agent is named."""
