"""The elicitation rules of docs/protocol/v1/elicitation.mdx that need no agent: capabilities,
what a request must hold, whether answers fit a form, and how a URL's host is judged."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol.elicitation import (
    answer_problems,
    capabilities,
    checked_request,
    host_warning,
    url_host,
)

FORM: dict[str, Any] = {
    "sessionId": "s1",
    "mode": "form",
    "message": "How?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "strategy": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "count": {"type": "integer", "minimum": 1, "maximum": 9},
            "ratio": {"type": "number"},
            "ok": {"type": "boolean"},
            "mail": {"type": "string", "format": "email", "maxLength": 20},
            "tags": {"type": "array", "items": {"enum": ["x", "y"]}},
        },
        "required": ["strategy"],
    },
}
PAGE = {"requestId": 7, "mode": "url", "message": "Sign in", "elicitationId": "e1"}


def test_each_mode_is_advertised_explicitly_and_none_means_omitted() -> None:
    assert capabilities(["url", "form"]) == {"form": {}, "url": {}}
    assert capabilities(["url"]) == {"url": {}}
    assert capabilities([]) is None


@pytest.mark.parametrize(
    ("params", "modes", "why"),
    [
        (FORM, ["url"], "did not advertise form"),
        ({**PAGE, "url": "https://x.test/"}, ["form"], "did not advertise url"),
        ({**FORM, "mode": "voice"}, ["form"], "mode must be one of"),
        ({**FORM, "message": None}, ["form"], "string message"),
        ({k: v for k, v in FORM.items() if k != "sessionId"}, ["form"], "sessionId or a requestId"),
        ({**PAGE, "url": "javascript:alert(1)"}, ["url"], "URL with a host"),
        ({**PAGE, "url": "file:///etc/passwd"}, ["url"], "URL with a host"),
        ({**PAGE, "url": "https://x.test/", "elicitationId": 3}, ["url"], "elicitationId"),
        ({**FORM, "requestedSchema": {"type": "array"}}, ["form"], "object schema"),
        (
            {**FORM, "requestedSchema": {"properties": {"a": {"type": "object"}}}},
            ["form"],
            "not a supported field",
        ),
        (
            {**FORM, "requestedSchema": {"properties": {}, "required": ["ghost"]}},
            ["form"],
            "must name its properties",
        ),
    ],
)
def test_a_request_that_cannot_be_asked_is_invalid_params(
    params: dict[str, Any], modes: list[str], why: str
) -> None:
    with pytest.raises(InvalidParams, match=why):
        checked_request(params, modes)


def test_good_requests_pass_as_they_are() -> None:
    assert checked_request(FORM, ["form"]) is FORM
    page = {**PAGE, "url": "https://x.test/a?b=1"}
    assert checked_request(page, ["url"]) is page


@pytest.mark.parametrize(
    ("content", "problems"),
    [
        ({"strategy": "a"}, []),
        (
            {
                "strategy": "a",
                "count": 3,
                "ratio": 0.5,
                "ok": False,
                "mail": "a@b.co",
                "tags": ["y"],
            },
            [],
        ),
        ({}, ["strategy: required"]),
        ({"strategy": "b"}, ["strategy: 'b' is not one of the choices"]),
        ({"strategy": "a", "count": 0}, ["count: must be at least 1"]),
        ({"strategy": "a", "count": 2.5}, ["count: must be a whole number"]),
        ({"strategy": "a", "count": True}, ["count: must be a number"]),
        ({"strategy": "a", "ok": "yes"}, ["ok: must be true or false"]),
        ({"strategy": "a", "mail": "nope"}, ["mail: must be an email address"]),
        ({"strategy": "a", "tags": ["z"]}, ["tags: 'z' is not one of the choices"]),
        ({"strategy": "a", "extra": 1}, ["extra: not asked for"]),
        ([], ["the answers must be an object"]),
    ],
)
def test_answers_are_checked_against_the_form(content: Any, problems: list[str]) -> None:
    assert answer_problems(FORM["requestedSchema"], content) == problems


@pytest.mark.parametrize(
    ("url", "host", "warned"),
    [
        ("https://example.com/x", "example.com", None),
        ("http://example.com/x", "example.com", "not encrypted"),
        ("https://xn--pple-43d.com/", "xn--pple-43d.com", "Punycode"),
        ("https://\u0430pple.com/", "\u0430pple.com", "Punycode"),  # a Cyrillic a
        ("https://github.com@evil.test/", "evil.test", "user name before the host"),
        ("https://10.0.0.1/login", "10.0.0.1", "bare IP address"),
    ],
)
def test_the_host_is_set_apart_and_misleading_ones_are_warned_of(
    url: str, host: str, warned: str | None
) -> None:
    assert url_host(url) == host
    warning = host_warning(url)
    assert warning is None if warned is None else warned in (warning or "")
