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
            else:
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

    ``unstable`` is the same package's unstable schema: it checks methods the stable one has not
    got (``session/fork``), which the client uses only when an agent advertises them."""

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
            schema = self._schema_of(message["method"])
            name = schema.params.get(message["method"])
            if name is None:
                self.problems.append(f"method not in the schema: {message['method']}")
                return
            self.problems += schema.errors(name, message.get("params"))
        elif "result" in message:
            method = self._incoming.pop(message.get("id"), None) or ""
            schema = self._schema_of(method)
            name = schema.results.get(method)
            if name is None:
                self.problems.append(f"a result for an unknown request: {message}")
                return
            self.problems += schema.errors(name, message["result"])
        elif "error" in message:
            self._incoming.pop(message.get("id"), None)
            self.problems += self.schema.errors("Error", message["error"])
        else:
            self.problems.append(f"not a message: {message}")

    def _schema_of(self, method: str) -> AcpSchema:
        known = method in self.schema.params or method in self.schema.results
        return self.schema if known or self.unstable is None else self.unstable
