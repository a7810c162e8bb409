"""An agent that sees the workspace elsewhere, over a real JSON-RPC peer: what it sends has the
editor's paths by the time a handler reads it, what we send has the agent's, and a file or
folder outside every pair is refused by name."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from acp_editor.agent.link.mapped_paths import MappedPaths
from acp_editor.errors import AgentError
from acp_editor.protocol import acp
from acp_editor.services.path_map import PathMap
from tests.unit.agent.link.test_rpc import line, make_peer, response_to

PAIRS = PathMap.parse(["/workspace=/home/me/project"])


def mapped_peer() -> Any:
    return make_peer(translation=MappedPaths(PAIRS))


async def test_the_agent_s_requests_and_updates_reach_us_with_the_editor_s_paths() -> None:
    peer, wire = mapped_peer()
    read: list[Any] = []
    updates: list[Any] = []

    async def read_file(params: Any) -> Any:
        read.append(params["path"])
        return {"content": "x"}

    peer.on_request(acp.FS_READ_TEXT_FILE, read_file)
    peer.on_notification(acp.SESSION_UPDATE, updates.append)
    peer.feed(
        line(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": acp.FS_READ_TEXT_FILE,
                "params": {"sessionId": "s", "path": "/workspace/a.py"},
            }
        )
    )
    update = {
        "sessionUpdate": "tool_call",
        "toolCallId": "t",
        "title": "read",
        "locations": [{"path": "/workspace/b.py"}],
    }
    peer.feed(
        line(
            {
                "jsonrpc": "2.0",
                "method": acp.SESSION_UPDATE,
                "params": {"sessionId": "s", "update": update},
            }
        )
    )
    answer = await wire.next_where(response_to(1))
    assert answer["result"] == {"content": "x"}
    assert read == ["/home/me/project/a.py"]
    assert updates[0]["update"]["locations"] == [{"path": "/home/me/project/b.py"}]


@pytest.mark.parametrize(
    ("method", "params"),
    [
        (acp.FS_WRITE_TEXT_FILE, {"sessionId": "s", "path": "/etc/passwd", "content": "x"}),
        (acp.TERMINAL_CREATE, {"sessionId": "s", "command": "ls", "cwd": "/root"}),
    ],
)
async def test_a_file_or_folder_outside_every_pair_is_refused_never_touched(
    method: str, params: dict[str, Any]
) -> None:
    peer, wire = mapped_peer()
    called: list[Any] = []

    async def handler(got: Any) -> Any:
        called.append(got)
        return {}

    peer.on_request(method, handler)
    peer.feed(line({"jsonrpc": "2.0", "id": 5, "method": method, "params": params}))
    error = (await wire.next_where(response_to(5)))["error"]
    assert error["code"] == -32602
    assert "outside the folders shared with the editor" in error["message"]
    assert "/workspace=/home/me/project" in error["message"]
    assert called == []


async def test_our_session_goes_to_the_agent_in_its_own_folder_and_answers_come_back() -> None:
    peer, wire = mapped_peer()
    request = asyncio.ensure_future(
        peer.request(acp.SESSION_LIST, {"cwd": "/home/me/project"}, timeout=2)
    )
    sent = await wire.next_where(lambda m: m.get("method") == acp.SESSION_LIST)
    assert sent["params"] == {"cwd": "/workspace"}
    sessions = [{"sessionId": "a", "cwd": "/workspace/sub"}]
    peer.feed(line({"jsonrpc": "2.0", "id": sent["id"], "result": {"sessions": sessions}}))
    assert (await request)["sessions"][0]["cwd"] == "/home/me/project/sub"


async def test_a_session_in_a_folder_no_pair_holds_is_not_opened() -> None:
    peer, wire = mapped_peer()
    with pytest.raises(AgentError, match=r"/elsewhere.*no --map-path pair holds it"):
        await peer.request(acp.SESSION_NEW, {"cwd": "/elsewhere", "mcpServers": []}, timeout=2)
    assert wire.sent == []  # nothing reached the agent
