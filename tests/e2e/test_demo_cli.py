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


def test_demo_shows_notices_compactions_plans_and_a_subagent(tmp_path: Path) -> None:
    """Schema 1.25's additions as the demo agent sends them to a client that opts in (as
    acp-editor does): each in the terminal, a subagent's lines under its title."""
    prompt = "notice compact plans subagent untitled"
    done = run_demo("--yes", "--workspace", str(tmp_path), "--prompt", prompt)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "notice (warning): Rate limit almost reached: The demo agent has used 90%" in out
    assert "compacting the context\nsummary> The user is trying the acp-editor demo agent." in out
    assert "context compacted\ncontext: 23,000 of 200,000 tokens used (12%)" in out
    assert "plan p1:\n  [>] Read hello.py" in out and "plan p2 (markdown):" in out
    assert "  [x] Run the tests\nplan p2 removed" in out
    title = "subagent “Explore hello.py”"
    assert f"{title} started: Reads hello.py and makes one small edit" in out
    child = out[out.index(f"{title}:\n") :]  # its lines, indented under its title
    assert child.startswith(f"{title}:\n    from parent> Explore hello.py: read it,")
    assert "\n    tool  Read hello.py  [read] completed\n" in child
    assert "\n    permission: Edit hello.py [edit]\n" in child
    assert f"\n{title} finished (end_turn; tokens: " in out
    assert f"\nfrom {title}> I read hello.py and added a line at its end." in out
    assert "\ntool  Glob  [search] completed\n" in out  # an empty title: the tool's name
    assert re.search(r"\ntokens: [\d,]+ \([\d,]+ in, [\d,]+ out\)\nturn ended: end_turn", out)
    assert "edited by the demo agent" in (tmp_path / "hello.py").read_text()


def test_demo_require_login_signs_in_at_the_terminal_then_the_prompt_goes_on(
    tmp_path: Path,
) -> None:
    """The demo agent refuses the prompt until the user signs in: the user picks the terminal
    sign-in, types a name into the agent's login program, and the same prompt goes on."""
    done = run_demo(
        "--require-login", "--workspace", str(tmp_path), "--prompt", "notice", stdin="1\nAlice\n"
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "sign-in: unauthenticated" in out
    assert "sign-in: acp-editor demo agent needs you to sign in. Choose how:\n" in out
    assert "  1) Log in from a terminal (a command in a terminal)" in out
    assert "sign-in: Log in from a terminal: running in " in out
    assert "Demo sign-in for acp-editor. Type your name and press Enter:" in out
    assert "Signed in as Alice." in out
    assert "sign-in: the command ended with exit status 0: signed in" in out
    assert "sign-in: authenticated (Alice)" in out
    assert out.index("Signed in as Alice.") < out.index("notice (warning): Rate limit")
    assert "turn ended: end_turn" in out


def test_demo_require_login_with_yes_and_no_terminal_says_what_to_run(tmp_path: Path) -> None:
    done = run_demo("--yes", "--require-login", "--workspace", str(tmp_path), "--prompt", "read")
    assert done.returncode == 1
    assert "  --yes: demo-terminal-login" in done.stdout
    assert "sign-in: Log in from a terminal: run this in a terminal in " in done.stdout
    assert "error: signing in to acp-editor demo agent with Log in from a terminal was not" in (
        done.stdout
    )
    assert "turn ended" not in done.stdout


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
