"""What a client opts in to, and what it gets without: notices, compaction, plan operations, a
tool call known by its name alone. Every message the agent sends is checked against schema 1.25
(the ``wires`` fixture)."""

from __future__ import annotations

from collections.abc import Callable

from acp_editor.demo_agent.scenarios.opt_in_scenarios import (
    FOLLOW_UP,
    NOTICE,
    PLAN_STEPS,
    SUMMARY,
    USED_AFTER,
    USED_BEFORE,
)
from acp_editor.demo_agent.server.methods import NOTICE_AT_NEW
from acp_editor.demo_agent.server.prompts import Tuning
from tests.unit.demo_agent.wire import Wire

Wires = Callable[..., Wire]
NOTICES = {"session": {"notices": {}}}
COMPACTION = {"session": {"compaction": {}}}
PLANS = {"plan": {}}


async def test_a_notice_goes_to_a_client_that_shows_notices(wires: Wires) -> None:
    wire = wires()
    await wire.start(NOTICES)
    sid = await wire.new()
    assert (await wire.prompt(sid, "notice"))["stopReason"] == "end_turn"
    (notice,) = wire.of(sid, "notice")
    severity, title, description = NOTICE
    assert notice == {
        "sessionUpdate": "notice",
        "severity": severity,
        "title": title,
        "description": description,
    }
    assert title not in wire.text(sid)  # not said twice


async def test_without_notices_the_same_words_are_an_agent_message(wires: Wires) -> None:
    wire = wires()
    await wire.start({"session": {"notices": None}})  # null: not advertised
    sid = await wire.new()
    await wire.prompt(sid, "notice")
    assert wire.of(sid, "notice") == []
    _, title, description = NOTICE
    assert wire.text(sid).startswith(f"{title}: {description}")


async def test_the_notice_switch_sends_one_right_after_session_new(wires: Wires) -> None:
    shown, plain = wires(tuning=Tuning(fast=True, notice_at_new=True)), wires()
    await shown.start(NOTICES)
    sid = await shown.new()
    await shown.settle()
    assert shown.kinds(sid) == ["available_commands_update", "notice"]
    assert shown.of(sid, "notice")[0]["title"] == NOTICE_AT_NEW[0]
    await plain.start(NOTICES)
    plain_sid = await plain.new()
    await plain.settle()
    assert plain.kinds(plain_sid) == ["available_commands_update"]  # not by default


async def test_the_notice_switch_says_it_as_a_message_without_notices(wires: Wires) -> None:
    wire = wires(tuning=Tuning(fast=True, notice_at_new=True))
    await wire.start({})
    sid = await wire.new()
    await wire.settle()
    assert set(wire.kinds(sid)) == {"available_commands_update", "agent_message_chunk"}
    assert wire.text(sid) == ": ".join(NOTICE_AT_NEW)


async def test_compaction_is_announced_summarised_and_completed(wires: Wires) -> None:
    wire = wires()
    await wire.start(COMPACTION)
    sid = await wire.new()
    await wire.prompt(sid, "/compact")
    kinds = [k for k in wire.kinds(sid) if k.startswith(("compaction", "usage"))]
    chunks = ["compaction_summary_chunk"] * len(SUMMARY)
    assert kinds == [
        "usage_update",
        "compaction_update",
        *chunks,
        "compaction_update",
        "usage_update",
    ]
    first, last = wire.of(sid, "compaction_update")
    assert first["status"] == "in_progress" and last["status"] == "completed"
    pieces = wire.of(sid, "compaction_summary_chunk")
    assert {p["compactionId"] for p in pieces} == {first["compactionId"], last["compactionId"]}
    assert "".join(p["content"]["text"] for p in pieces) == "".join(SUMMARY)
    before, after = wire.of(sid, "usage_update")
    assert (before["used"], after["used"]) == (USED_BEFORE, USED_AFTER)


async def test_without_compaction_a_message_says_the_context_was_compacted(
    wires: Wires,
) -> None:
    wire = wires()
    await wire.start({"session": {"notices": {}}})  # another opt-in, not this one
    sid = await wire.new()
    await wire.prompt(sid, "compact")
    assert not [k for k in wire.kinds(sid) if k.startswith("compaction")]
    assert wire.text(sid).startswith("I compacted the conversation")
    assert [u["used"] for u in wire.of(sid, "usage_update")] == [USED_BEFORE, USED_AFTER]


async def test_plans_by_id_advance_and_one_is_removed(wires: Wires) -> None:
    wire = wires()
    await wire.start(PLANS)
    sid = await wire.new()
    await wire.prompt(sid, "plans")
    assert wire.of(sid, "plan") == []
    updates = wire.of(sid, "plan_update", "plan_removed")
    items = [u["plan"] for u in updates if u.get("plan", {}).get("type") == "items"]
    assert {p["planId"] for p in items} == {"p1"} and len(items) == len(PLAN_STEPS) + 1
    statuses = [[e["status"] for e in p["entries"]] for p in items]
    assert statuses[0] == ["in_progress", "pending", "pending"]
    assert statuses[-1] == ["completed"] * len(PLAN_STEPS)
    (markdown,) = [u["plan"] for u in updates if u.get("plan", {}).get("type") == "markdown"]
    assert markdown == {"type": "markdown", "planId": "p2", "content": FOLLOW_UP}
    assert updates[-1] == {"sessionUpdate": "plan_removed", "planId": "p2"}


async def test_without_plan_operations_the_whole_plan_is_resent(wires: Wires) -> None:
    wire = wires()
    await wire.start({"plan": None})
    sid = await wire.new()
    await wire.prompt(sid, "plans")
    assert wire.of(sid, "plan_update", "plan_removed") == []
    plans = wire.of(sid, "plan")
    assert len(plans) == len(PLAN_STEPS) + 1
    assert [e["content"] for e in plans[0]["entries"]] == list(PLAN_STEPS)  # p1 alone


async def test_an_untitled_tool_call_has_its_tools_name(wires: Wires) -> None:
    wire = wires()
    await wire.start({})
    sid = await wire.new()
    await wire.prompt(sid, "untitled")
    (call,) = wire.of(sid, "tool_call")
    assert call["title"] == "" and call["name"] == "Glob"
    (done,) = wire.of(sid, "tool_call_update")
    assert done["status"] == "completed"
    assert done["content"][0]["content"]["text"] == "hello.py"
