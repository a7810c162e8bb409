"""What every group of handlers shares: our errors answered with their JSON-RPC codes, handlers
registered through plain functions (sync or async), and the arguments a prompt or command takes."""

from __future__ import annotations

import inspect
import typing
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.editor.lsp.handling import answers_errors, plain, prompt_blocks
from acp_editor.errors import InvalidParams, ResourceNotFound


async def test_our_errors_reach_the_editor_with_their_code_message_and_data() -> None:
    async def missing(path: str) -> None:
        raise ResourceNotFound(f"no {path}", {"path": path})

    with pytest.raises(JsonRpcException) as raised:
        await answers_errors(missing)("/w/a")
    assert (raised.value.code, raised.value.message) == (ResourceNotFound.CODE, "no /w/a")
    assert raised.value.data == {"path": "/w/a"}


async def test_answers_pass_through_and_other_failures_stay_what_they_are() -> None:
    async def echo(*args: Any) -> tuple[Any, ...]:
        return args

    async def broken() -> None:
        raise RuntimeError("a bug")

    assert await answers_errors(echo)(1, 2) == (1, 2)
    with pytest.raises(RuntimeError, match="a bug"):
        await answers_errors(broken)()


async def test_plain_keeps_a_handler_sync_or_async() -> None:
    def sync(x: int) -> int:
        return x + 1

    async def later(x: int) -> int:
        return x * 2

    assert plain(sync)(1) == 2
    assert await plain(later)(4) == 8
    assert plain(sync).__name__ == "sync"  # pygls registers the function by its attributes


def test_pygls_sees_no_handler_type_hints_and_calls_every_wrapper_the_same_way() -> None:
    """pygls evaluates a registered function's type hints (is the server wanted?) and reads a
    command's signature for its arguments: the wrappers show it ``(*args)`` and no hints, so
    registering costs nothing per handler, even for hints that would not resolve here."""

    def sync(params: NotImportedHere) -> None:  # noqa: F821
        return None

    async def command(*args: NotImportedHere) -> None:  # noqa: F821
        return None

    for wrapped in (plain(sync), plain(command), answers_errors(command)):
        assert typing.get_type_hints(wrapped) == {}
        (only,) = inspect.signature(wrapped).parameters.values()
        assert only.kind is inspect.Parameter.VAR_POSITIONAL
    assert answers_errors(command).__name__ == "command"


def test_a_prompt_is_a_string_or_content_blocks() -> None:
    assert prompt_blocks("hi") == [{"type": "text", "text": "hi"}]
    blocks = [{"type": "text", "text": "a"}, {"type": "resource_link", "uri": "file:///a"}]
    assert prompt_blocks(blocks) is blocks
    for bad in ([], [{"text": "no type"}], ["a"], 3, None):
        with pytest.raises(InvalidParams, match="prompt must be"):
            prompt_blocks(bad)
