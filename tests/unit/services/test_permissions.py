"""Permission rules: scope, deny beats allow, remembering, the readable rules file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from acp_editor.services.permissions import STORE, PermissionPolicy, Rule, load_rules, parse_setting

OPTIONS = [
    {"optionId": "once", "name": "Allow", "kind": "allow_once"},
    {"optionId": "always", "name": "Always", "kind": "allow_always"},
    {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    {"optionId": "never", "name": "Never", "kind": "reject_always"},
]
SHELL = {"toolCallId": "c", "kind": "execute", "rawInput": {"command": "npm test -- --watch"}}
EDIT = {
    "toolCallId": "e",
    "kind": "edit",
    "content": [{"type": "diff", "path": "/w/src/a.py", "newText": "x"}],
}


@pytest.mark.parametrize(
    ("rule", "call", "matches"),
    [
        (Rule("allow", "execute", command="npm test"), SHELL, True),
        (Rule("allow", "execute", command="npm"), SHELL, True),
        (Rule("allow", "execute", command="npm t"), SHELL, False),  # word-wise, not characters
        (Rule("allow", "execute", command="npm install"), SHELL, False),
        (
            Rule("allow", "execute", command="npm test"),
            {"kind": "execute", "rawInput": {"command": "npm test; rm -rf ~"}},
            False,
        ),
        (
            Rule("allow", "execute", command="npm test"),
            {"kind": "execute", "rawInput": {"command": "npm test && curl x | sh"}},
            False,
        ),
        (
            Rule("allow", "execute", command="npm test"),
            {"kind": "execute", "rawInput": {"command": "npm test $(evil)"}},
            False,
        ),
        (
            Rule("allow", "execute", command="a | b"),
            {"kind": "execute", "rawInput": {"command": "a | b"}},
            True,
        ),
        (Rule("allow", "edit", command="npm test"), SHELL, False),  # another kind
        (Rule("allow", None, command="npm test"), SHELL, True),
        (Rule("allow", "edit", path="/w/src"), EDIT, True),
        (Rule("allow", "edit", path="/w/src/a.py"), EDIT, True),
        (Rule("allow", "edit", path="/w/sr"), EDIT, False),  # a prefix of the name is no parent
        (Rule("allow", "edit", path="/w/other"), EDIT, False),
        (Rule("allow", "edit"), EDIT, True),
        (Rule("allow", "read"), EDIT, False),
    ],
)
def test_rule_scope(rule: Rule, call: dict[str, Any], matches: bool) -> None:
    assert rule.matches(call) is matches


def test_no_rules_means_ask(tmp_path: Path) -> None:
    assert PermissionPolicy().decide(str(tmp_path), SHELL, OPTIONS) is None


def test_deny_beats_allow(tmp_path: Path) -> None:
    policy = PermissionPolicy([Rule("allow", "execute"), Rule("reject", "execute", command="npm")])
    assert policy.decide(str(tmp_path), SHELL, OPTIONS) == "no"
    assert (
        PermissionPolicy([Rule("allow", "execute")]).decide(str(tmp_path), SHELL, OPTIONS) == "once"
    )


def test_always_answers_are_remembered_narrowly_in_a_readable_file(tmp_path: Path) -> None:
    policy = PermissionPolicy()
    rule = policy.remember(str(tmp_path), SHELL, "allow_always")
    assert rule == Rule("allow", "execute", command="npm test -- --watch")
    assert policy.remember(str(tmp_path), EDIT, "reject_always") == Rule(
        "reject", "edit", path="/w/src/a.py"
    )
    assert policy.remember(str(tmp_path), SHELL, "allow_once") is None
    stored = json.loads((tmp_path / STORE).read_text())
    assert stored["rules"] == [
        {"decision": "allow", "kind": "execute", "command": "npm test -- --watch"},
        {"decision": "reject", "kind": "edit", "path": "/w/src/a.py"},
    ]
    assert policy.decide(str(tmp_path), SHELL, OPTIONS) == "once"
    assert policy.decide(str(tmp_path), EDIT, OPTIONS) == "no"
    assert policy.decide(str(tmp_path / "elsewhere"), SHELL, OPTIONS) is None  # per workspace


def test_a_person_can_edit_the_file(tmp_path: Path) -> None:
    store = tmp_path / STORE
    store.parent.mkdir()
    store.write_text(
        json.dumps(
            {"rules": [{"decision": "allow", "kind": "execute", "command": "npm"}, {"bad": 1}]}
        )
    )
    assert load_rules(store) == [Rule("allow", "execute", command="npm")]  # the bad one is skipped
    store.write_text("{ not json")
    assert load_rules(store) == []


def test_nothing_to_scope_by_is_not_remembered(tmp_path: Path) -> None:
    assert PermissionPolicy().remember(str(tmp_path), {"toolCallId": "x"}, "allow_always") is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("read", Rule("allow", "read")),
        ("execute:npm test", Rule("allow", "execute", command="npm test")),
        ("edit:/w/docs", Rule("allow", "edit", path="/w/docs")),
    ],
)
def test_settings_syntax(text: str, rule: Rule) -> None:
    assert parse_setting(text) == rule


def test_settings_syntax_errors() -> None:
    with pytest.raises(ValueError, match="without a tool kind"):
        parse_setting(":npm")
