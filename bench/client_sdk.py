"""Set-up (b): the official ACP Python SDK (``agent-client-protocol``) as the client.

The SDK spawns the agent, validates every notification into its pydantic models and calls our
``session_update`` with them; the receive time is taken there, when an application could first
use the update. The SDK reports handler failures (an update its schema cannot validate) through
``logging``; they are counted here instead of printed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, cast

from acp import Client, spawn_agent_process, text_block
from acp.schema import ClientCapabilities, Implementation
from measure import Tally, own_cpu_s, own_peak_rss_mb
from stamps import from_sdk_update
from workload import Workload

SETUP_TIMEOUT_S = 30.0
PROMPT_TIMEOUT_S = 120.0


class ErrorCounter(logging.Handler):
    """Counts the SDK's error log records and keeps the first one's message."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.first: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        if self.first is None:
            error = record.exc_info[1] if record.exc_info else None
            lines = [line.strip() for line in str(error or "").splitlines() if line.strip()]
            self.first = " / ".join([record.getMessage(), *lines[:3]])[:300]


class BenchClient:
    """The only client method the flood needs; the SDK answers the rest as unsupported."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        now = time.monotonic_ns()
        stamp = from_sdk_update(update)
        if stamp is not None:
            self.tally.record(stamp[0], stamp[1], now)


async def _run(work: Workload) -> dict[str, Any]:
    tally = Tally(work.n)
    argv = work.agent_argv()
    # The SDK looks handlers up by name; the rest of ``Client`` is deliberately absent.
    client = cast(Client, BenchClient(tally))
    spawned = spawn_agent_process(client, argv[0], *argv[1:], cwd=work.workspace)
    async with spawned as (conn, _proc):
        await asyncio.wait_for(
            conn.initialize(
                protocol_version=work.protocol_version,
                client_capabilities=ClientCapabilities(),
                client_info=Implementation(name="acp-editor-bench", version="1"),
            ),
            SETUP_TIMEOUT_S,
        )
        session = await asyncio.wait_for(
            conn.new_session(cwd=work.workspace, mcp_servers=[]), SETUP_TIMEOUT_S
        )
        cpu = own_cpu_s()
        try:
            response = await asyncio.wait_for(
                conn.prompt(session_id=session.session_id, prompt=[text_block("flood")]),
                PROMPT_TIMEOUT_S,
            )
            stop_reason: str = response.stop_reason
        except TimeoutError:
            stop_reason = f"no answer within {PROMPT_TIMEOUT_S:g} s"
        cpu = own_cpu_s() - cpu
    return {**tally.summary(), "cpu_s": cpu, "stop_reason": stop_reason}


def run(work: Workload) -> dict[str, Any]:
    counter = ErrorCounter()
    root = logging.getLogger()
    root.addHandler(counter)
    try:
        result = asyncio.run(_run(work))
    finally:
        root.removeHandler(counter)
    result["rss_mb"] = own_peak_rss_mb()
    result["sdk_errors"] = counter.count
    if counter.first:
        result["sdk_first_error"] = counter.first
    return result
