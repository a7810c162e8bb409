"""Two live sessions in one editor: the one in front (``acp/selectSession``, the zero-plugin
``acp.selectSession``) takes prompts without a session and is the only one followed, unless the
editor asks to follow every session (``acp/setFollow`` ``allSessions``)."""

from __future__ import annotations

import pytest
from pygls.exceptions import JsonRpcException

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor, wait_until


def followed(editor: Editor) -> list[str]:
    return [f["sessionId"] for f in editor.of(proto.ACP_FOLLOW)]


async def test_only_the_session_in_front_is_followed_unless_all_are(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(features=["stream", "follow"])
    one = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    two = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    assert (await editor.request(proto.ACP_SELECT_SESSION, {"sessionId": one})) == {
        "sessionId": one
    }

    await editor.request(proto.ACP_PROMPT, {"sessionId": two, "prompt": "read"})
    await editor.request(proto.ACP_PROMPT, {"prompt": "read"})  # goes to the one in front
    await wait_until(lambda: one in followed(editor))
    assert two not in followed(editor)  # it read hello.py in the background: not followed

    answer = await editor.request(proto.ACP_SET_FOLLOW, {"enabled": True, "allSessions": True})
    assert answer == {"enabled": True, "allSessions": True}
    await editor.request(proto.ACP_PROMPT, {"sessionId": two, "prompt": "read"})
    await wait_until(lambda: two in followed(editor))

    status = await editor.command("acp.selectSession", two)
    assert status == {"sessionId": two}
    assert (await editor.command("acp.status"))["currentSessionId"] == two


@pytest.mark.parametrize("args", [[], ["no-such-session"], [2]])
async def test_selecting_needs_an_open_session(
    editor_factory: StartEditor, args: list[object]
) -> None:
    editor = await editor_factory()
    await editor.request(proto.ACP_NEW_SESSION, {})
    with pytest.raises(JsonRpcException) as err:
        await editor.command("acp.selectSession", *args)
    assert err.value.code == -32602
