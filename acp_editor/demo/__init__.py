"""The demo: a scripted ACP agent with no model (``python -m acp_editor.demo.agent``), used by
``acp-editor demo`` and by the tests to replay what real agents send, and the terminal run."""
