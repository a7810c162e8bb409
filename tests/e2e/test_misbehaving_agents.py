"""Agents that misbehave: garbage, floods, bad requests, crashes, hangs. Nothing lost, no hang."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from acp_editor.errors import AgentError, ConnectionClosed
from tests.support.lsp import wait_until
from tests.support.recorder import Recorder
from tests.support.starter import StartClient

AGENT = [sys.executable, str(Path(__file__).parents[1] / "agents" / "misbehaving.py")]


async def start(
    start_client: StartClient,
    mode: str,
    tmp_path: Path,
    rec: Recorder | None = None,
    *flags: str,
    **config: Any,
) -> Any:
    client = await start_client(
        "--mode", mode, *flags, command=AGENT, frontend=rec or Recorder(), **config
    )
    session = await client.new_session(str(tmp_path))
    return client, session


def text_of(session: Any) -> str:
    snap = session.state.snapshot()
    return "".join(
        block.get("text", "")
        for entry in snap["entries"]
        if entry.get("role") == "agent"
        for block in entry["content"]
    )


async def test_garbage_giant_lines_and_bad_utf8_are_skipped(
    start_client: StartClient, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    client, session = await start(start_client, "garbage", tmp_path)
    result = await client.prompt(session.id, [{"type": "text", "text": "go"}])
    assert result["stopReason"] == "end_turn"
    assert text_of(session) == "still here"  # the session went on
    logged = caplog.text
    assert "not JSON" in logged and "invalid UTF-8" in logged
    assert "not a message" in logged and "not waiting for" in logged


async def test_a_flood_of_updates_loses_nothing(start_client: StartClient, tmp_path: Path) -> None:
    count = 100_000
    client, session = await start(start_client, "flood", tmp_path, None, "--count", str(count))
    began = time.monotonic()
    await client.prompt(session.id, [{"type": "text", "text": "go"}])
    took = time.monotonic() - began
    snap = session.state.snapshot()
    assert len(snap["toolCalls"]) == count // 10
    text = "".join(
        b["text"] for e in snap["entries"] if e.get("role") == "agent" for b in e["content"]
    )
    assert text == "".join(f"<{i}>" for i in range(count) if i % 10 != 9)  # in order, complete
    print(f"\n100k updates through the client in {took:.2f} s")


async def test_bad_requests_get_the_right_errors(start_client: StartClient, tmp_path: Path) -> None:
    record = tmp_path / "answers.json"
    sent: list[dict[str, Any]] = []
    duplicate = asyncio.Event()
    rec = Recorder("allow_once", release=duplicate)  # the first is pending when the duplicate comes

    def trace(direction: str, message: dict[str, Any]) -> None:
        if direction == "send":
            sent.append(message)
        elif message.get("id") == "dup" and message.get("method") == "fs/read_text_file":
            duplicate.set()  # the second request with the first one's id has arrived

    client, session = await start(start_client, "probe", tmp_path, rec, "--record", str(record))
    client.connection.tracers.append(trace)
    await client.prompt(session.id, [{"type": "text", "text": "go"}])
    answers = json.loads(record.read_text())
    assert answers["unknown terminal"]["error"]["code"] == -32602
    assert "never-made" in answers["unknown terminal"]["error"]["message"]
    assert answers["unknown method"]["error"]["code"] == -32601
    outside = answers["outside the workspace"]["error"]
    assert outside["code"] == -32602 and "/etc/passwd" in outside["message"]
    assert str(tmp_path) in outside["message"]  # names the allowed roots
    assert "absolute" in answers["relative path"]["error"]["message"]
    assert "unknown session" in answers["unknown session"]["error"]["message"]
    assert answers["duplicate id"]["result"]["outcome"]["optionId"] == "ok"
    assert sum(1 for m in sent if m.get("id") == "dup") == 1  # one answer for two requests


async def test_crash_mid_turn_fails_the_turn_and_withdraws_the_question(
    start_client: StartClient, tmp_path: Path
) -> None:
    rec = Recorder(answer_kind=None)  # the user has not answered yet
    client, session = await start(start_client, "crash", tmp_path, rec)
    with pytest.raises(ConnectionClosed, match="exited with code 3"):
        await asyncio.wait_for(client.prompt(session.id, [{"type": "text", "text": "go"}]), 10)
    await asyncio.wait_for(client.exited.wait(), 5)
    assert rec.permission_cancelled == 1  # the editor's dialog was withdrawn
    (code, tail, expected) = rec.exits[0]
    assert code == 3 and "the model went away" in tail and expected is False


async def test_a_hanging_turn_can_still_be_cancelled_locally(
    start_client: StartClient, tmp_path: Path
) -> None:
    client, session = await start(start_client, "hang", tmp_path, None, prompt_timeout=1.0)
    sent: list[str] = []
    client.connection.tracers.append(
        lambda d, m: sent.append(m["method"]) if d == "send" and "method" in m else None
    )
    began = time.monotonic()
    with pytest.raises(Exception, match="no answer within 1 s"):
        await client.prompt(session.id, [{"type": "text", "text": "go"}])
    assert time.monotonic() - began < 5
    turn = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "again"}]))
    await wait_until(lambda: sent.count("session/prompt") == 2, timeout=15)  # the agent has it
    turn.cancel()  # the editor gave up: session/cancel goes out, nothing hangs
    with pytest.raises(asyncio.CancelledError):
        await turn


async def test_an_agent_that_never_initializes_hits_the_deadline(
    start_client: StartClient, tmp_path: Path
) -> None:
    with pytest.raises(AgentError, match="initialize got no answer within 1 s"):
        await start_client("--mode", "hang-init", command=AGENT, request_timeout=1.0)
