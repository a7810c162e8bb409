"""Registry entries (the format of ../shared/acp-registry/FORMAT.md), read defensively: an entry
that does not follow the schema is skipped with the reason, never a crash, so one bad agent in
the registry cannot hide the others."""

from __future__ import annotations

import platform
import re
import sys
from dataclasses import dataclass, field
from typing import Any

ID = re.compile(r"^[a-z][a-z0-9-]*$")
TARGETS = (
    "darwin-aarch64",
    "darwin-x86_64",
    "linux-aarch64",
    "linux-x86_64",
    "windows-aarch64",
    "windows-x86_64",
)


@dataclass(frozen=True)
class Package:
    """An ``npx`` or ``uvx`` distribution."""

    package: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Binary:
    """A ``binary`` distribution for one platform target."""

    archive: str
    cmd: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Agent:
    id: str
    name: str
    version: str
    description: str
    npx: Package | None = None
    uvx: Package | None = None
    binary: dict[str, Binary] = field(default_factory=dict)
    repository: str | None = None


def this_target() -> str | None:
    """This machine's platform target (``linux-x86_64``, ...), or None if the registry has none."""
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform)
    machine = platform.machine().lower()
    arch = {"x86_64": "x86_64", "amd64": "x86_64", "arm64": "aarch64", "aarch64": "aarch64"}
    if system is None or machine not in arch:
        return None
    return f"{system}-{arch[machine]}"


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} is not a list of strings")
    return list(value)


def _env(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ValueError(f"{what} is not a map of strings")
    return dict(value)


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} is missing")
    return value


def _package(value: Any, kind: str) -> Package | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("package"), str):
        raise ValueError(f"distribution.{kind} has no package")
    return Package(
        value["package"],
        _strings(value.get("args"), f"{kind}.args"),
        _env(value.get("env"), f"{kind}.env"),
    )


def _binaries(value: Any) -> dict[str, Binary]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError("distribution.binary is not an object")
    found = {}
    for target, spec in value.items():
        if target not in TARGETS:
            continue  # a platform this version does not know: not ours to run
        if not isinstance(spec, dict) or not all(
            isinstance(spec.get(k), str) for k in ("archive", "cmd")
        ):
            raise ValueError(f"binary.{target} needs archive and cmd")
        found[target] = Binary(
            spec["archive"],
            spec["cmd"],
            _strings(spec.get("args"), f"binary.{target}.args"),
            _env(spec.get("env"), f"binary.{target}.env"),
        )
    return found


def parse_agent(entry: Any) -> Agent:
    """One entry; ``ValueError`` saying what is wrong with it."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    agent_id = _text(entry, "id")
    if not ID.match(agent_id):
        raise ValueError(f"id {agent_id!r} is not lowercase letters, digits and hyphens")
    dist = entry.get("distribution")
    if not isinstance(dist, dict) or not dist:
        raise ValueError("distribution is missing")
    repository = entry.get("repository")
    return Agent(
        agent_id,
        _text(entry, "name"),
        _text(entry, "version"),
        _text(entry, "description"),
        _package(dist.get("npx"), "npx"),
        _package(dist.get("uvx"), "uvx"),
        _binaries(dist.get("binary")),
        repository if isinstance(repository, str) else None,
    )


def parse_registry(data: Any) -> tuple[list[Agent], list[str]]:
    """The agents of a ``registry.json``, and one line per entry skipped."""
    if not isinstance(data, dict) or not isinstance(data.get("agents"), list):
        raise ValueError('not an ACP registry (no "agents" list)')
    agents, problems = [], []
    for number, entry in enumerate(data["agents"]):
        try:
            agents.append(parse_agent(entry))
        except ValueError as exc:
            name = entry.get("id") if isinstance(entry, dict) else None
            problems.append(f"entry {number} ({name or 'no id'}) skipped: {exc}")
    return agents, problems
