"""Where the demo's lines go: colour only when asked for or on a terminal, streamed text
continued on its line, a subagent's lines under its title (said again after another
session's lines), questions answered on their line."""

from __future__ import annotations

import io

import pytest

from acp_editor.demo.printer import Printer, use_colour


def test_colour_only_on_a_terminal_or_when_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert not use_colour(io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(io.StringIO())


class Seen(Printer):
    def __init__(self, keyboard: str = "") -> None:
        super().__init__(io.StringIO(), io.StringIO(keyboard))
        self.colour = False
        self._parents = {"c1": "s1", "g1": "c1"}
        self._subagents = {"c1": {"title": "Explore"}}

    def in_session(self, session: str | None) -> Seen:
        self._session = session
        return self

    def text(self) -> str:
        assert isinstance(self.out, io.StringIO)
        return self.out.getvalue()


def test_a_subagents_lines_are_indented_under_its_title_said_again_after_others() -> None:
    seen = Seen()
    seen.in_session("s1")._line("parent's")
    seen.in_session("c1")._line("child's")
    seen._stream(("c1", 0), ("agent> ", "bold"), "two\nlines", False)
    seen.in_session("g1")._line("grandchild's")
    seen.in_session("c1")._line("child's again")
    seen.line("the demo's own")
    assert seen.text().splitlines() == [
        "parent's",
        "subagent “Explore”:",
        "    child's",
        "    agent> two",
        "    lines",
        "    subagent g1:",
        "        grandchild's",
        "subagent “Explore”:",
        "    child's again",
        "the demo's own",
    ]


def test_streamed_text_goes_on_its_line_until_another_message() -> None:
    seen = Seen()
    seen._stream(("s1", 0), ("agent> ", "bold"), "Hel", False)
    seen._stream(("s1", 0), ("agent> ", "bold"), "lo", False)
    seen._stream(("s1", 1), ("thinking> ", "dim"), "hm", True)
    seen.line("end")
    assert seen.text() == "agent> Hello\nthinking> hm\nend\n"


def test_a_question_is_answered_on_its_line() -> None:
    seen = Seen("yes\n")
    assert seen.in_session("c1")._ask_line("sure? ") == "yes"
    assert seen.text() == "subagent “Explore”:\n    sure? \n"
