"""How to start the real ``codex-acp`` (Codex's app server behind an ACP adapter) offline, against
``fake_openai``: a throwaway ``HOME`` and ``CODEX_HOME`` whose ``config.toml`` points a custom model
provider at the fake server, and a ``TMPDIR`` beside them so that ``CODEX_HOME`` is not inside
Codex's temporary directory (as ``~/.codex`` is not on a user's machine; see ``codex_agent``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.npm import CODEX_ACP, NpmError, ensure_npm_package

CONFIG = """model = "fake-model"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "{base_url}"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
"""


def codex_agent(base_url: str, home: Path) -> tuple[list[str], dict[str, str]]:
    package = ensure_npm_package(CODEX_ACP)
    node = shutil.which("node")
    if node is None:
        raise NpmError(f"node is not on PATH; cannot run {CODEX_ACP}")
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(CONFIG.format(base_url=base_url), encoding="utf-8")
    # Codex runs its commands and patches in bubblewrap, re-entering itself as its sandbox helper
    # `codex-linux-sandbox`. A system bwrap older than 0.9 (Debian 12 ships 0.8, Ubuntu 22.04 0.6)
    # has no `--argv0`, so Codex re-execs the helper by its argv[0]: the path of a link it makes
    # under CODEX_HOME, which it refuses to make when CODEX_HOME is under the temporary directory
    # ("Refusing to create helper binaries under temporary dir"), as a pytest tmp_path is. The bare
    # name then failed every sandboxed command ("bwrap: execvp codex-linux-sandbox: No such file
    # or directory"), the patch went to Codex's automatic approval reviewer, and the fake model
    # cannot review. A temporary directory of its own, beside CODEX_HOME rather than above it,
    # lets Codex sandbox as on a user's machine (CODEX_HOME=~/.codex), with the system bwrap when
    # there is one and its bundled one otherwise: the reviewer is never involved.
    tmp = home / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(codex_home),
        "TMPDIR": str(tmp),
        "OPENAI_API_KEY": "dummy",
        "NO_BROWSER": "1",
    }
    return [node, str(package / "dist" / "index.js")], env
