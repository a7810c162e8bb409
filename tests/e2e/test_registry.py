"""The ACP registry through the real command line, served from 127.0.0.1 (never the internet):
listing it, the cached copy offline, a clear message with neither, a binary agent downloaded,
checked, extracted once and run end to end, and archives that would escape their folder refused.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import subprocess
import sys
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from acp_editor.registry.entries import parse_agent, this_target
from acp_editor.registry.install import InstallError, command_for
from tests.unit.registry.test_entries import snapshot_entries

AGENT_SCRIPT = f'#!/bin/sh\nexec "{sys.executable}" -m acp_editor.demo_agent "$@"\n'


def tar_gz(files: dict[str, tuple[bytes, int]], links: dict[str, str] | None = None) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, (data, mode) in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), mode
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return out.getvalue()


class Served:
    """A folder served over HTTP on 127.0.0.1, in a thread; ``stop`` takes it offline."""

    def __init__(self, root: Path) -> None:
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
        handler.log_message = lambda *a: None  # type: ignore[attr-defined]
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        text = (root / "registry.template.json").read_text().replace("{base}", self.url)
        (root / "registry.json").write_text(text)
        self.entries = {str(a.get("id")): a for a in json.loads(text)["agents"]}

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def binary_agent(agent_id: str, archive: str) -> dict[str, object]:
    target = this_target()
    assert target is not None
    return {
        "id": agent_id, "name": f"Agent {agent_id}", "version": "1.0.0",
        "description": "The demo agent, packed as a binary distribution.",
        "distribution": {"binary": {target: {"archive": archive, "cmd": "./bin/agent"}}},
    }  # fmt: skip


def registry_files(root: Path) -> Path:
    """A registry folder: the snapshot's entries, a binary agent that is the demo agent, two
    archives that would escape their folder and a broken entry. Archive URLs are relative to the
    registry file (``{base}``), filled in by ``Served``."""
    root.mkdir(parents=True)
    (root / "agent.tar.gz").write_bytes(tar_gz({"bin/agent": (AGENT_SCRIPT.encode(), 0o755)}))
    (root / "escape.tar.gz").write_bytes(tar_gz({"../../evil": (b"x", 0o644)}))
    (root / "link.tar.gz").write_bytes(
        tar_gz({"bin/agent": (b"x", 0o755)}, {"bin/passwd": "../../../etc/passwd"})
    )
    agents = [
        *snapshot_entries(),
        binary_agent("packed-demo", "{base}/agent.tar.gz"),
        binary_agent("escaping", "{base}/escape.tar.gz"),
        binary_agent("linking", "{base}/link.tar.gz"),
        {"id": "Broken Entry"},
    ]
    (root / "registry.template.json").write_text(json.dumps({"version": "1.0.0", "agents": agents}))
    return root


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    served = Served(registry_files(tmp_path / "www"))
    monkeypatch.setenv("ACP_EDITOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ACP_EDITOR_REGISTRY", f"{served.url}/registry.json")
    yield served
    served.stop()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "acp_editor", *args],
        capture_output=True, text=True, timeout=60, env=os.environ.copy(),
    )  # fmt: skip


def test_agents_are_listed_and_then_served_from_the_cache_offline(registry: Served) -> None:
    listed = cli("agents", "--json")
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    ids = {a["id"]: a for a in data["agents"]}
    assert {"gemini", "packed-demo"} <= set(ids) and data["stale"] is None
    assert ids["packed-demo"]["runs"] == "binary"
    assert "entry" in listed.stderr and "skipped" in listed.stderr  # the broken entry, named
    text = cli("agents")
    assert "packed-demo" in text.stdout and "Run one: acp-editor --agent ID" in text.stdout

    registry.stop()
    offline = cli("agents", "--json")
    assert offline.returncode == 0, offline.stderr
    assert "using the copy cached" in offline.stderr
    assert {a["id"] for a in json.loads(offline.stdout)["agents"]} == set(ids)


def test_without_network_or_cache_a_clear_message(registry: Served) -> None:
    registry.stop()
    result = cli("agents")
    assert result.returncode == 1
    assert "could not read the ACP registry" in result.stderr
    assert "no cached copy" in result.stderr and "Traceback" not in result.stderr


def test_a_binary_agent_is_downloaded_once_and_runs(registry: Served, tmp_path: Path) -> None:
    ran = cli("demo", "--agent", "packed-demo", "--prompt", "read", "--yes")
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "Done: read." in ran.stdout
    agent_dir = next((tmp_path / "cache" / "agents").glob("packed-demo-1.0.0-*"))
    assert os.access(agent_dir / "bin" / "agent", os.X_OK)
    registry.stop()  # offline now: the extracted agent (and the cached registry) are enough
    again = cli("demo", "--agent", "packed-demo", "--prompt", "read", "--yes")
    assert again.returncode == 0 and "Done: read." in again.stdout, again.stderr[-2000:]


@pytest.mark.parametrize("agent_id", ["escaping", "linking"])
def test_an_archive_that_would_escape_its_folder_is_refused(
    registry: Served, tmp_path: Path, agent_id: str
) -> None:
    with pytest.raises(InstallError, match="refused"):
        command_for(parse_agent(registry.entries[agent_id]), which=lambda tool: None)
    assert list(tmp_path.rglob("evil")) == [] and list(tmp_path.rglob("passwd")) == []
    assert not list((tmp_path / "cache" / "agents").glob(f"{agent_id}-*"))


def test_an_unknown_id_is_neither_preset_nor_registry_agent(registry: Served) -> None:
    result = cli("demo", "--agent", "no-such-agent", "--prompt", "read", "--yes")
    assert result.returncode != 0
    assert "no agent preset named 'no-such-agent'" in result.stderr
    assert "nor an agent of that id in the registry" in result.stderr
