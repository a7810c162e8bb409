"""The editor-context MCP server (``editor``): what an agent may ask of the editor (open buffers
with their unsaved text, diagnostics, the selection, review) while it works.

``server`` is the sidecar's end (a private Unix socket and a token per session); ``tools`` the
tools and who may call them; ``sdk`` the tools on the official MCP Python SDK; ``bridge`` the
stdio server an agent starts (``acp-editor mcp --connect SOCKET``); ``over_http`` and
``over_acp`` the other ways in; ``calls`` each call shown in its session like a tool call.
Only ``editor/build.py`` (and the CLI, for the bridge) import it.
"""
