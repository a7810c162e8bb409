"""What a permission request is about, in v1 (``toolCall``) and the v2 draft (``title``,
``description``, ``subject``)."""

from __future__ import annotations

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol.acp import permission_subject, permission_words
from acp_editor.protocol.tool_call import shell_command


def test_v1_and_a_v2_tool_call_subject_are_tool_calls_the_state_holds() -> None:
    call = {"toolCallId": "c1", "title": "Edit a.py"}
    assert permission_subject({"toolCall": call}) == (call, True)
    v2 = {"title": "Allow?", "subject": {"type": "tool_call", "toolCall": call}}
    assert permission_subject(v2) == (call, True)


def test_a_v2_command_is_shown_as_the_command_it_runs() -> None:
    params = {
        "title": "Run the tests",
        "description": "to check the fix",
        "subject": {"type": "command", "command": "pytest -q", "cwd": "/w", "toolCallId": "c7"},
    }
    call, held = permission_subject(params)
    assert not held
    assert call["toolCallId"] == "c7" and call["kind"] == "execute"
    assert call["title"] == "Run the tests"  # its description travels with the words
    assert shell_command(call) == "pytest -q"


def test_an_unknown_subject_is_asked_by_its_title_and_no_title_is_invalid() -> None:
    call, held = permission_subject({"title": "Push?", "subject": {"type": "_git_push"}})
    assert (call["title"], call["kind"], held) == ("Push?", "other", False)
    with pytest.raises(InvalidParams, match=r"params\.title"):
        permission_subject({"subject": {"type": "command", "command": "rm -rf /"}})


def test_a_v2_request_has_words_of_its_own_and_v1_none() -> None:
    call = {"toolCallId": "c1", "title": "Read a.txt"}
    asked = {
        "title": "Allow reading?",
        "description": "It holds the notes.",
        "subject": {"type": "tool_call", "toolCall": call},
    }
    words = permission_words(asked)
    assert words == {"title": "Allow reading?", "description": "It holds the notes."}
    assert permission_words({**asked, "description": None}) == {"title": "Allow reading?"}
    assert permission_words({"toolCall": call}) is None
