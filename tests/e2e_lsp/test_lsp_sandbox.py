"""An agent in a bubblewrap sandbox that sees the workspace only at ``/workspace`` (issue 38):
with ``--map-path /workspace=<the editor's folder>`` its session opens there, its ``fs/*``
writes and the files it writes itself are reviewed as the editor's files, the editor follows
its locations and previews its diffs at the editor's paths, its terminals run in a sandbox
of their own through ``--command-prefix`` (none offered without one), and a session in a
folder no pair holds is refused."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import acp_editor
from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.e2e_lsp.test_lsp_checkpoints import undo_when_asked
from tests.support.lsp import Editor, wait_until
from tests.support.starter import SCRIPTED_AGENT_FILE

SOURCES = Path(acp_editor.__file__).resolve().parents[1]
ALL = list(proto.FEATURES)


def sandboxed(*agent: str, extra: Sequence[str] = ()) -> list[str]:
    """``agent`` in a sandbox whose file system is the system's programs, Python and our
    sources read-only, an empty /tmp, and the workspace at /workspace: the editor's path of it
    does not exist there. ``extra``: more bwrap arguments (what else the agent needs bound)."""
    ro = ["/usr", "/etc", "/bin", "/lib", "/lib64", sys.base_prefix, sys.prefix, str(SOURCES)]
    binds = [a for p in dict.fromkeys(ro) if Path(p).exists() for a in ("--ro-bind", p, p)]
    return [  # /tmp first: the sources may be below it (a worktree), bound after
        "bwrap", "--tmpfs", "/tmp", *binds, "--bind", "{workspace}", "/workspace",
        "--proc", "/proc", "--dev", "/dev", "--chdir", "/workspace", "--die-with-parent",
        "--setenv", "PYTHONPATH", str(SOURCES), *extra, "--", *agent,
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


def placed(argv: list[str], workspace: Path) -> list[str]:
    return [a.replace("{workspace}", str(workspace)) for a in argv]


async def test_the_editor_follows_previews_and_runs_commands_where_the_agent_is(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """A rich editor: the location to follow and the diff are the editor's paths, and the
    command runs through the prefix in a sandbox of its own, in /workspace (``cd`` to the
    editor's path would fail there: that path does not exist inside)."""
    agent = placed(sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast"), workspace)
    prefix = shlex.join(placed(sandboxed("sh", "-c"), workspace))
    pair = f"/workspace={workspace}"
    editor = await editor_factory(
        agent=agent, features=ALL, server_args=("--map-path", pair, "--command-prefix", prefix)
    )
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "read edit shell"})
    assert result["stopReason"] == "end_turn"
    follows = editor.of(proto.ACP_FOLLOW)
    assert follows and follows[0]["uri"] == editor.uri("hello.py")
    (diff,) = {d["toolCallId"]: d for d in editor.of(proto.ACP_DIFF)}.values()
    assert diff["newText"] == HELLO + EDIT_LINE
    output = "".join(n["data"] for n in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "hello from the demo agent" in output and "hello.py" in output
    assert editor.of(proto.ACP_TERMINAL_EXIT)[0]["exitStatus"]["exitCode"] == 0


async def test_without_a_command_prefix_an_agent_elsewhere_gets_no_terminals(
    editor_factory: StartEditor, workspace: Path
) -> None:
    agent = placed(sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast"), workspace)
    pair = f"/workspace={workspace}"
    editor = await editor_factory(agent=agent, features=ALL, server_args=("--map-path", pair))
    await editor.request(proto.ACP_PROMPT, {"prompt": "shell"})
    assert editor.of(proto.ACP_TERMINAL_OUTPUT) == []
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {})
    assert "does not offer terminal" in str(snapshot["sessions"])


async def test_the_editor_context_server_reaches_a_sandboxed_agent_over_its_connection(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """The socket of the editor-context server is not in the sandbox: it is offered over ACP
    itself, its answers name the agent's paths, and the agent's calls with them are read as the
    editor's (a path refused as outside the session would fail the look)."""
    agent = placed(sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast"), workspace)
    pair = f"/workspace={workspace}"
    editor = await editor_factory(
        agent=agent, features=["stream"], server_args=("--map-path", pair)
    )
    editor.open("hello.py", HELLO + "# not saved yet\n")
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "look"})
    assert result["stopReason"] == "end_turn"
    session = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    said = "".join(
        block["text"]
        for e in session["entries"]
        if e.get("kind") == "message" and e.get("role") == "agent"
        for block in e["content"]
    )
    assert "1 with unsaved changes" in said and "# not saved yet" in said, said
    shown = [(c["title"], c["status"]) for c in session["toolCalls"].values()]
    assert shown == [
        ("Editor: open buffers", "completed"),
        ("Editor: read hello.py (5 lines)", "completed"),
    ]


async def test_undoing_a_sandboxed_agent_s_turn_puts_the_editor_s_files_back(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """The turn's checkpoint is of the editor's folder: undo puts back what the agent's own
    command changed, made and deleted there through the mount, unsaved text kept."""
    hello = 'print("hello world")\n\n\n# the end\n'
    (workspace / "hello.py").write_text(hello)
    (workspace / "NOTES.md").write_text("# notes\n")
    agent = placed(
        sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast", "--writes-itself"), workspace
    )
    editor = await editor_factory(
        agent=agent,
        server_args=("--map-path", f"/workspace={workspace}"),
        answer_permission=undo_when_asked,
    )
    editor.open("hello.py", hello + "# typed, not saved\n")
    await editor.command("acp.prompt", "files")
    assert (workspace / "MADE.txt").exists() and not (workspace / "NOTES.md").exists()
    result = await editor.command("acp.restoreCheckpoint")
    assert result["done"] is True
    assert sorted(Path(p).name for p in result["restored"]) == ["MADE.txt", "NOTES.md", "hello.py"]
    assert (workspace / "hello.py").read_text() == hello
    assert (workspace / "NOTES.md").read_text() == "# notes\n"
    assert not (workspace / "MADE.txt").exists()
    await wait_until(lambda: editor.text("hello.py") == hello + "# typed, not saved\n")


async def test_an_editor_s_agent_setting_says_where_its_agent_sees_the_folder(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """``initializationOptions.acp.agents`` takes the same keys as agents.toml: a second agent
    in the sandbox, its pair and its command prefix, beside the server's own agent (not
    mapped) in the same sidecar."""
    boxed = {
        "command": placed(sandboxed(sys.executable, str(SCRIPTED_AGENT_FILE), "--fast"), workspace),
        "map_paths": [f"/workspace={workspace}"],
        "command_prefix": placed(sandboxed("sh", "-c"), workspace),
    }
    editor = await editor_factory(
        init_options={"acp": {"features": ALL, "agents": {"boxed": boxed}}}
    )
    sid = (await editor.request(proto.ACP_NEW_SESSION, {"agent": "boxed"}))["sessionId"]
    result = await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "edit shell"})
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE
    output = "".join(n["data"] for n in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "hello from the demo agent" in output and "hello.py" in output
    own = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    assert (await editor.request(proto.ACP_PROMPT, {"sessionId": own, "prompt": "read"}))[
        "stopReason"
    ] == "end_turn"
