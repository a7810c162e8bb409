"""What the command line does with the registry: ``acp-editor agents`` lists it, and
``--agent ID`` (when no preset has that name) runs the registry agent of that id."""

from __future__ import annotations

import json
import sys

from acp_editor.presets import Preset
from acp_editor.registry.fetch import Listing, RegistryError, load, registry_url
from acp_editor.registry.install import InstallError, command_for, how_it_runs


def _load(flag: str | None) -> Listing:
    listing = load(registry_url(flag))
    if listing.stale:
        print(f"acp-editor: {listing.stale}", file=sys.stderr)
    for problem in listing.problems:
        print(f"acp-editor: registry: {problem}", file=sys.stderr)
    return listing


def list_agents(flag: str | None, *, as_json: bool) -> int:
    try:
        listing = _load(flag)
    except RegistryError as exc:
        print(f"acp-editor: {exc}", file=sys.stderr)
        return 1
    rows = [
        {
            "id": a.id,
            "name": a.name,
            "version": a.version,
            "description": a.description,
            "runs": how_it_runs(a),
        }
        for a in sorted(listing.agents, key=lambda a: a.id)
    ]
    # The listing is this subcommand's output (never the LSP server's stdout).
    if as_json:
        listed = {"registry": listing.url, "stale": listing.stale, "agents": rows}
        print(json.dumps(listed))  # stdout-ok
        return 0
    for row in rows:
        text = row["description"]
        about = text if len(text) <= 60 else text[:59] + "…"
        line = f"{row['id']:<22} {row['version']:<10} {row['runs']:<8} {row['name']}: {about}"
        print(line)  # stdout-ok
    print(f"\n{len(rows)} agents from {listing.url}. Run one: acp-editor --agent ID")  # stdout-ok
    return 0


def registry_preset(agent_id: str | None, flag: str | None) -> Preset | None:
    """The registry agent ``agent_id`` as a preset (its command for this machine), or None
    when the registry has no such agent. Errors that a user must act on end the program."""
    if agent_id is None:
        return None
    try:
        listing = _load(flag)
    except RegistryError as exc:
        raise SystemExit(f"acp-editor: {exc}") from exc
    agent = listing.find(agent_id)
    if agent is None:
        return None
    try:
        command = command_for(agent)
    except InstallError as exc:
        raise SystemExit(f"acp-editor: {exc}") from exc
    return Preset(agent.id, command.argv, command.env)
