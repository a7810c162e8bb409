"""Deleting and forking sessions and logging out, with the scripted agent (which advertises
``session/delete``, ``session/fork`` and ``logout``): the rich requests, and the zero-plugin
commands, which ask first with the keeping answer in front."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor


def listed(result: dict[str, Any]) -> set[str]:
    return {s["sessionId"] for s in result["sessions"]}


async def test_fork_starts_from_the_parent_and_delete_forgets_it(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(features=["stream"])
    parent = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    await editor.request(proto.ACP_PROMPT, {"sessionId": parent, "prompt": "stream"})
    before = (await editor.request(proto.ACP_SNAPSHOT, {"sessionId": parent}))["sessions"][0]

    fork = await editor.request(proto.ACP_FORK_SESSION, {"sessionId": parent})
    assert fork["sessionId"] != parent
    assert fork["snapshot"]["entries"] == before["entries"]  # the parent's transcript
    picture = await editor.request(proto.ACP_SNAPSHOT, {})
    assert picture["currentSessionId"] == fork["sessionId"]
    assert {parent, fork["sessionId"]} <= listed(await editor.request(proto.ACP_LIST_SESSIONS, {}))

    assert await editor.request(proto.ACP_DELETE_SESSION, {"sessionId": parent}) == {
        "sessionId": parent
    }
    after = listed(await editor.request(proto.ACP_LIST_SESSIONS, {}))
    assert parent not in after and fork["sessionId"] in after
    assert await editor.request(proto.ACP_LOGOUT, {}) == {}


@pytest.mark.parametrize(("answer", "deleted"), [("Keep the session", False), ("Delete", True)])
async def test_the_delete_command_asks_first(
    editor_factory: StartEditor, answer: str, deleted: bool
) -> None:
    editor = await editor_factory(answer_permission=lambda _p: {"title": answer})
    sid = (await editor.command("acp.newSession"))["sessionId"]
    result = await editor.command("acp.deleteSession")
    assert result == {"sessionId": sid, "deleted": deleted}
    (question,) = editor.asked
    assert [a["title"] for a in question["actions"]] == ["Keep the session", "Delete"]
    assert sid in question["message"]
    assert (sid in listed(await editor.request(proto.ACP_LIST_SESSIONS, {}))) is not deleted


@pytest.mark.parametrize(("answer", "out"), [("Stay logged in", False), ("Log out", True)])
async def test_the_logout_command_asks_first(
    editor_factory: StartEditor, answer: str, out: bool
) -> None:
    editor = await editor_factory(answer_permission=lambda _p: {"title": answer})
    assert await editor.command("acp.logout") == {"loggedOut": out}
    (question,) = editor.asked
    assert [a["title"] for a in question["actions"]] == ["Stay logged in", "Log out"]


async def test_an_editor_that_asked_itself_is_not_asked_again(editor_factory: StartEditor) -> None:
    editor = await editor_factory()
    sid = (await editor.command("acp.newSession"))["sessionId"]
    assert await editor.command("acp.deleteSession", sid, True) == {
        "sessionId": sid,
        "deleted": True,
    }
    assert await editor.command("acp.logout", True) == {"loggedOut": True}
    fork = await editor.command("acp.forkSession")
    assert fork["sessionId"]
    assert editor.asked == []
