"""The real client against the scripted agent, for what schema 1.25 adds (issue 34), with every
message the client sends validated against the official schema 1.25 (stable, and unstable for
the unstable methods): the opt-ins offered at initialize, a subagent's reads, question and
cancel, plans, notices and compactions, a terminal sign-in and its retried prompt."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

from acp_editor.agent.auth_methods import TerminalSignIn
from tests.support.recorder import Recorder
from tests.support.starter import StartClient

HELLO = 'def greet(name):\n    return f"Hello, {name}!"\n'


class Signer(Recorder):
    """A user who signs in with the first method, typing ``typed`` at the terminal."""

    def __init__(self, typed: str) -> None:
        super().__init__()
        self.typed = typed
        self.ran: list[TerminalSignIn] = []

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        return str(methods[0]["id"])

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        self.ran.append(request)
        done = await asyncio.to_thread(
            subprocess.run,
            request.command,
            input=self.typed,
            text=True,
            capture_output=True,
            env={**os.environ, **request.env},
            cwd=request.cwd,
            timeout=60,
            check=False,
        )
        return done.returncode


async def test_subagent_plans_notice_compaction_validate_and_mirror(
    start_client: StartClient, tmp_path: Path
) -> None:
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")
    recorder = Recorder()
    client = await start_client("--fast", frontend=recorder)
    session = await client.new_session(str(tmp_path))
    words = "notice compact plans subagent untitled"
    result = await client.prompt(session.id, [{"type": "text", "text": words}])
    assert result["stopReason"] == "end_turn" and "usage" in result
    children = [s for s in client.sessions.values() if s.parent == session.id]
    assert len(children) == 1
    snap = session.state.snapshot()
    kinds = {e["kind"] for e in snap["entries"]}
    roles = {e.get("role") for e in snap["entries"]}
    assert "notice" in kinds and {"compaction", "session"} <= roles
    assert snap["runState"]["usage"] == result["usage"]
    child = children[0].state.snapshot()
    assert child["toolCalls"] and recorder.permissions  # its own work, its own question
    for sid in (session.id, children[0].id):
        mirror = dict(recorder.mirrors[sid], protocolVersion=1)
        assert mirror == client.sessions[sid].state.snapshot()


async def test_cancelling_a_subagent_stops_only_it(
    start_client: StartClient, tmp_path: Path
) -> None:
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")
    recorder = Recorder(answer_kind=None)  # its question stays open until the child stops
    client = await start_client("--fast", frontend=recorder)
    session = await client.new_session(str(tmp_path))
    turn = asyncio.ensure_future(client.prompt(session.id, [{"type": "text", "text": "subagent"}]))
    await asyncio.wait_for(recorder.asked.wait(), 30)
    (child,) = [s for s in client.sessions.values() if s.parent == session.id]
    await client.cancel(child.id)
    result = await asyncio.wait_for(turn, 30)
    assert result["stopReason"] == "end_turn"  # the parent went on
    # The child's idle state came on the same stream, before the parent's answer.
    assert session.state.snapshot()["subagents"][child.id]["state"]["stopReason"] == "cancelled"


async def test_a_terminal_sign_in_then_the_prompt_goes_on(
    start_client: StartClient, tmp_path: Path
) -> None:
    login = tmp_path / "login.json"
    signer = Signer("Dana\n")
    client = await start_client(
        "--fast", "--require-login", "--login-file", str(login), frontend=signer
    )
    session = await client.new_session(str(tmp_path))
    result = await client.prompt(session.id, [{"type": "text", "text": "stream"}])
    assert result["stopReason"] == "end_turn"
    (ran,) = signer.ran
    assert ran.command[-3:] == ["--login", "--login-file", str(login)]
    assert login.exists()
