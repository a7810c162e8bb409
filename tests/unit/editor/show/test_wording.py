"""What a permission question says, and how answers map back to options."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.editor.show.wording import (
    auth_request,
    choice_from_answer,
    diff_previews,
    permission_request,
    summary,
)

OPTIONS = [
    {"optionId": "ok", "name": "Allow", "kind": "allow_once"},
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    {"optionId": "x", "name": "", "kind": "reject_always"},
]
EDIT = {
    "toolCallId": "c1",
    "title": "Edit a.py",
    "kind": "edit",
    "content": [{"type": "diff", "path": "/w/a.py", "oldText": "a\nb\n", "newText": "a\nB\nc\n"}],
}


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (EDIT, "/w/a.py (+2 -1)"),
        ({"rawInput": {"command": "pytest -q"}}, "$ pytest -q"),
        ({"rawInput": {"command": ["ls", "-la"]}}, "$ ls -la"),
        ({"locations": [{"path": "/w/b.py", "line": 3}]}, "/w/b.py"),
        (
            {"content": [{"type": "diff", "path": "/w/new.py", "newText": "x\n"}]},
            "/w/new.py (+1 -0)",
        ),
        ({"content": [{"type": "_chart"}], "rawInput": None}, ""),
    ],
)
def test_summary_names_what_will_happen(call: dict[str, Any], expected: str) -> None:
    assert summary(call) == expected


def test_permission_request_with_and_without_additional_properties() -> None:
    plain = permission_request(EDIT, OPTIONS, with_properties=False)
    assert plain["message"] == "The agent asks permission: Edit a.py [edit]\n/w/a.py (+2 -1)"
    # A reject first: editors pre-select the first action (eglot pre-fills it, RET takes it).
    assert plain["actions"] == [{"title": "Reject"}, {"title": "Always reject"}, {"title": "Allow"}]
    rich = permission_request(EDIT, OPTIONS, with_properties=True)
    assert rich["actions"][0] == {"title": "Reject", "optionId": "no", "kind": "reject_once"}


def test_a_v2_question_says_its_own_words_first_then_the_tool_call() -> None:
    words = {"title": "Allow the fix?", "description": "It makes the test pass."}
    request = permission_request(EDIT, OPTIONS, with_properties=False, words=words)
    assert request["message"] == (
        "The agent asks permission: Allow the fix?\nIt makes the test pass.\n"
        "Edit a.py [edit]\n/w/a.py (+2 -1)"
    )
    # A command subject's made-up tool call bears only the request's title: not said twice.
    run = {"toolCallId": "c", "title": "Run it?", "kind": "execute", "rawInput": {"command": "ls"}}
    request = permission_request(run, OPTIONS, with_properties=False, words={"title": "Run it?"})
    assert request["message"] == "The agent asks permission: Run it?\n$ ls"


def test_a_question_with_only_allows_starts_with_a_choice_that_maps_to_no_option() -> None:
    allows = [
        {"optionId": "a", "name": "Yes", "kind": "allow_once"},
        {"optionId": "b", "name": "Yes, always", "kind": "allow_always"},
    ]
    request = permission_request(EDIT, allows, with_properties=False)
    assert [a["title"] for a in request["actions"]] == ["Decline", "Yes", "Yes, always"]
    assert choice_from_answer(request["actions"][0], allows, "optionId") is None


def test_the_reject_once_goes_before_the_reject_always() -> None:
    options = [*reversed(OPTIONS)]
    request = permission_request(EDIT, options, with_properties=True)
    assert [a["optionId"] for a in request["actions"]] == ["no", "x", "ok"]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"title": "Allow", "optionId": "ok"}, "ok"),
        ({"title": "Reject"}, "no"),  # no properties echoed: matched by title
        ({"title": "Always reject"}, "x"),  # the title we made up for an unnamed option
        ({"title": "Something else"}, None),
        ({"title": "Allow", "optionId": "forged"}, "ok"),  # an unknown id falls back to the title
        (None, None),
        ("Allow", None),
    ],
)
def test_answers_map_back_to_option_ids(answer: Any, expected: str | None) -> None:
    assert choice_from_answer(answer, OPTIONS, "optionId") == expected


def test_diff_previews_carry_hunks_and_counts() -> None:
    (preview,) = diff_previews(EDIT)
    assert preview["uri"] == "file:///w/a.py"
    assert (preview["added"], preview["removed"]) == (2, 1)
    assert [h["newLines"] for h in preview["hunks"]] == [["B", "c"]]


def test_new_file_diff_has_null_old_text() -> None:
    (preview,) = diff_previews(
        {"content": [{"type": "diff", "path": "/w/n.py", "oldText": None, "newText": "x\n"}]}
    )
    assert preview["oldText"] is None and preview["added"] == 1


def test_auth_request_lists_methods() -> None:
    request = auth_request([{"id": "login", "name": "Log in"}], with_properties=True)
    assert request["actions"] == [{"title": "Log in", "methodId": "login"}]
