"""``acp/promptHistory`` on the real server: the prompts sent in the workspace, by the rich
surface and the zero-plugin command alike, come back oldest first, and after a restart too."""

from __future__ import annotations

import pytest
from pygls.exceptions import JsonRpcException

from tests.e2e_lsp.conftest import StartEditor


async def test_prompts_sent_either_way_come_back_after_a_restart(
    editor_factory: StartEditor,
) -> None:
    first = await editor_factory(features=["stream"])
    assert (await first.request("acp/promptHistory", {}))["prompts"] == []
    await first.request("acp/prompt", {"prompt": "hello there"})
    await first.command("acp.prompt", "edit")
    attached = {"type": "text", "text": "Diagnostics of hello.py: none"}  # attached, not typed
    blocks = [{"type": "text", "text": "hello again"}, attached]
    await first.request("acp/prompt", {"prompt": blocks})
    expected = ["hello there", "edit", "hello again"]
    assert (await first.request("acp/promptHistory", {}))["prompts"] == expected
    await first.close()

    second = await editor_factory(features=["stream"])
    assert (await second.request("acp/promptHistory", {"limit": 2}))["prompts"] == expected[1:]
    with pytest.raises(JsonRpcException) as err:
        await second.request("acp/promptHistory", {"limit": 0})
    assert err.value.code == -32602
