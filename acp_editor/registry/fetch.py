"""Where the registry comes from: fetched over HTTP(S) (the official one by default, another with
``--registry URL`` or ``ACP_EDITOR_REGISTRY``), kept in the user's cache directory, and read from
there when the network is not available, saying so."""

from __future__ import annotations

import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from acp_editor.registry.entries import Agent, parse_registry

DEFAULT_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json"
"""Where the registry's build publishes it (see ../shared/acp-registry/SOURCE.txt)."""
TIMEOUT = 10.0


class RegistryError(Exception):
    """Neither the registry nor a cached copy of it can be read; the message says what to do."""


@dataclass
class Listing:
    agents: list[Agent]
    problems: list[str]
    """Entries skipped, one line each."""
    url: str
    stale: str | None = None
    """Set when the cached copy was used: why, and how old it is."""

    def find(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)


def registry_url(flag: str | None = None) -> str:
    return flag or os.environ.get("ACP_EDITOR_REGISTRY") or DEFAULT_URL


def cache_dir() -> Path:
    own = os.environ.get("ACP_EDITOR_CACHE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "acp-editor"


def _cache_file(url: str) -> Path:
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    return cache_dir() / f"registry-{digest}.json"


def _fetch(url: str) -> bytes:
    if not url.startswith(("https://", "http://", "file://")):
        raise ValueError(f"{url} is not an http(s) or file URL")
    request = urllib.request.Request(url, headers={"User-Agent": "acp-editor"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        data: bytes = response.read()
    return data


def _age(seconds: float) -> str:
    if seconds < 3600:
        return f"{max(1, int(seconds // 60))} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h"
    return f"{int(seconds // 86400)} days"


def load(url: str) -> Listing:
    """The registry at ``url``, else its cached copy; ``RegistryError`` when there is neither."""
    cached = _cache_file(url)
    try:
        raw = _fetch(url)
        agents, problems = parse_registry(json.loads(raw))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        why = str(getattr(exc, "reason", None) or exc)
        if not cached.exists():
            raise RegistryError(
                f"could not read the ACP registry at {url} ({why}), and there is no cached copy. "
                "Check the network, or point --registry (or ACP_EDITOR_REGISTRY) at a "
                "registry.json. Agent presets (agents.toml) keep working."
            ) from exc
        agents, problems = parse_registry(json.loads(cached.read_bytes()))
        age = _age(time.time() - cached.stat().st_mtime)
        stale = f"could not read {url} ({why}): using the copy cached {age} ago"
        return Listing(agents, problems, url, stale)
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(raw)
    os.replace(partial, cached)  # a reader never sees half a file
    return Listing(agents, problems, url)
