"""What the agent asks of us, served: its requests and notifications routed to the session state
(``requests``), permission questions (``asking``), the agent's own questions (``eliciting``),
terminals it runs itself shown like ours (``display_terminals``), and MCP over ACP
(``mcp_over_acp``). Imports point to ``agent/``'s top and ``agent/link/``, never to
``agent/calls/``."""
