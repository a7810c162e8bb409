"""The ACP link itself: the agent's process (its group, stderr, the shutdown ladder), framing
newline-delimited JSON, the JSON-RPC peer (ids, deadlines, cancel), the connection that starts
the agent and the ``initialize`` handshake. Nothing here knows sessions or the editor."""
