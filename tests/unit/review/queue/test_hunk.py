"""One reviewed hunk as an editor is shown it: its lines placed at its exact line when the text
is the one the queue knows, found by its lines and context otherwise, and placed nowhere once it
is decided or lost."""

from __future__ import annotations

from acp_editor.review.queue.anchor import anchors_for
from acp_editor.review.queue.hunk import ReviewHunk, describe

OLD = "a\nb\nc\nd\n"
NEW = "a\nb\nC\nd\n"


def hunk(**fields: object) -> ReviewHunk:
    (anchor,) = anchors_for(OLD, NEW)
    made = ReviewHunk("h1", "s1", "call1", "/w/a.py", anchor, applied=True, hint=2)
    for name, value in fields.items():
        setattr(made, name, value)
    return made


def lines_of(view: dict[str, object]) -> tuple[int, int] | None:
    where = view["range"]
    if where is None:
        return None
    assert isinstance(where, dict)
    return where["start"]["line"], where["end"]["line"]


def test_the_view_says_what_changed_and_for_whom() -> None:
    view = hunk(message="a note").view(NEW)
    assert view["hunkId"] == "h1" and view["toolCallId"] == "call1"
    assert view["uri"] == "file:///w/a.py" and view["state"] == "pending"
    assert (view["oldLines"], view["newLines"], view["applied"]) == (["c"], ["C"], True)
    assert view["message"] == "a note" and "message" not in hunk().view(NEW)


def test_a_known_text_places_the_hunk_at_its_exact_line_without_a_search() -> None:
    # Two look-alike blocks; the one at line 4 has the hunk's context, but the queue followed
    # the hunk to line 0: where the text is the one it knows, that line is taken as it is.
    text = "C\nx\na\nb\nC\nd\n"
    assert lines_of(hunk(exact=True, hint=0).view(text, text)) == (0, 0)
    assert lines_of(hunk(exact=True, hint=0).view(text, "another text")) == (4, 4)
    assert lines_of(hunk(exact=False, hint=0).view(text, text)) == (4, 4)


def test_an_unknown_text_is_searched_by_the_hunks_lines_and_context() -> None:
    moved = "new\nlines\na\nb\nC\nd\n"
    assert lines_of(hunk().view(moved)) == (4, 4)
    assert lines_of(hunk(applied=False).view(OLD)) == (2, 2)  # a held hunk: its old lines
    assert lines_of(hunk().view("nothing like it\n")) is None


def test_a_decided_lost_or_unread_hunk_is_placed_nowhere() -> None:
    assert lines_of(hunk(state="accepted").view(NEW)) is None
    assert lines_of(hunk(lost=True).view(NEW)) is None
    assert lines_of(hunk().view(None)) is None


def test_the_lines_to_look_for_and_the_description() -> None:
    assert hunk().block == ("C",) and hunk(applied=False).block == ("c",)
    assert describe(hunk()) == "/w/a.py near line 3 (-1 +1 lines)"
