"""``acp-editor demo``: the main job, run as a newcomer would, as a real subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.checkout import REPO_ROOT, copy_checkout

DEMO = [sys.executable, "-m", "acp_editor", "demo"]


def run_demo(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [*DEMO, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
        check=False,
    )


def test_demo_with_yes_shows_the_whole_flow(tmp_path: Path) -> None:
    done = run_demo("--yes", "--workspace", str(tmp_path))
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "follow -> " + str(tmp_path / "hello.py") in out  # follow-along jumps
    assert "proposed edit: " + str(tmp_path / "hello.py") in out  # a diff preview
    assert "+print(" in out  # ... with its added line
    assert "permission: " in out and "--yes:" in out  # a permission prompt, answered
    assert "$ hello from the demo agent" in out  # terminal output
    assert "plan:" in out and "[x]" in out  # the plan
    assert "agent> " in out and "thinking> " in out  # streamed text and thoughts
    assert "turn ended: end_turn" in out
    assert "print(" in (tmp_path / "hello.py").read_text()


def test_demo_answered_at_the_keyboard_reject_keeps_the_file(tmp_path: Path) -> None:
    # Empty answers (Enter) reject every permission prompt.
    done = run_demo("--workspace", str(tmp_path), "--prompt", "edit", stdin="\n\n\n")
    assert done.returncode == 0, done.stderr
    assert "choose 1-4" in done.stdout
    assert (tmp_path / "hello.py").read_text() == (
        'def greet(name):\n    return f"Hello, {name}!"\n\n\nprint(greet("world"))\n'
    )


def test_demo_picks_the_option_typed(tmp_path: Path) -> None:
    done = run_demo("--workspace", str(tmp_path), "--prompt", "edit", stdin="1\n")
    assert done.returncode == 0, done.stderr
    assert "edited by the demo agent" in (tmp_path / "hello.py").read_text()


def test_demo_with_a_missing_agent_says_so() -> None:
    done = run_demo("--", "no-such-agent-xyz")
    assert done.returncode == 1
    assert "agent command not found: 'no-such-agent-xyz'" in done.stdout


def test_stdout_of_the_help_is_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "acp_editor", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "demo" in done.stdout


def test_the_readme_try_it_command_runs_as_written(tmp_path: Path) -> None:
    """README.md's "Try it" line, read from README.md and run as written in a copy of the
    checkout: a fresh .venv, pip installing from the package index, then the demo (here with no
    one at the keyboard: every question rejected). A system Python, not this test's venv."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    (command,) = re.findall(r"^## Try it.*?```sh\n(.*?)```", readme, re.S | re.M)
    assert "acp-editor demo" in command, command
    checkout = tmp_path / "acp-editor"
    copy_checkout(checkout)
    env = dict(os.environ, NO_COLOR="1")
    for name in ("FORCE_COLOR", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME"):
        env.pop(name, None)
    own_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep) if d != own_bin)
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=checkout,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (checkout / ".venv" / "bin" / "acp-editor").exists()
    assert "turn ended: end_turn" in done.stdout, done.stdout[-2000:]
