"""The built-in demo agent: a scripted ACP agent with no model (``python -m acp_editor.demo_agent``)
that replays what real agents send. The sidecar runs it when no agent is named, and so does
``acp-editor demo``. The tests run the same agent through ``tests/agents/scripted.py``, which adds
the switches only tests need."""

import sys

DEMO_AGENT = [sys.executable, "-m", "acp_editor.demo_agent"]
"""The demo agent's command: what the sidecar runs when no agent is named."""
