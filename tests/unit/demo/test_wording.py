"""What the demo says of notices, tokens, the context window, plans, subagents and signing in,
for the shapes agents send (and the odd ones: no title, no size, v2's plans without a type)."""

from __future__ import annotations

from acp_editor.demo import wording


def test_tokens_say_what_the_turn_reports() -> None:
    assert wording.tokens_text({"totalTokens": 30, "inputTokens": 20, "outputTokens": 10}) == (
        "tokens: 30 (20 in, 10 out)"
    )
    cached = {"totalTokens": 5000, "cachedReadTokens": 4000, "cachedWriteTokens": None}
    assert wording.tokens_text(cached) == "tokens: 5,000 (4,000 cache read)"
    assert wording.tokens_text({"totalTokens": 7}) == "tokens: 7"
    assert wording.tokens_text({}) is None
    assert wording.tokens_text(None) is None
    assert wording.tokens_text({"totalTokens": True}) is None  # not a number


def test_the_context_window_with_or_without_its_size_and_cost() -> None:
    usage = {"used": 53000, "size": 200000, "cost": {"amount": 0.045, "currency": "USD"}}
    assert (
        wording.context_text(usage)
        == "context: 53,000 of 200,000 tokens used (26%), cost 0.045 USD"
    )
    assert wording.context_text({"used": 10, "size": 0}) == "context: 10 tokens used"
    assert wording.context_text({"size": 10}) is None


def test_a_plans_kind_is_read_from_its_fields_when_it_has_no_type() -> None:
    assert wording.plan_kind({"planId": "a", "entries": []}) == "items"
    assert wording.plan_kind({"planId": "b", "content": "# x"}) == "markdown"
    assert wording.plan_kind({"planId": "c", "uri": "file:///p"}) == "file"
    assert wording.plan_header({"planId": "b", "content": "# x"}) == "plan b (markdown):"
    assert wording.plan_lines({"type": "_chart", "planId": "d"}) == [
        "  [_chart plan: shown generically]"
    ]
    unknown = [{"content": "Odd", "status": "_blocked"}, "not an entry"]
    assert wording.plan_lines({"entries": unknown}) == ["  [?] Odd"]


def test_a_subagent_is_named_by_its_title_else_its_session() -> None:
    assert wording.subagent_name("c1", {"title": "Explore"}) == "subagent “Explore”"
    assert wording.subagent_name("c1", {"title": "  "}) == "subagent c1"
    assert wording.subagent_name("c1", None) == "subagent c1"


def test_a_subagents_states() -> None:
    name = "subagent “X”"
    assert wording.subagent_state(name, {"state": "requires_action"}) == (
        "subagent “X” waits for you",
        "yellow",
    )
    assert wording.subagent_state(name, {"state": "_paused"}) == ("subagent “X” is _paused", "dim")
    assert wording.subagent_state(name, {"state": "idle", "stopReason": "max_tokens"}) == (
        "subagent “X” finished (max_tokens)",
        "green",
    )
    assert wording.subagent_state(name, {"state": "idle", "stopReason": "error"}) == (
        "subagent “X” failed",
        "red",
    )


def test_notices_sign_in_states_and_methods() -> None:
    assert wording.notice_text({"severity": "info", "title": "Switched model"}) == (
        "notice (info): Switched model"
    )
    assert wording.notice_style({"severity": "info"}) == "cyan"
    assert wording.auth_text({"state": "unauthenticated", "label": "Not logged in"}) == (
        "sign-in: unauthenticated (Not logged in)"
    )
    assert wording.method_line(2, {"id": "login"}) == "  2) login (the agent signs in)"
