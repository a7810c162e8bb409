"""Typed JSON-RPC errors with stable codes.

Every error the sidecar returns to a peer is one of these, so the code a peer sees is decided in
one place and a handler only has to raise.
"""

from __future__ import annotations

from typing import Any


class RpcError(Exception):
    """An error that travels over JSON-RPC as ``{"code", "message", "data"}``."""

    CODE = -32603
    MESSAGE = "Internal error"

    def __init__(self, message: str | None = None, data: Any = None, *, code: int | None = None):
        self.code = self.CODE if code is None else code
        self.message = message or self.MESSAGE
        self.data = data
        super().__init__(self.message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            out["data"] = self.data
        return out

    @classmethod
    def from_json(cls, obj: Any) -> RpcError:
        """Build an error from a peer's ``error`` member, tolerating malformed ones."""
        if isinstance(obj, dict):
            code = obj.get("code")
            message = obj.get("message")
            return RpcError(
                str(message) if message is not None else "(no message)",
                obj.get("data"),
                code=code if isinstance(code, int) else -32603,
            )
        return RpcError(f"malformed error object: {obj!r}"[:200])


class ParseError(RpcError):
    CODE = -32700
    MESSAGE = "Parse error"


class InvalidRequest(RpcError):
    CODE = -32600
    MESSAGE = "Invalid request"


class MethodNotFound(RpcError):
    CODE = -32601
    MESSAGE = "Method not found"


class InvalidParams(RpcError):
    CODE = -32602
    MESSAGE = "Invalid params"


class InternalError(RpcError):
    CODE = -32603
    MESSAGE = "Internal error"


class RequestCancelled(RpcError):
    CODE = -32800
    MESSAGE = "Request cancelled"


class AuthRequired(RpcError):
    """ACP: the agent needs ``authenticate`` before it creates sessions."""

    CODE = -32000
    MESSAGE = "Authentication required"


class ResourceNotFound(RpcError):
    """ACP: a file (or other resource) the agent named does not exist."""

    CODE = -32002
    MESSAGE = "Resource not found"


class RequestTimeout(RpcError):
    """Our request to a peer passed its deadline; the peer was sent ``$/cancel_request``."""

    CODE = -32001
    MESSAGE = "Request timed out"


class ConnectionClosed(RpcError):
    """The peer went away while a request was pending (or before it could be sent)."""

    CODE = -32099
    MESSAGE = "Connection closed"


class AgentError(Exception):
    """The agent cannot be used: it failed to start, speaks another protocol version, ..."""
