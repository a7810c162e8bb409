"""The demo agent's update-only scenarios, run on a real peer whose lines are kept: what the
client would read, and what every turn carries (its usage, its tools' names). (Every scenario
also runs end to end in tests/e2e and tests/e2e_lsp.)"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from acp_editor.agent.link.rpc import JsonRpcPeer, Writer
from acp_editor.demo_agent.scenarios.words import SENT_NS, WALK_LINES, chosen, walk
from acp_editor.demo_agent.turn.capabilities import ClientCaps
from acp_editor.demo_agent.turn.prompt_turn import AgentSession, Turn
from tests.unit.demo_agent.wire import FS, Wire


def _turn(version: int = 1) -> tuple[Turn, list[bytes]]:
    lines: list[bytes] = []

    async def drain() -> None:
        return None

    peer = JsonRpcPeer("client", Writer(lines.append, drain))
    session = AgentSession("s1", "/w")
    turn = Turn(peer, session, version=version, caps=ClientCaps(), fast=True, wait_seconds=0)
    return turn, lines


def _updates(lines: list[bytes]) -> list[dict[str, Any]]:
    messages = [json.loads(line) for chunk in lines for line in chunk.splitlines() if line]
    return [m["params"]["update"] for m in messages if m.get("method") == "session/update"]


async def test_walk_moves_down_the_file_a_line_at_a_time_each_location_stamped() -> None:
    turn, lines = _turn()
    before = time.monotonic_ns()
    await walk(turn)
    updates = _updates(lines)
    located = [u for u in updates if "locations" in u]
    assert [u["locations"] for u in located] == [
        [{"path": "/w/hello.py", "line": line}] for line in range(1, WALK_LINES + 1)
    ]
    stamps = [u["_meta"][SENT_NS] for u in located]
    assert stamps == sorted(stamps) and before <= stamps[0] <= stamps[-1] <= time.monotonic_ns()
    assert {u["toolCallId"] for u in located} == {updates[0]["toolCallId"]}
    assert updates[0]["sessionUpdate"] == "tool_call" and updates[0]["kind"] == "read"
    assert updates[-1] == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": updates[0]["toolCallId"],
        "status": "completed",
    }


async def test_walk_streams_thoughts_between_its_locations() -> None:
    turn, lines = _turn()
    await walk(turn)
    updates = _updates(lines)
    first, second = [i for i, u in enumerate(updates) if "locations" in u][:2]
    between = [u["sessionUpdate"] for u in updates[first + 1 : second]]
    assert len(between) > 10 and set(between) == {"agent_thought_chunk"}


async def test_walk_keeps_its_stamp_on_the_v2_draft() -> None:
    turn, lines = _turn(version=2)
    await walk(turn)
    located = [u for u in _updates(lines) if "locations" in u]
    assert len(located) == WALK_LINES and all(SENT_NS in u["_meta"] for u in located)


def test_walk_is_a_word_of_its_own_and_not_part_of_all() -> None:
    assert chosen("/walk") == ["walk"]
    assert "walk" not in chosen("all")


def test_the_new_words_are_words_of_their_own_and_not_part_of_all() -> None:
    new = ["notice", "compact", "plans", "subagent", "subagent-fails", "untitled"]
    assert chosen(" ".join(f"/{word}" for word in new)) == new
    assert not set(new) & set(chosen("all"))


async def test_every_prompt_answer_counts_its_tokens(wires: Callable[..., Wire]) -> None:
    wire = wires()
    await wire.start(FS)
    sid = await wire.new()
    short = (await wire.prompt(sid, "hello"))["usage"]
    longer = (await wire.prompt(sid, "stream walk"))["usage"]
    for usage in (short, longer):
        assert usage["totalTokens"] == usage["inputTokens"] + usage["outputTokens"]
    assert longer["inputTokens"] > short["inputTokens"]  # the conversation grew
    assert longer["outputTokens"] > short["outputTokens"]


async def test_tool_calls_carry_their_tools_names(wires: Callable[..., Wire]) -> None:
    wire = wires()
    await wire.start({**FS, "terminal": False})
    sid = await wire.new()
    await wire.prompt(sid, "read edit chunks")
    named = {c["kind"]: c.get("name") for c in wire.of(sid, "tool_call")}
    assert named == {"read": "Read", "edit": "Edit", "search": "Grep"}


async def test_a_sessions_title_is_its_first_prompts_text_else_a_files_name(
    wires: Callable[..., Wire],
) -> None:
    wire = wires()
    await wire.start()
    hello = (wire.root / "hello.py").as_uri()
    attached = [
        {"type": "resource_link", "uri": hello, "name": "hello.py"},
        {"type": "resource", "resource": {"uri": hello, "text": "print(1)\n"}},
    ]
    for typed, title in (("explain @hello.py", "explain @hello.py"), ("", "hello.py")):
        sid = await wire.new()
        blocks = [{"type": "text", "text": typed}, *attached]
        await wire.call("session/prompt", {"sessionId": sid, "prompt": blocks})
        (info,) = wire.of(sid, "session_info_update")
        assert info["title"] == title  # never the file:// URI
