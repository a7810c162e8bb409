"""A real Emacs (Debian's emacs-nox + elpa-eglot + elpa-lsp-mode, installed by
scripts/emacs-test-deps) in batch mode without a user init file, set up exactly as docs/emacs.md
says (its eglot block, or its lsp-mode block), against the real sidecar: the demo agent for the
turns and the sessions, a stubborn scripted agent for the shutdowns.

The user is played by tests/emacs/harness.el; each scenario of tests/emacs/scenarios.el is one
Emacs run whose checks come back as JSON."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from acp_editor import procs
from tests.support.sshd import Sshd, running_sshd, unusable
from tests.support.starter import SCRIPTED_AGENT

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SIDECAR = [str(Path(sys.executable).parent / "acp-editor"), "--stdio"]
DEMO_AGENT = [sys.executable, "-m", "acp_editor.demo_agent", "--wait-seconds", "11"]
STUBBORN_AGENT = [*SCRIPTED_AGENT, "--ignore-stdin-eof"]
HELLO = 'print("hello, world")\n\n\ndef main():\n    return 1\n\n\nmain()\n'


def docs_block(client: str = "eglot") -> str:
    """The elisp block of docs/emacs.md for ``client`` (eglot, lsp-mode): what users paste is
    what runs here."""
    blocks = re.findall(r"```elisp\n(.*?)```", (ROOT / "docs" / "emacs.md").read_text(), re.S)
    (block,) = [b for b in blocks if b.startswith(f";;; acp-editor through {client}:")]
    return block


@pytest.fixture(scope="module")
def emacs() -> str:
    found = shutil.which("emacs")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("no emacs on PATH: scripts/emacs-test-deps installs it")
        pytest.skip("no emacs on PATH (bash scripts/emacs-test-deps)")
    return found


def run_emacs(
    emacs: str,
    tmp_path: Path,
    scenario: str,
    agent: list[str],
    client: str = "eglot",
    remote: Sshd | None = None,
) -> dict[str, Any]:
    """``remote``: Emacs opens the workspace through TRAMP over ssh to that server, and eglot
    starts the sidecar there (tests/emacs/tramp.el)."""
    workspace = tmp_path / "project"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)  # a project for eglot
    (workspace / "hello.py").write_text(HELLO)
    setup = tmp_path / "setup.el"
    setup.write_text(docs_block(client))
    result = tmp_path / "result.json"
    state = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    sidecar = [*SIDECAR, "--", *agent]
    env = {
        **os.environ,
        **state,  # no user init, and the sidecar's state stays here
        "ACP_TEST_RESULT": str(result),
        "ACP_TEST_WORKSPACE": str(workspace),
        "ACP_TEST_COMMAND": shlex.join(sidecar),
        "ACP_TEST_WATCHDOG": "90",
    }
    files = [HERE / "harness.el", setup, HERE / "scenarios.el"]
    if client == "lsp-mode":
        files.append(HERE / "lsp_mode.el")
    if remote is not None:
        files.append(HERE / "tramp.el")
        env["ACP_TEST_SSH_CONFIG"] = str(remote.config)
        env["ACP_TEST_WORKSPACE"] = f"/ssh:{remote.user}@127.0.0.1#{remote.port}:{workspace}"
        # The ssh login's environment is the remote user's: keep the sidecar's state here too.
        env["ACP_TEST_COMMAND"] = shlex.join(
            ["env", *(f"{k}={v}" for k, v in state.items()), *sidecar]
        )
    done = subprocess.run(
        [
            emacs,
            "--batch",
            "-q",  # no user init; site files as on the user's machine (Debian's packages)
            *(f"--load={f}" for f in files),
            f"--eval=(acp-test-run '{scenario})",
        ],
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if not result.exists():
        pytest.fail(f"emacs wrote no result (exit {done.returncode}):\n{done.stderr[-4000:]}")
    results: dict[str, Any] = json.loads(result.read_text())
    failed = [c for c in results["checks"] if not c[1]]
    seen = f"facts: {results['facts']}\nmessages: {results['messages'][-10:]}"
    assert not failed, f"{failed}\n{seen}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, done.stderr[-3000:]
    return results


def test_a_long_turn_permission_two_writes_with_unsaved_text_and_review(
    emacs: str, tmp_path: Path
) -> None:
    results = run_emacs(emacs, tmp_path, "acp-test-turns", DEMO_AGENT)
    names = [c[0] for c in results["checks"]]
    assert "the turn outlives Emacs's 10 s request timeout" in names
    assert "each write is one undo step" in names
    assert "the agent saw the unsaved note through the editor server" in names
    assert "reject took back that hunk only, the unsaved note kept" in names


def test_a_second_session_back_to_the_first_and_a_worktree_discarded(
    emacs: str, tmp_path: Path
) -> None:
    results = run_emacs(emacs, tmp_path, "acp-test-sessions", [])  # the built-in demo agent
    names = [c[0] for c in results["checks"]]
    assert "acp.status: the first session is current again" in names
    assert "the transcript shown is the first session's" in names
    assert "the current session's worktree is discarded" in names


def test_a_notice_and_signing_in_from_the_question_then_on_demand(
    emacs: str, tmp_path: Path
) -> None:
    """The demo agent in its terminal-only sign-in (as claude-agent-acp signs in): eglot shows
    the question with the command line; the user runs it and types a name."""
    login = tmp_path / "login.json"
    agent = [*DEMO_AGENT, "--require-login", "--login-file", str(login)]
    results = run_emacs(emacs, tmp_path, "acp-test-sign-in", agent)
    names = [c[0] for c in results["checks"]]
    assert "the command line given ran, Emma typed into it" in names
    assert "the prompt's reply arrives once signed in" in names
    assert "the agent's notice is a message" in names
    assert "acp-editor-sign-in says it is done" in names
    assert json.loads(login.read_text())["name"] == "Noor"  # the second sign-in's


def left_alive(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z":
            alive.append(pid)
    return alive


@pytest.mark.parametrize("scenario", ["acp-test-shutdown", "acp-test-killed"])
def test_nothing_outlives_the_server_with_a_stubborn_agent_and_its_child(
    emacs: str, tmp_path: Path, scenario: str
) -> None:
    results = run_emacs(emacs, tmp_path, scenario, STUBBORN_AGENT)
    pids = results["facts"]["pids"]
    assert len(pids) >= 4  # the sidecar, the agent, its child, the reaper
    wait_until_gone(pids)
    if "shutdown_seconds" in results["facts"]:
        print(f"eglot-shutdown took {results['facts']['shutdown_seconds'] * 1000:.0f} ms")


def wait_until_gone(pids: list[int], timeout: float = 10.0) -> None:
    """Poll /proc: the kernel offers no event for another process's end."""
    deadline = time.monotonic() + timeout
    while left_alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)  # a poll's interval (see the docstring), not a fixed wait
    assert not left_alive(pids), f"still running: {left_alive(pids)}"
    assert all(procs.group_members(pid) == [] for pid in pids)


