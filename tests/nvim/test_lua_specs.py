"""The Lua specs of the plugin's modules (tests/nvim/spec/**/*_spec.lua), each file run by
tests/nvim/spec/run.lua in a headless Neovim of its own, so no file sees another's state.

A spec file fails here with the runner's words: which spec, what differed, and where.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.nvim.driver import find_nvim

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "tests" / "nvim" / "spec"
RUNNER = SPECS / "run.lua"
SPEC_FILES = sorted(SPECS.rglob("*_spec.lua"))
TIMEOUT_SECONDS = 60


def run_specs(*files: Path) -> subprocess.CompletedProcess[str]:
    nvim = find_nvim()
    if nvim is None:
        pytest.skip("no nvim beside the Python interpreter or on PATH (pip install .[dev])")
    argv = [nvim, "--headless", "--clean", "-n", "-l", str(RUNNER), *map(str, files)]
    return subprocess.run(
        argv,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )


def test_the_specs_are_found() -> None:
    names = {f.relative_to(SPECS).as_posix() for f in SPEC_FILES}
    assert {
        "session/reducer_spec.lua",
        "chat/history_spec.lua",
        "chat/queue_spec.lua",
        "complete/sources_spec.lua",
        "statusline_spec.lua",
    } <= names


@pytest.mark.parametrize("spec", SPEC_FILES, ids=lambda f: f.relative_to(SPECS).as_posix())
def test_lua_spec(spec: Path) -> None:
    done = run_specs(spec)
    output = done.stdout + done.stderr
    if done.returncode != 0 or " 0 failed" not in output:
        pytest.fail(f"{spec.relative_to(ROOT)} (exit {done.returncode}):\n{output}", pytrace=False)


def test_the_runner_fails_a_failing_spec_and_one_that_asserts_nothing(tmp_path: Path) -> None:
    spec = tmp_path / "broken_spec.lua"
    spec.write_text(
        'local t = require("spec")\n'
        't.it("adds", function() t.eq(3, 1 + 1) end)\n'
        't.it("checks nothing", function() end)\n'
        't.it("passes", function() t.ok(true) end)\n'
    )
    done = run_specs(spec)
    assert done.returncode == 1
    assert "FAIL broken_spec.lua: adds\n  " in done.stdout
    assert "expected 3, got 2" in done.stdout
    assert "FAIL broken_spec.lua: checks nothing\n  the spec asserted nothing" in done.stdout
    assert done.stdout.rstrip().endswith("1 passed, 2 failed")
