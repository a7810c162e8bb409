"""Two agents behind one sidecar: the scripted agent (writes through the client) and a second one
from the editor's settings (the demo agent writing the disk itself, as current agents do), with
two sessions each, turns interleaved. Each session names its agent, each status its agent, a v1
session's run state says running / waiting for you / idle, and a question from the session in
the background names that session."""

from __future__ import annotations

import asyncio
from typing import Any

from acp_editor.demo_agent import DEMO_AGENT
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor, allow_once, wait_until

FEATURES = ["stream", "permissions", "follow", "review"]
SECOND = {"second": {"command": [*DEMO_AGENT, "--writes-itself"]}}


def run_states(editor: Editor, session_id: str) -> list[Any]:
    """The session's run states, without the ``usage`` an idle one carries (the demo agent
    reports it in every prompt answer)."""
    return [
        {key: value for key, value in change["runState"].items() if key != "usage"}
        for note in editor.of(proto.ACP_SESSION_CHANGED)
        if note["sessionId"] == session_id
        for change in note["changes"]
        if change["type"] == "run_state"
    ]


async def test_two_agents_with_two_sessions_each_side_by_side(editor_factory: StartEditor) -> None:
    editor = await editor_factory(init_options={"acp": {"features": FEATURES, "agents": SECOND}})
    listed = (await editor.request(proto.ACP_AGENTS, {}))["agents"]
    assert [(a["id"], a["default"]) for a in listed] == [("default", True), ("second", False)]
    assert listed[1]["status"] is None  # not started until a session asks for it

    one = await editor.request(proto.ACP_NEW_SESSION, {})
    two = await editor.request(proto.ACP_NEW_SESSION, {"agent": "second"})
    assert (one["snapshot"]["agent"], two["snapshot"]["agent"]) == ("default", "second")
    first, second = one["sessionId"], two["sessionId"]
    await wait_until(
        lambda: (
            ("second", "ready")
            in [(s["agent"], s["state"]) for s in editor.of(proto.ACP_AGENT_STATUS)]
        )
    )

    # A second session of each agent, made in the background (the front stays on `second`).
    third = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    fourth = (await editor.request(proto.ACP_NEW_SESSION, {"agent": "second"}))["sessionId"]
    await editor.request(proto.ACP_SELECT_SESSION, {"sessionId": second})
    assert len({first, second, third, fourth}) == 4

    # Turns of all four at once: both agents' sessions' turns interleave.
    turns = await asyncio.gather(
        *(
            editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "read"})
            for sid in (second, first, fourth, third)
        )
    )
    assert [t["stopReason"] for t in turns] == ["end_turn"] * 4
    assert [t["sessionId"] for t in turns] == [second, first, fourth, third]
    for sid in (first, second, third, fourth):
        await wait_until(lambda sid=sid: bool(run_states(editor, sid)))
        assert run_states(editor, sid)[0] == {"state": "running"}
        assert run_states(editor, sid)[-1] == {"state": "idle", "stopReason": "end_turn"}

    # Only the session in front (the one made last) is followed, its mark labelled with its agent.
    await wait_until(lambda: bool(editor.of(proto.ACP_FOLLOW)))
    follows = [(f["sessionId"], f["agent"]) for f in editor.of(proto.ACP_FOLLOW)]
    assert set(follows) == {(second, "second")}

    # Every notification names its session's agent, from the first (sent while the session
    # was being set up) on.
    named = {(n["sessionId"], n["agent"]) for n in editor.of(proto.ACP_SESSION_CHANGED)}
    assert named == {(first, "default"), (second, "second"), (third, "default"), (fourth, "second")}

    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    assert {s["sessionId"]: s["agent"] for s in snapshot["sessions"]} == {
        first: "default",
        second: "second",
        third: "default",
        fourth: "second",
    }
    assert [a["status"]["state"] for a in snapshot["agents"]] == ["ready", "ready"]
    status = await editor.command("acp.status")
    assert status["sessionAgents"] == {
        first: "default",
        second: "second",
        third: "default",
        fourth: "second",
    }
    assert status["agent"] == "second"  # the current session's agent


async def test_a_background_sessions_question_names_it_and_it_waits_for_you(
    editor_factory: StartEditor,
) -> None:
    release = asyncio.Event()

    async def answer_later(params: dict[str, Any]) -> Any:
        await release.wait()
        return allow_once(params)

    editor = await editor_factory(
        init_options={"acp": {"features": FEATURES, "agents": SECOND}},
        answer_permission=answer_later,
    )
    background = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    front = (await editor.request(proto.ACP_NEW_SESSION, {"agent": "second"}))["sessionId"]
    assert (await editor.command("acp.status"))["currentSessionId"] == front

    turn = asyncio.ensure_future(
        editor.request(proto.ACP_PROMPT, {"sessionId": background, "prompt": "edit"})
    )
    await wait_until(lambda: bool(editor.asked))
    (question,) = editor.asked
    assert question["sessionId"] == background
    await wait_until(lambda: {"state": "requires_action"} in run_states(editor, background))
    assert run_states(editor, front) == []  # the session in front was never busy
    release.set()
    assert (await turn)["stopReason"] == "end_turn"
    states = run_states(editor, background)
    assert states[-2:] == [{"state": "running"}, {"state": "idle", "stopReason": "end_turn"}]
