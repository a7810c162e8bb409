"""Permission policy: remembered "always" answers and explicit auto-approval settings.

When the user picks an ``allow_always`` or ``reject_always`` option, a rule is remembered for that
workspace, scoped as narrowly as the tool call allows: its kind plus the exact command (as a
prefix: "npm test" also covers "npm test -- -x") or the file path. Rules live in
``<workspace>/.acp-editor/permissions.json``, plain JSON a person can read, edit or delete.
Settings can add rules too; nothing is approved automatically unless a rule says so. When rules
disagree, reject wins.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from acp_editor.log import get_logger
from acp_editor.protocol.acp import ALLOW_KINDS, REJECT_KINDS, option_of_kind
from acp_editor.protocol.tool_call import paths_named, shell_command

log = get_logger(__name__)

Decision = Literal["allow", "reject"]
STORE = Path(".acp-editor") / "permissions.json"
PATH_KINDS = ("read", "edit", "delete", "move")


@dataclass(frozen=True)
class Rule:
    decision: Decision
    kind: str | None = None
    """Tool kind the rule covers (``execute``, ``edit``, ...); None: every kind."""
    command: str | None = None
    """Covers commands that start with this (word-wise)."""
    path: str | None = None
    """Covers this file, or everything below it when it is a directory."""

    def matches(self, call: dict[str, Any]) -> bool:
        if self.kind is not None and call.get("kind") != self.kind:
            return False
        if self.command is not None:
            command = shell_command(call)
            if command is None or not _starts_with_words(command, self.command):
                return False
        if self.path is not None:
            paths = paths_named(call)
            if not paths or not all(_within(p, self.path) for p in paths):
                return False
        return True

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_json(cls, data: Any) -> Rule:
        if not isinstance(data, dict) or data.get("decision") not in ("allow", "reject"):
            raise ValueError(f'a rule needs "decision": "allow" or "reject": {data!r}')
        fields = {k: data.get(k) for k in ("kind", "command", "path")}
        if not all(v is None or isinstance(v, str) for v in fields.values()):
            raise ValueError(f"kind, command and path must be strings: {data!r}")
        return cls(data["decision"], **fields)


def parse_setting(text: str) -> Rule:
    """``--auto-approve`` values: ``KIND``, ``execute:COMMAND PREFIX`` or ``KIND:/path``."""
    kind, _, scope = text.partition(":")
    if not kind:
        raise ValueError(f"auto-approve rule without a tool kind: {text!r}")
    if not scope:
        return Rule("allow", kind)
    if scope.startswith("/"):
        return Rule("allow", kind, path=scope)
    return Rule("allow", kind, command=scope)


class PermissionPolicy:
    def __init__(self, settings: list[Rule] | None = None) -> None:
        self.settings = list(settings or [])

    def rules(self, root: str) -> list[Rule]:
        return self.settings + load_rules(Path(root) / STORE)

    def decide(self, root: str, call: dict[str, Any], options: list[dict[str, Any]]) -> str | None:
        """The option to answer with, without asking, or None to ask the user."""
        matching = [r for r in self.rules(root) if r.matches(call)]
        if any(r.decision == "reject" for r in matching):  # deny beats allow
            return option_of_kind(options, REJECT_KINDS)
        if matching:
            return option_of_kind(options, ALLOW_KINDS)
        return None

    def remember(self, root: str, call: dict[str, Any], option_kind: str) -> Rule | None:
        """Store a rule for an ``allow_always``/``reject_always`` answer; returns it."""
        if option_kind not in ("allow_always", "reject_always"):
            return None
        decision: Decision = "allow" if option_kind == "allow_always" else "reject"
        kind = call.get("kind") if isinstance(call.get("kind"), str) else None
        command = shell_command(call)
        paths = paths_named(call)
        if command is not None:
            rule = Rule(decision, kind, command=command)
        elif len(paths) == 1 and (kind in PATH_KINDS or kind is None):
            rule = Rule(decision, kind, path=paths[0])
        elif kind is not None:
            rule = Rule(decision, kind)
        else:
            return None  # nothing to scope it by: do not remember a rule covering everything
        store = Path(root) / STORE
        rules = load_rules(store)
        if rule not in rules:
            save_rules(store, [*rules, rule])
        return rule


def load_rules(store: Path) -> list[Rule]:
    try:
        data = json.loads(store.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        log.warning("ignoring unreadable permission rules in %s: %s", store, exc)
        return []
    rules = []
    for item in data.get("rules", []) if isinstance(data, dict) else []:
        try:
            rules.append(Rule.from_json(item))
        except ValueError as exc:
            log.warning("ignoring a permission rule in %s: %s", store, exc)
    return rules


def save_rules(store: Path, rules: list[Rule]) -> None:
    store.parent.mkdir(parents=True, exist_ok=True)
    tmp = store.with_suffix(".tmp")
    body = {
        "about": "Permission answers remembered by acp-editor. Edit or delete freely; "
        "reject rules win over allow rules.",
        "rules": [r.to_json() for r in rules],
    }
    tmp.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, store)


SHELL_CONTROL = set(";&|`$<>()\n")


def _starts_with_words(command: str, prefix: str) -> bool:
    """``npm test`` covers ``npm test -- -x``, but not ``npm test; rm -rf ~``: what follows the
    prefix may hold no shell control characters, or the rule would cover any other command."""
    words, wanted = command.split(), prefix.split()
    if not wanted or words[: len(wanted)] != wanted:
        return False
    rest = " ".join(words[len(wanted) :])
    return not (SHELL_CONTROL & set(rest))


def _within(path: str, scope: str) -> bool:
    norm_path, norm_scope = os.path.normpath(path), os.path.normpath(scope)
    return norm_path == norm_scope or norm_path.startswith(norm_scope.rstrip("/") + "/")
