"""An agent on another machine over ssh (issue 38), as docs/remote.md's "Recipe: ssh" says:
a real ``sshd`` on 127.0.0.1 (tests/support/sshd.py), the agent started by ``ssh ... 'cd OTHER
&& exec AGENT'`` where OTHER is the workspace at another path (a second path to the same
folder, as a shared or synced folder would be), ``--map-path OTHER=<workspace>`` and
``--command-prefix "ssh ..."``. Its ``fs/*`` edits and the files it writes itself are reviewed
at the editor's paths, and its terminal runs over ssh, in OTHER."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import acp_editor
from acp_editor.demo_agent.scenarios.command_scenarios import SHELL_COMMAND
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor
from tests.support.sshd import Sshd, running_sshd, unusable
from tests.support.starter import SCRIPTED_AGENT_FILE

SOURCES = Path(acp_editor.__file__).resolve().parents[1]
ALL = list(proto.FEATURES)

pytestmark = pytest.mark.skipif(unusable() is not None, reason=str(unusable()))


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[Sshd]:
    """Requested before ``editor_factory``, so it ends after the editors: then every session
    must have ended by itself (the agent once its pipe closed), else the test fails."""
    with running_sshd(tmp_path / "sshd") as server:
        yield server


@pytest.fixture
def other(workspace: Path, tmp_path: Path) -> Path:
    """Where the far side sees the workspace; the agent is told only this path."""
    remote_home = tmp_path / "remote home"  # a space: the remote command line must quote it
    remote_home.mkdir()
    (remote_home / "project").symlink_to(workspace)
    return remote_home / "project"


def agent_over_ssh(sshd: Sshd, other: Path, *flags: str) -> list[str]:
    """The recipe's agent command: ssh runs one shell line there, which enters OTHER first."""
    agent = shlex.join([sys.executable, str(SCRIPTED_AGENT_FILE), "--fast", *flags])
    sources = shlex.quote(str(SOURCES))  # a worktree's sources, not the venv's checkout
    return [*sshd.ssh(), f"cd {shlex.quote(str(other))} && PYTHONPATH={sources} exec {agent}"]


async def start(
    editor_factory: StartEditor, sshd: Sshd, other: Path, workspace: Path, *flags: str, **kw: Any
) -> Editor:
    args = ("--map-path", f"{other}={workspace}", "--command-prefix", sshd.ssh_line())
    return await editor_factory(agent=agent_over_ssh(sshd, other, *flags), server_args=args, **kw)


async def review(editor: Editor) -> dict[str, dict[str, Any]]:
    picture = await editor.request(proto.ACP_SNAPSHOT, {})
    return {h["path"]: h for h in picture["review"]}


async def test_an_agent_over_ssh_edits_the_editor_s_files_through_the_pair(
    sshd: Sshd, editor_factory: StartEditor, workspace: Path, other: Path
) -> None:
    editor = await start(editor_factory, sshd, other, workspace)
    await editor.command("acp.prompt", "hunks")  # fs/write_text_file at OTHER/hello.py
    hunks = await review(editor)
    assert set(hunks) == {str(workspace / "hello.py")}
    assert str(other) not in str(hunks)
    (agent,) = sshd.commands()
    assert agent.startswith(f"cd {shlex.quote(str(other))} && ")


async def test_what_an_agent_over_ssh_writes_itself_is_reviewed_as_the_editor_s_files(
    sshd: Sshd, editor_factory: StartEditor, workspace: Path, other: Path
) -> None:
    (workspace / "hello.py").write_text('print("hello world")\n')  # the command changes it
    (workspace / "NOTES.md").write_text("# notes\n")  # and deletes this
    editor = await start(editor_factory, sshd, other, workspace, "--writes-itself")
    await editor.command("acp.prompt", "files")  # one command: changes, makes and deletes
    assert (workspace / "MADE.txt").read_text() == "made by a command\n"
    hunks = await review(editor)
    assert set(hunks) == {str(workspace / n) for n in ("hello.py", "MADE.txt", "NOTES.md")}
    result = await editor.command("acp.rejectHunk", hunks[str(workspace / "MADE.txt")]["hunkId"])
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert not (workspace / "MADE.txt").exists()


async def test_a_terminal_of_an_agent_over_ssh_runs_over_ssh_in_its_folder(
    sshd: Sshd, editor_factory: StartEditor, workspace: Path, other: Path
) -> None:
    """The rich editor sees the command's output; sshd saw it run, entering OTHER first."""
    editor = await start(editor_factory, sshd, other, workspace, features=ALL)
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "shell"})
    assert result["stopReason"] == "end_turn"
    output = "".join(n["data"] for n in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "hello from the demo agent" in output and "hello.py" in output
    assert editor.of(proto.ACP_TERMINAL_EXIT)[0]["exitStatus"]["exitCode"] == 0
    _, terminal = sshd.commands()  # the agent's, then the terminal's
    assert terminal.startswith(f"cd {shlex.quote(str(other))} && ")
    assert terminal.endswith(SHELL_COMMAND)
