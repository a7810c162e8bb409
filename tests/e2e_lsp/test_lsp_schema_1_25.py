"""Schema 1.25's updates through the real sidecar and the scripted agent, which sends each only
because the sidecar asked for it in initialize (issue 34): a plain editor is told notices,
compactions and subagents; a rich one gets them in the session state; a subagent's question
names it; a boolean option toggles with a command."""

from __future__ import annotations

from typing import Any

import pytest

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import session_mirror, wait_until


async def test_a_plain_editor_is_told_of_notices_compactions_and_subagents(
    editor_factory: StartEditor,
) -> None:
    asked: list[dict[str, Any]] = []

    def answer(params: dict[str, Any]) -> Any:
        asked.append(params)
        return {"title": params["actions"][-1]["title"]}  # allow

    editor = await editor_factory(agent_flags=("--fast",), answer_permission=answer)
    result = await editor.command("acp.prompt", "notice compact subagent")
    assert result["stopReason"] == "end_turn"
    shown = [m.message for m in editor.client.messages]
    logged = [m.message for m in editor.client.log_messages]
    assert any(m.startswith("acp-editor: ") and "Rate limit almost reached" in m for m in shown), (
        shown
    )
    assert any("compacted its context" in m for m in logged), logged
    assert any("subagent" in m and "is running" in m for m in logged), logged
    (question,) = [q for q in asked if "asks:" in q["message"]]
    assert question["message"].startswith("Subagent “")
    status = await editor.command("acp.status")
    (child,) = status["sessionParents"]
    assert status["sessionParents"][child] == result["sessionId"]
    assert child in status["sessions"]


@pytest.mark.parametrize("writes", ["through the client", "to disk itself"])
async def test_a_rich_editor_mirrors_the_child_and_its_parent(
    editor_factory: StartEditor, writes: str
) -> None:
    flags = ("--fast", "--writes-itself") if writes == "to disk itself" else ("--fast",)
    editor = await editor_factory(
        features=["stream", "follow", "permissions", "review"], agent_flags=flags
    )
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "subagent plans"})
    parent = session_mirror(editor.of(proto.ACP_SESSION_CHANGED), sid)
    ((child_id, record),) = parent["subagents"].items()
    assert record["toolCallId"] in parent["toolCalls"]
    assert record["state"]["state"] == "idle"
    everything = editor.of(proto.ACP_SESSION_CHANGED)
    notes = [n for n in everything if n["sessionId"] == child_id]
    assert notes and all(n["parentSessionId"] == sid for n in notes)
    # The parent's record of the child reached the editor before the child's first change.
    announced = next(
        i
        for i, n in enumerate(everything)
        if n["sessionId"] == sid and any(c["type"] == "subagents" for c in n["changes"])
    )
    assert announced < everything.index(notes[0])
    child = session_mirror(editor.of(proto.ACP_SESSION_CHANGED), child_id)
    assert child["toolCalls"], child  # its own tool calls, in its own session
    (question,) = [q for q in editor.asked if q.get("sessionId") == child_id and "toolCall" in q]
    assert question["subagent"]["parentSessionId"] == sid
    follows = [f for f in editor.of(proto.ACP_FOLLOW) if f["sessionId"] == child_id]
    assert follows and follows[0]["subagent"]["parentSessionId"] == sid
    assert set(parent["plans"]) == {"p1"}  # p2 was removed
    # The child's edit is its parent's turn's work: a write through us goes under the tool
    # call that started the child; one found on disk under the parent's turn.
    await wait_until(lambda: bool(editor.of(proto.ACP_REVIEW_CHANGED)))
    hunks = [h for n in editor.of(proto.ACP_REVIEW_CHANGED) for h in n["hunks"]]
    calls = {record["toolCallId"]} if writes == "through the client" else {None}
    assert hunks and {(h["sessionId"], h["toolCallId"]) for h in hunks} == {
        (sid, call) for call in calls
    }
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    (kept,) = [s for s in snapshot["sessions"] if s["sessionId"] == child_id]
    assert kept["parentSessionId"] == sid


async def test_a_boolean_option_toggles_with_a_command(editor_factory: StartEditor) -> None:
    editor = await editor_factory(agent_flags=("--fast",))
    await editor.command("acp.newSession")
    status = await editor.command("acp.status")
    (option,) = [o for o in status["configOptions"] if o["type"] == "boolean"]
    assert option["currentValue"] is False
    result = await editor.command("acp.setConfigOption", option["id"], True)
    assert result["value"] is True
    status = await editor.command("acp.status")
    (option,) = [o for o in status["configOptions"] if o["type"] == "boolean"]
    assert option["currentValue"] is True


async def test_a_notice_before_any_prompt_is_shown(editor_factory: StartEditor) -> None:
    plain = await editor_factory(agent_flags=("--fast", "--notice-at-new"))
    await plain.command("acp.newSession")
    await wait_until(
        lambda: any(m.message.startswith("acp-editor: ") for m in plain.client.messages)
    )
    rich = await editor_factory(features=["stream"], agent_flags=("--fast", "--notice-at-new"))
    sid = (await rich.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    await wait_until(
        lambda: any(
            e["kind"] == "notice"
            for e in session_mirror(rich.of(proto.ACP_SESSION_CHANGED), sid)["entries"]
        )
    )
    assert not rich.client.messages  # a rich editor shows it in its chat, not as a popup
