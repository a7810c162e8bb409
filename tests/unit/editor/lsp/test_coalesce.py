"""Coalescing: a lone change goes out at once, a burst at most once per frame, in order."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from acp_editor.editor.lsp.coalesce import Coalescer
from tests.support.lsp import wait_until

FRAME = 0.2


def coalescer() -> tuple[Coalescer, list[tuple[float, list[Any]]]]:
    sent: list[tuple[float, list[Any]]] = []
    return Coalescer(lambda _, changes: sent.append((time.monotonic(), changes)), frame=FRAME), sent


async def test_a_lone_change_goes_out_at_once() -> None:
    frames, sent = coalescer()
    frames.add("s", [{"n": 1}])
    assert [changes for _, changes in sent] == [[{"n": 1}]]


async def test_a_burst_goes_out_once_per_frame_in_order() -> None:
    frames, sent = coalescer()
    frames.add("s", [{"n": 1}])
    frames.add("s", [{"n": 2}])
    frames.add("s", [{"n": 3}, {"n": 4}])
    assert len(sent) == 1  # the rest waits for the frame's end
    await wait_until(lambda: len(sent) == 2)
    assert sent[1][1] == [{"n": 2}, {"n": 3}, {"n": 4}]
    assert sent[1][0] - sent[0][0] >= FRAME * 0.9


async def test_after_a_quiet_frame_the_next_change_goes_out_at_once() -> None:
    frames, sent = coalescer()
    frames.add("s", [{"n": 1}])
    await asyncio.sleep(FRAME)  # the quiet frame this test is about, not a wait for a result
    frames.add("s", [{"n": 2}])
    assert [changes for _, changes in sent] == [[{"n": 1}], [{"n": 2}]]


async def test_a_flush_sends_what_waits_and_sessions_are_apart() -> None:
    frames, sent = coalescer()
    frames.add("s", [{"n": 1}])
    frames.add("s", [{"n": 2}])
    frames.add("t", [{"n": 3}])  # another session: its own frame
    assert [changes for _, changes in sent] == [[{"n": 1}], [{"n": 3}]]
    frames.flush("s")
    assert sent[-1][1] == [{"n": 2}]
    await asyncio.sleep(FRAME * 1.5)  # the cancelled frame's end: nothing more may come
    assert len(sent) == 3
