"""Who made a change found on disk when several sessions run turns: the one whose tool call
names the file, else the only one running, else "either" (every session it may be of)."""

from __future__ import annotations

from pathlib import Path

from acp_editor.review.finding.attribution import Claim, by_owner, claims_of, owner
from acp_editor.services.git.checkpoints import Change

ROOT = Path("/w")


def change(name: str) -> Change:
    return Change(ROOT / name, "modified", "a" * 40, "b" * 40, "100644")


def test_a_session_alone_gets_everything_its_look_finds() -> None:
    alone = Claim("a", "call-1")
    assert owner(ROOT / "x.py", ROOT, [alone]) == (alone, ())


def test_the_session_whose_tool_call_names_the_file_wins_absolute_or_relative() -> None:
    looking = Claim("a", "call-1", frozenset({"/w/other.py"}))
    naming = Claim("b", "call-9", frozenset({"src/x.py"}))
    assert owner(ROOT / "src" / "x.py", ROOT, [looking, naming]) == (naming, ())
    assert owner(ROOT / "other.py", ROOT, [looking, naming]) == (looking, ())


def test_nobody_or_both_naming_it_is_either_under_the_newest_turn_s_session() -> None:
    older, newer = Claim("a", "call-1"), Claim("b", "call-2")
    who, shared = owner(ROOT / "x.py", ROOT, [older, newer])
    assert who is newer and shared == ("a", "b")  # whichever session's look found it
    both = [Claim("b", None, frozenset({"x.py"})), Claim("a", None, frozenset({"/w/x.py"}))]
    assert owner(ROOT / "x.py", ROOT, both) == (both[1], ("a", "b"))
    # Two of three name it: either of those two, not the third.
    three = [*both, Claim("c", None)]
    assert owner(ROOT / "x.py", ROOT, three) == (both[1], ("a", "b"))


def test_a_look_s_changes_are_split_by_owner_in_the_order_found() -> None:
    a, b = Claim("a", "t1", frozenset({"a.py"})), Claim("b", "t2", frozenset({"b.py"}))
    found = by_owner([change("b.py"), change("a.py"), change("c.py")], ROOT, [a, b])
    assert [
        (who.session_id, shared, [c.path.name for c in part])
        for (who, shared), part in found.items()
    ] == [("b", (), ["b.py"]), ("a", (), ["a.py"]), ("b", ("a", "b"), ["c.py"])]


class Calls:
    """What follows a session's tool calls, as ``review.finding.looks.SessionLooks`` would
    say it (one per session; ``asked`` shared, to see who was asked what)."""

    def __init__(self, session_id: str, asked: list[str]) -> None:
        self.session_id, self.asked = session_id, asked

    def current(self) -> str | None:
        self.asked.append(f"current {self.session_id}")
        return f"{self.session_id}-call"

    def named(self, also: str | None) -> frozenset[str]:
        self.asked.append(f"named {self.session_id} {also}")
        return frozenset({f"{self.session_id}.py"})


def test_claims_ask_nothing_of_a_session_alone() -> None:
    asked: list[str] = []
    assert claims_of("a", "t1", [("a", Calls("a", asked))]) == [Claim("a", "t1")]
    assert asked == []


def test_claims_keep_the_order_the_turns_began_in() -> None:
    asked: list[str] = []
    a, b = Calls("a", asked), Calls("b", asked)
    claims = claims_of("a", "t1", [("b", b), ("a", a), ("c", None)])
    assert claims == [
        Claim("b", "b-call", frozenset({"b.py"})),
        Claim("a", "t1", frozenset({"a.py"})),  # the looking one: its look's tool call
        Claim("c", None),
    ]
    assert "named a t1" in asked
    # A look of nobody's (a new turn's checkpoint): the running sessions as they say.
    assert claims_of(None, None, [("b", b)]) == [Claim("b", "b-call", frozenset({"b.py"}))]
