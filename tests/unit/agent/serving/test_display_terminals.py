"""Agent-owned terminals: v1 ``_meta`` fields and the v2 draft's terminal updates become the
same output and exit events as client terminals."""

from __future__ import annotations

import base64
from typing import Any

from acp_editor.agent.frontend import Frontend
from acp_editor.agent.serving.display_terminals import KEEP_EXITED, DisplayTerminals


class Screen(Frontend):
    def __init__(self) -> None:
        self.output: dict[str, str] = {}
        self.exits: dict[str, dict[str, Any]] = {}

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        self.output[terminal_id] = self.output.get(terminal_id, "") + text

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        assert terminal_id not in self.exits, "one exit per terminal"
        self.exits[terminal_id] = status


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_claude_style_meta_output_and_exit() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    call = {"sessionUpdate": "tool_call_update", "toolCallId": "c1"}
    terminals.update("s", {**call, "_meta": {"terminal_info": {"terminal_id": "c1"}}})
    terminals.update(
        "s", {**call, "_meta": {"terminal_output": {"terminal_id": "c1", "data": "a\n"}}}
    )
    terminals.update(
        "s", {**call, "_meta": {"terminal_exit": {"terminal_id": "c1", "exit_code": 3}}}
    )
    terminals.update(
        "s", {**call, "_meta": {"terminal_exit": {"terminal_id": "c1", "exit_code": 3}}}
    )
    assert screen.output == {"c1": "a\n"}
    assert screen.exits == {"c1": {"exitCode": 3, "signal": None}}


def test_a_part_without_a_terminal_id_belongs_to_its_tool_call() -> None:
    screen = Screen()
    DisplayTerminals(screen).update(
        "s",
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "c9",
            "_meta": {"terminal_output_delta": {"data": "x"}},
        },
    )
    assert screen.output == {"c9": "x"}


def test_v2_chunks_split_inside_a_character_still_decode() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    data = "héllo → wörld\n".encode()
    for piece in (data[:2], data[2:9], data[9:]):  # the splits fall inside é and →
        terminals.update(
            "s", {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": b64(piece)}
        )
    assert screen.output["t"] == "héllo → wörld\n"


def test_v2_snapshot_replaces_what_was_shown_and_exit_status_ends_it() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    chunk = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": b64(b"old\n")}
    terminals.update("s", chunk)
    terminals.update(
        "s",
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "t",
            "command": "make",
            "output": {"data": b64(b"new\n")},
            "exitStatus": {"exitCode": None, "signal": "SIGTERM"},
        },
    )
    assert screen.output["t"] == "old\n\x1bcnew\n"  # a terminal reset before the replacement
    assert screen.exits["t"] == {"exitCode": None, "signal": "SIGTERM"}


def test_malformed_terminal_updates_are_skipped() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    for update in (
        None,
        {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "not base64!"},
        {"sessionUpdate": "terminal_output_chunk", "data": b64(b"no id")},
        {"sessionUpdate": "tool_call_update", "_meta": {"terminal_output": {"data": 5}}},
        {"sessionUpdate": "terminal_update", "terminalId": 7},
    ):
        terminals.update("s", update)
    assert screen.output == {} and screen.exits == {}


def _run(terminals: DisplayTerminals, session_id: str, terminal_id: str) -> None:
    """One v2 command from its output to its end."""
    chunk = {"sessionUpdate": "terminal_output_chunk", "terminalId": terminal_id}
    terminals.update(session_id, {**chunk, "data": b64(b"out\n")})
    end = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
    terminals.update(session_id, {**end, "exitStatus": {"exitCode": 0}})


def test_a_long_session_keeps_only_the_last_exited_terminals() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    for n in range(KEEP_EXITED * 3):
        _run(terminals, "s", f"t{n}")
    assert terminals.remembered() == KEEP_EXITED
    assert len(screen.exits) == KEEP_EXITED * 3
    # A late report of one that just ended is shown as before; its exit is not told twice.
    last = f"t{KEEP_EXITED * 3 - 1}"
    late = {"sessionUpdate": "terminal_update", "terminalId": last}
    terminals.update("s", {**late, "output": {"data": b64(b"again\n")}, "exitStatus": {}})
    assert screen.output[last] == "out\n\x1bcagain\n"


def test_a_running_terminal_is_kept_while_others_come_and_go() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    chunk = {"sessionUpdate": "terminal_output_chunk", "terminalId": "long"}
    terminals.update("s", {**chunk, "data": b64("é".encode()[:1])})  # half a character
    for n in range(KEEP_EXITED * 2):
        _run(terminals, "s", f"t{n}")
    terminals.update("s", {**chunk, "data": b64("é".encode()[1:])})
    assert screen.output["long"] == "é"
    assert terminals.remembered() == KEEP_EXITED + 1


def test_a_closed_session_is_forgotten() -> None:
    screen = Screen()
    terminals = DisplayTerminals(screen)
    chunk = {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": b64(b"x")}
    terminals.update("s1", chunk)
    terminals.update("s2", chunk)
    _run(terminals, "s1", "done")
    terminals.forget_session("s1")
    assert terminals.remembered() == 1


def test_a_v2_terminal_may_be_cancelled_only_while_it_advertises_it_and_runs() -> None:
    """Schema 1.25: ``capabilities`` upserted like the rest (omitted: unchanged, null: none)."""
    terminals = DisplayTerminals(Screen())
    update = {"sessionUpdate": "terminal_update", "terminalId": "t1"}
    assert "no terminal" in str(terminals.cancel_refused("s", "t1"))
    terminals.update("s", {**update, "command": "make"})
    assert "does not offer" in str(terminals.cancel_refused("s", "t1"))
    terminals.update("s", {**update, "capabilities": {"cancel": {}}})
    terminals.update("s", {**update, "output": {"data": b64(b"...")}})  # capabilities kept
    assert terminals.cancel_refused("s", "t1") is None
    assert terminals.cancel_refused("other", "t1") is not None  # another session's
    terminals.update("s", {**update, "capabilities": None})
    assert terminals.cancel_refused("s", "t1") is not None
    terminals.update("s", {**update, "capabilities": {"cancel": {}}})
    terminals.update("s", {**update, "exitStatus": {"exitCode": 0}})
    assert "exited" in str(terminals.cancel_refused("s", "t1"))
