"""JSON-RPC errors: each kind keeps its stable code, travels as ``{code, message, data}``, and a
peer's malformed error object still becomes an error we can report."""

from __future__ import annotations

import pytest

from acp_editor import errors
from acp_editor.errors import RpcError


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        (errors.ParseError, -32700),
        (errors.InvalidRequest, -32600),
        (errors.MethodNotFound, -32601),
        (errors.InvalidParams, -32602),
        (errors.InternalError, -32603),
        (errors.RequestCancelled, -32800),
        (errors.AuthRequired, -32000),
        (errors.RequestTimeout, -32001),
        (errors.ResourceNotFound, -32002),
        (errors.ConnectionClosed, -32099),
    ],
)
def test_each_kind_keeps_its_code_and_a_default_message(kind: type[RpcError], code: int) -> None:
    error = kind()
    assert (error.code, error.to_json()) == (code, {"code": code, "message": kind.MESSAGE})
    assert str(kind("what went wrong")) == "what went wrong"


def test_data_travels_only_when_there_is_some() -> None:
    error = errors.InvalidParams("bad path", {"path": "/x"})
    assert error.to_json() == {"code": -32602, "message": "bad path", "data": {"path": "/x"}}
    assert RpcError("custom", code=-1).to_json() == {"code": -1, "message": "custom"}


@pytest.mark.parametrize(
    ("wire", "code", "message", "data"),
    [
        ({"code": -32602, "message": "nope", "data": [1]}, -32602, "nope", [1]),
        ({"code": "7", "message": 12}, -32603, "12", None),
        ({}, -32603, "(no message)", None),
        ("boom", -32603, "malformed error object: 'boom'", None),
    ],
)
def test_a_peers_error_is_read_whatever_its_shape(
    wire: object, code: int, message: str, data: object
) -> None:
    error = RpcError.from_json(wire)
    assert (error.code, error.message, error.data) == (code, message, data)


def test_a_huge_malformed_error_is_cut_short() -> None:
    assert len(RpcError.from_json(["x" * 10_000]).message) == 200
