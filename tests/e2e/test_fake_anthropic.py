"""The fake Anthropic Messages server on its own, over plain HTTP (no agent, no npm).

``test_claude_code.py`` runs the real claude-code-acp agent against it through the sidecar.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from tests.agents.fake_anthropic import (
    FakeAnthropic,
    StepScript,
    call,
    running_fake_anthropic,
)

# -- the fake server on its own -----------------------------------------------------------------

READ_TOOLS = [{"name": "Read", "input_schema": {}}, {"name": "mcp__acp__Read", "input_schema": {}}]


def post(server: FakeAnthropic, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
    request = Request(
        server.base_url + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urlopen(request, timeout=10) as response:
            return response.status, response.headers["content-type"], response.read()
    except HTTPError as exc:
        return exc.code, exc.headers["content-type"], exc.read()


def sse_events(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in data.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields:
            events.append((fields["event"], json.loads(fields["data"])))
    return events


def test_streams_a_tool_use_with_the_acp_tool_name() -> None:
    script = StepScript([call("Read", "Reading.", file_path="/tmp/x.py")])
    with running_fake_anthropic(script) as server:
        body = {"model": "m", "stream": True, "tools": READ_TOOLS, "messages": [_user("go")]}
        status, content_type, data = post(server, "/v1/messages?beta=true", body)
    assert (status, content_type.split(";")[0]) == (200, "text/event-stream")
    events = sse_events(data)
    assert [name for name, _ in events] == [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert all(data["type"] == name for name, data in events)
    tool_start = events[6][1]["content_block"]
    assert (tool_start["type"], tool_start["name"], tool_start["input"]) == (
        "tool_use",
        "mcp__acp__Read",
        {},
    )
    deltas = [e["delta"] for n, e in events if n == "content_block_delta" and e["index"] == 1]
    partial = "".join(delta["partial_json"] for delta in deltas)
    assert json.loads(partial) == {"file_path": "/tmp/x.py"}
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"
    assert server.requests[0].path == "/v1/messages" and server.requests[0].is_main


def test_an_error_result_ends_the_turn_and_other_routes_get_json_errors() -> None:
    script = StepScript([call("Read", file_path="/a"), call("Edit", file_path="/a")])
    with running_fake_anthropic(script) as server:
        conversation = [
            _user("go"),
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "x"}]},
            _user(
                [{"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content": "no"}]
            ),
        ]
        body = {"model": "m", "tools": READ_TOOLS, "messages": conversation}
        status, _, data = post(server, "/v1/messages", body)
        message = json.loads(data)
        assert status == 200 and message["stop_reason"] == "end_turn"
        assert message["content"][0]["type"] == "text" and "(no)" in message["content"][0]["text"]

        status, _, data = post(server, "/v1/messages/count_tokens", {"messages": [_user("hi")]})
        assert status == 200 and json.loads(data)["input_tokens"] > 0

        side = {"model": "m", "max_tokens": 50, "messages": [_user("Write a title for this")]}
        status, _, data = post(server, "/v1/messages", side)
        assert status == 200 and json.loads(data)["content"][0]["text"] == "Scripted task"

        status, _, data = post(server, "/v1/complete", {})
        assert status == 404 and json.loads(data)["error"]["type"] == "not_found_error"
        assert "/v1/complete" in json.loads(data)["error"]["message"]

        missing = {"model": "m", "tools": [{"name": "Bash"}], "messages": [_user("go")]}
        status, _, data = post(server, "/v1/messages", missing)
        assert status == 200 and server.errors == [
            "no offered tool matches 'Read'; offered: ['Bash']"
        ]
    assert [r.path for r in server.requests] == [
        "/v1/messages",
        "/v1/messages/count_tokens",
        "/v1/messages",
        "/v1/complete",
        "/v1/messages",
    ]
    assert [r.is_main for r in server.requests] == [True, False, False, False, True]


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def _error_result(tool_use_id: str, text: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True, "content": text}


# -- the real agent -------------------------------------------------------------------------------