def test_lsp_mode_a_prompt_a_question_and_a_shutdown_in_time(emacs: str, tmp_path: Path) -> None:
    """lsp-mode 8.0 with the docs' add-on client: the prompt's question in the minibuffer, the
    turn's end, and ``lsp-workspace-shutdown`` answered within its 0.5 s although the agent
    takes longer to end (it was not: "Timeout while sending shutdown request"); nothing
    outlives the server, which lsp-mode kills right after ``exit``."""
    results = run_emacs(emacs, tmp_path, "acp-test-lsp-mode", STUBBORN_AGENT, client="lsp-mode")
    names = [c[0] for c in results["checks"]]
    assert "lsp-mode's shutdown had its answer in time" in names
    assert results["facts"]["shutdown_seconds"] < 0.5
    wait_until_gone(results["facts"]["pids"])


def test_tramp_a_remote_file_s_server_runs_over_ssh_and_its_edit_reaches_the_buffer(
    emacs: str, tmp_path: Path
) -> None:
    """docs/emacs.md's "Remote files over TRAMP": hello.py opened as /ssh:USER@127.0.0.1#PORT:...
    (a real sshd, tests/support/sshd.py), eglot starts the sidecar on the ssh side, and the
    agent's edit arrives in the remote buffer and is saved to the file; nothing started over
    ssh outlives Emacs (the sshd's end checks it)."""
    if unusable() is not None:
        pytest.skip(str(unusable()))
    with running_sshd(tmp_path / "sshd") as sshd:
        results = run_emacs(emacs, tmp_path, "acp-test-tramp", DEMO_AGENT, remote=sshd)
        assert "" in sshd.commands()  # TRAMP's login shell: the sidecar ran in one
    names = [c[0] for c in results["checks"]]
    assert "the agent's edit is in the remote buffer, saved to the file" in names
    assert (tmp_path / "project" / "hello.py").read_text().count('print("edited by the') == 1
