"""What every group of editor handlers shares: registering methods on the server, answering our
errors with their JSON-RPC codes, and reading a prompt.

pygls marks each function it registers with attributes, which a bound method cannot take, so
handlers (methods of the surface classes) are registered through small wrapper functions. They
take their handler's name, not its signature (``named``): pygls reads a registered function's
signature and evaluates its type hints, to see whether it wants the server, before the editor's
``initialize`` is answered (issue 36: registering our 69 took 6.9 ms, 3.0 ms without). None of
ours asks for the server, and every command takes ``*args``, so pygls calls them the same way.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from acp_editor.errors import InvalidParams, RpcError

AsyncHandler = Callable[..., Awaitable[Any]]
F = TypeVar("F", bound=Callable[..., Any])


def named(wrapper: F, handler: Callable[..., Any]) -> F:
    """``wrapper`` with ``handler``'s name and docstring, and its own ``(*args)`` signature, with
    no type hints (``functools.wraps`` would hand pygls the handler's: see the module's doc)."""
    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        if hasattr(handler, attr):
            setattr(wrapper, attr, getattr(handler, attr))
    wrapper.__annotations__ = {}
    return wrapper


def answers_errors(handler: AsyncHandler) -> AsyncHandler:
    """Turn our ``RpcError``s into pygls's, keeping their code and message, so every request
    gets an answer the editor can show."""

    async def wrapper(*args: Any) -> Any:
        try:
            return await handler(*args)
        except RpcError as exc:
            raise JsonRpcException(exc.message, code=exc.code, data=exc.data) from exc

    return named(wrapper, handler)


def plain(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A function pygls can register that calls ``handler`` (sync or async) as it is."""
    if inspect.iscoroutinefunction(handler):

        async def call_async(*args: Any) -> Any:
            return await handler(*args)

        return named(call_async, handler)

    def call(*args: Any) -> Any:
        return handler(*args)

    return named(call, handler)


def register_requests(server: LanguageServer, table: dict[str, AsyncHandler]) -> None:
    """Requests (``acp/...`` or standard) whose errors are answered with their codes."""
    for method, handler in table.items():
        server.feature(method)(answers_errors(handler))


def register_commands(server: LanguageServer, table: dict[str, AsyncHandler]) -> None:
    """``workspace/executeCommand`` commands; each handler takes the command's arguments."""
    for name, handler in table.items():
        server.command(name)(answers_errors(handler))


def prompt_blocks(prompt: Any) -> list[dict[str, Any]]:
    if isinstance(prompt, str):
        return [{"type": "text", "text": prompt}]
    if (
        isinstance(prompt, list)
        and prompt
        and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in prompt)
    ):
        return prompt
    raise InvalidParams("prompt must be a string or a non-empty list of content blocks")
