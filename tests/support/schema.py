"""Validate every message the sidecar sends to an agent against the official ACP JSON Schema.

The schema comes from a pinned registry package (npm ``@agentclientprotocol/sdk``), never from a
hand-made copy. Each ``$defs`` entry that names a method (``x-method``) tells which params or
result shape belongs to which method; the tracer remembers the method of each request it saw, so
the responses we send can be checked against the right ``...Response`` type.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator


class AcpSchema:
    def __init__(self, schema_path: Path) -> None:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        self.defs: dict[str, Any] = schema["$defs"]
        self.params: dict[str, str] = {}  # method -> $defs name of its params
        self.results: dict[str, str] = {}  # method -> $defs name of its result
        for name, spec in self.defs.items():
            method = spec.get("x-method") if isinstance(spec, dict) else None
            if not method:
                continue
            if name.endswith("Response"):
                self.results[method] = name
            elif method not in self.params or spec.get("x-side") == "agent":
                # A method both sides send (mcp/message: the agent's request, the client's
                # notification) is checked as the agent receives it: the client is checked.
                self.params[method] = name
        self._validators: dict[str, Draft202012Validator] = {}

    def errors(self, type_name: str, value: Any) -> list[str]:
        validator = self._validators.get(type_name)
        if validator is None:
            validator = Draft202012Validator({"$ref": f"#/$defs/{type_name}", "$defs": self.defs})
            self._validators[type_name] = validator
        return [
            f"{type_name}: {e.message} at {list(e.absolute_path)}"
            for e in validator.iter_errors(value)
        ]


class ClientTrafficChecker:
    """A tracer for ``JsonRpcPeer.tracers``: checks what the client sends, collects problems.

    ``unstable`` is the same package's unstable schema: a message the stable one refuses or has
    no method for is checked against it (``session/fork``; ``session/new`` naming an ``acp`` MCP
    server), as the client sends those only to agents that advertise them."""

    def __init__(self, schema: AcpSchema, unstable: AcpSchema | None = None) -> None:
        self.schema = schema
        self.unstable = unstable
        self.problems: list[str] = []
        self.checked = 0
        self._incoming: dict[Any, str] = {}  # the agent's request id -> method

    def __call__(self, direction: str, message: dict[str, Any]) -> None:
        if direction == "recv":
            if "method" in message and "id" in message:
                # A duplicate id while the first is in flight is ignored by the client: keep the
                # first request's method for the one answer that will come.
                self._incoming.setdefault(message["id"], message["method"])
            return
        self.checked += 1
        if message.get("jsonrpc") != "2.0":
            self.problems.append(f"no jsonrpc 2.0: {message}")
        if "method" in message:
            found = self._check("params", message["method"], message.get("params"))
            if found is None:
                self.problems.append(f"method not in the schema: {message['method']}")
                return
            self.problems += found
        elif "result" in message:
            method = self._incoming.pop(message.get("id"), None) or ""
            found = self._check("results", method, message["result"])
            if found is None:
                self.problems.append(f"a result for an unknown request: {message}")
                return
            self.problems += found
        elif "error" in message:
            self._incoming.pop(message.get("id"), None)
            self.problems += self.schema.errors("Error", message["error"])
        else:
            self.problems.append(f"not a message: {message}")

    def _check(self, table: str, method: str, value: Any) -> list[str] | None:
        """The problems of ``value`` under the stable schema, none when the unstable one takes
        it; None when neither has the method."""
        found: list[str] | None = None
        for schema in (self.schema, self.unstable):
            name = getattr(schema, table).get(method) if schema is not None else None
            if schema is None or name is None:
                continue
            problems = schema.errors(name, value)
            if not problems:
                return []
            found = problems if found is None else found
        return found
