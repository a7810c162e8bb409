"""How to start the real ``codex-acp`` (Codex's app server behind an ACP adapter) offline, against
``fake_openai``: a throwaway ``HOME`` and ``CODEX_HOME`` whose ``config.toml`` points a custom model
provider at the fake server."""

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
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(codex_home),
        "OPENAI_API_KEY": "dummy",
        "NO_BROWSER": "1",
    }
    return [node, str(package / "dist" / "index.js")], env
