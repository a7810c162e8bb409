"""The agent's terminals in the editor: streamed to editors with the ``terminals`` feature, in
the log of the others, and the last 64 KiB of each kept for snapshots."""

from __future__ import annotations

import logging

import pytest

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.show import terminal_output
from acp_editor.editor.show.terminal_output import TerminalStreams
from acp_editor.protocol import editor as proto
from tests.support.fake_editor import FakeChannel


def test_a_rich_editor_gets_the_stream_and_the_exit() -> None:
    channel = FakeChannel(ClientFeatures(rich={proto.FEATURE_TERMINALS}))
    streams = TerminalStreams(channel)
    streams.output("s1", "t1", "make\n")
    streams.exited("s1", "t1", {"exitCode": 0, "signal": None})
    assert channel.notes == [
        (proto.ACP_TERMINAL_OUTPUT, {"sessionId": "s1", "terminalId": "t1", "data": "make\n"}),
        (
            proto.ACP_TERMINAL_EXIT,
            {"sessionId": "s1", "terminalId": "t1", "exitStatus": {"exitCode": 0, "signal": None}},
        ),
    ]


def test_a_plain_editor_gets_the_last_lines_in_its_log(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminal_output, "LOG_LINES", 2)
    caplog.set_level(logging.INFO, logger="acp_editor")
    channel = FakeChannel()
    TerminalStreams(channel).output("s1", "t1", "one\ntwo\nthree\n")
    assert channel.notes == []
    assert [r.getMessage() for r in caplog.records] == ["terminal t1: two", "terminal t1: three"]


def test_snapshots_keep_each_terminals_tail_per_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal_output, "TERMINAL_TAIL", 4)
    streams = TerminalStreams(FakeChannel())
    streams.output("s1", "t1", "abc")
    streams.output("s1", "t1", "def")
    streams.output("s2", "t2", "x")
    streams.exited("s2", "t2", {"exitCode": 1, "signal": None})
    assert streams.snapshots("s1") == [
        {"sessionId": "s1", "terminalId": "t1", "output": "cdef", "exitStatus": None}
    ]
    assert [t["terminalId"] for t in streams.snapshots()] == ["t1", "t2"]
    assert streams.snapshots("s2")[0]["exitStatus"] == {"exitCode": 1, "signal": None}
