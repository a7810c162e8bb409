"""The mode a session starts in decides who answers (some agents' defaults never ask): a preset,
``--mode`` or the editor's settings choose it."""

from __future__ import annotations

from pathlib import Path

from tests.support.recorder import Recorder
from tests.support.starter import StartClient


async def test_new_sessions_are_switched_to_the_configured_mode(
    start_client: StartClient, tmp_path: Path
) -> None:
    rec = Recorder()
    client = await start_client(frontend=rec, initial_mode="code")
    session = await client.new_session(str(tmp_path))
    assert session.state.current_mode() == "code"
    assert rec.mirrors[session.id]["modes"]["currentModeId"] == "code"


async def test_a_mode_the_agent_does_not_offer_is_left_alone(
    start_client: StartClient, tmp_path: Path
) -> None:
    client = await start_client(initial_mode="yolo")
    sent: list[str] = []
    client.connection.tracers.append(
        lambda d, m: sent.append(m.get("method", "")) if d == "send" else None
    )
    session = await client.new_session(str(tmp_path))
    assert session.state.current_mode() == "code"  # the scripted agent's default
    assert "session/set_mode" not in sent
