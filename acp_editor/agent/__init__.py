"""The ACP link: the agent process, newline-delimited JSON-RPC, and the client calls."""
