"""Client services: what the sidecar does for the agent when the agent asks.

``paths`` decides which paths an agent may touch, ``documents`` serves ``fs/*``, and
``terminals`` serves ``terminal/*``. The handlers take a request's raw ``params`` and return the
JSON result the ACP schema prescribes, raising ``acp_editor.errors.RpcError`` subclasses, so the
agent link only routes methods to them.
"""
