"""Pinned npm packages the tests need, installed once into ``<repo>/.cache/npm/``.

Each package gets a prefix directory of its own, named after its spec, so two pins never share a
``node_modules``. An install goes into a temporary directory next to the cache entry and is renamed
into place only when it succeeded: a half-finished install is never seen, and two test processes
racing for the same package both end up using whichever rename won.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.installs import run_installer

REPO_ROOT = Path(__file__).resolve().parents[2]
NPM_CACHE = REPO_ROOT / ".cache" / "npm"

ACP_SDK = "@agentclientprotocol/sdk@2.4.0"
"""The official ACP SDK; ships the protocol's JSON Schema as ``schema/v1/schema.json``."""

CLAUDE_CODE_ACP = "@zed-industries/claude-code-acp@0.16.2"
"""A real public ACP agent (Claude Code); runs offline against ``tests.agents.fake_anthropic``."""

CLAUDE_AGENT_ACP = "@agentclientprotocol/claude-agent-acp@0.101.0"
"""The current Claude agent: it reads, edits and runs commands itself (no ``fs/*`` or
``terminal/*``); runs offline against ``tests.agents.fake_anthropic`` too."""

CODEX_ACP = "@agentclientprotocol/codex-acp@2.6.0"
"""The current Codex agent (its npm dependency ships Codex's native binary): it patches files and
runs commands itself; runs offline against ``tests.agents.fake_openai``."""


_EXACT_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")


class NpmError(RuntimeError):
    """npm is missing, or an install failed (the message carries npm's own output)."""


def split_spec(spec: str) -> tuple[str, str]:
    """``"@scope/name@1.2.3"`` -> ``("@scope/name", "1.2.3")``; only exact versions are accepted.

    A range would make the cache entry's contents depend on the day it was filled.
    """
    name, sep, version = spec.rpartition("@")
    if not sep or not name or not _NAME.match(name) or not _EXACT_VERSION.match(version):
        raise ValueError(f"not a pinned npm package spec (want name@1.2.3): {spec!r}")
    return name, version


def cache_dir_for(spec: str, cache: Path = NPM_CACHE) -> Path:
    """The install prefix of one pinned spec: ``@a/b@1.0.0`` -> ``<cache>/a__b@1.0.0``."""
    split_spec(spec)
    return cache / spec.lstrip("@").replace("/", "__")


def npm_skip_reason() -> str | None:
    """Why npm-backed tests cannot run here, or ``None``. Under CI they always run (and fail)."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return None
    if shutil.which("npm") is None or shutil.which("node") is None:
        return "npm or node is not on PATH: cannot install or run real agents (never skipped in CI)"
    return None


requires_npm = pytest.mark.skipif(
    npm_skip_reason() is not None, reason=npm_skip_reason() or "npm available"
)
"""Mark for tests that install npm packages: skipped only when npm is absent outside CI."""


def ensure_npm_package(spec: str, *, cache: Path = NPM_CACHE) -> Path:
    """Install ``spec`` (exact version) unless cached; return its directory in ``node_modules``."""
    name, version = split_spec(spec)
    prefix = cache_dir_for(spec, cache)
    if _installed_version(prefix, name) == version:
        return prefix / "node_modules" / name
    npm = shutil.which("npm")
    if npm is None:
        raise NpmError(f"npm is not on PATH; cannot install {spec}")
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{prefix.name}.", suffix=".tmp", dir=cache))
    try:
        _npm_install(npm, staging, spec)
        got = _installed_version(staging, name)
        if got != version:
            raise NpmError(f"npm install {spec} left version {got!r} in {staging}")
        _move_into_place(staging, prefix, name, version)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return prefix / "node_modules" / name


def acp_schema_path(name: str = "schema.json", version: int = 1) -> Path:
    """The official ACP JSON Schema of ``version`` (``schema.unstable.json``: with the unstable
    methods), from the pinned SDK package (which ships the v2 draft's too)."""
    path = ensure_npm_package(ACP_SDK) / "schema" / f"v{version}" / name
    if not path.is_file():
        raise NpmError(f"{ACP_SDK} does not ship {path}")
    return path


def _npm_install(npm: str, prefix: Path, spec: str) -> None:
    argv = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec]
    run_installer(argv, f"npm install {spec}", NpmError, cwd=prefix)


def _move_into_place(staging: Path, prefix: Path, name: str, version: str) -> None:
    """Rename the finished install to ``prefix``; a racing process may have got there first."""
    try:
        staging.rename(prefix)
        return
    except OSError:
        if _installed_version(prefix, name) == version:
            return  # another process won the race with an equally good install
    # Something unusable sits at prefix (a hand-made or broken directory): set it aside.
    stale = prefix.with_name(f".{prefix.name}.stale-{os.getpid()}-{time.monotonic_ns()}")
    with contextlib.suppress(FileNotFoundError):
        prefix.rename(stale)
    try:
        staging.rename(prefix)
    except OSError:
        if _installed_version(prefix, name) != version:
            raise
    finally:
        shutil.rmtree(stale, ignore_errors=True)


def _installed_version(prefix: Path, name: str) -> str | None:
    try:
        manifest = json.loads((prefix / "node_modules" / name / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    version = manifest.get("version") if isinstance(manifest, dict) else None
    return version if isinstance(version, str) else None
