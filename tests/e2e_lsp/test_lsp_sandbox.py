"""An agent in a bubblewrap sandbox that sees the workspace only at ``/workspace`` (issue 38):
with ``--map-path /workspace=<the editor's folder>`` its session opens there, its ``fs/*``
writes and the files it writes itself are reviewed as the editor's files, and what it asks of
a path outside the pair is refused. Without the pair it cannot even open its session."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import acp_editor
from tests.e2e_lsp.conftest import HELLO, StartEditor
from tests.support.lsp import Editor
from tests.support.starter import SCRIPTED_AGENT_FILE

SOURCES = Path(acp_editor.__file__).resolve().parents[1]


def sandboxed(*agent: str) -> list[str]:
    """``agent`` in a sandbox whose file system is the system's programs, Python and our
    sources read-only, an empty /tmp, and the workspace at /workspace: the editor's path of it
    does not exist there."""
    ro = ["/usr", "/etc", "/bin", "/lib", "/lib64", sys.base_prefix, sys.prefix, str(SOURCES)]
    binds = [a for p in dict.fromkeys(ro) if Path(p).exists() for a in ("--ro-bind", p, p)]
    return [  # /tmp first: the sources may be below it (a worktree), bound after
        "bwrap", "--tmpfs", "/tmp", *binds, "--bind", "{workspace}", "/workspace",
        "--proc", "/proc", "--dev", "/dev", "--chdir", "/workspace", "--die-with-parent",
        "--setenv", "PYTHONPATH", str(SOURCES), "--", *agent,
    ]  # fmt: skip


def bwrap_works() -> bool:
    if shutil.which("bwrap") is None:
        return False
    probe = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


pytestmark = pytest.mark.skipif(
    not bwrap_works(),
    reason="bubblewrap missing or unusable (scripts/remote-test-deps installs it)",
)


async def start(
    editor_factory: StartEditor, workspace: Path, *flags: str, pair: bool = True
) -> Editor:
    agent = [
        a.replace("{workspace}", str(workspace))
        for a in sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast", *flags)
    ]
    args = ("--map-path", f"/workspace={workspace}") if pair else ()
    return await editor_factory(agent=agent, server_args=args)


async def review(editor: Editor) -> dict[str, dict[str, Any]]:
    picture = await editor.request("acp/snapshot", {})
    return {h["path"]: h for h in picture["review"]}


async def test_an_agent_in_a_sandbox_edits_the_editor_s_files_through_the_pair(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await start(editor_factory, workspace)
    await editor.command("acp.prompt", "hunks")  # fs/write_text_file at /workspace/hello.py
    hunks = await review(editor)
    assert set(hunks) == {str(workspace / "hello.py")}
    assert "/workspace" not in str(hunks)


async def test_what_a_sandboxed_agent_writes_itself_is_reviewed_as_the_editor_s_files(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text('print("hello world")\n')  # the command changes it
    (workspace / "NOTES.md").write_text("# notes\n")  # and deletes this
    editor = await start(editor_factory, workspace, "--writes-itself")
    await editor.command("acp.prompt", "files")  # a command that changes, makes and deletes
    assert (workspace / "MADE.txt").read_text() == "made by a command\n"
    hunks = await review(editor)
    assert set(hunks) == {str(workspace / n) for n in ("hello.py", "MADE.txt", "NOTES.md")}
    result = await editor.command("acp.rejectHunk", hunks[str(workspace / "MADE.txt")]["hunkId"])
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert not (workspace / "MADE.txt").exists()


async def test_a_folder_no_pair_holds_is_refused_with_how_to_fix_it(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    """The agent would be told a folder it cannot see: the session is not opened, and the
    message names the pairs and the one to add."""
    agent = [
        a.replace("{workspace}", str(workspace))
        for a in sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast")
    ]
    other = tmp_path / "other"
    editor = await editor_factory(agent=agent, server_args=("--map-path", f"/workspace={other}"))
    with pytest.raises(Exception, match="no --map-path pair holds it") as failed:
        await editor.command("acp.prompt", "hunks")
    assert f"/workspace={other}" in str(failed.value)
    assert f"AGENT_PATH={workspace}" in str(failed.value)
    assert (workspace / "hello.py").read_text() == HELLO  # nothing was written
