"""The bubblewrap recipe of docs/remote.md with a real agent (issue 38): the current
claude-agent-acp, which reads, edits and runs commands itself, in a sandbox that sees the
workspace only at ``/workspace``, run offline against the fake Anthropic server on loopback (the
network is shared, so the sandbox reaches it). With ``--map-path /workspace=<the editor's
folder>`` the file it edits through the mount is followed, previewed and reviewed as the
editor's file, merged into the open buffer beside its unsaved text and rejected exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.protocol import editor as proto
from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import read_edit_shell, running_fake_anthropic
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.own_io import (
    PROMPT,
    check_merged_reviewed_rejected_and_closed,
    hello_py,
    opened_with_note,
)
from tests.e2e_lsp.test_lsp_sandbox import bwrap_works, placed, sandboxed
from tests.support.npm import CLAUDE_AGENT_ACP, cache_dir_for, ensure_npm_package, requires_npm

pytestmark = [
    requires_npm,
    pytest.mark.skipif(
        not bwrap_works(),
        reason="bubblewrap missing or unusable (scripts/remote-test-deps installs it)",
    ),
]


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_AGENT_ACP)


def in_the_sandbox(argv: list[str], home: Path, workspace: Path) -> list[str]:
    """The agent's own command inside the recipe's sandbox, with read-only binds of what it
    needs beyond the system's programs: node's installation, the agent's npm install (its
    Claude Code binary included) and the throwaway home holding its settings."""
    node = Path(argv[0]).resolve().parents[1]  # /usr for /usr/bin/node, a prefix for nvm
    needs = [str(node), str(cache_dir_for(CLAUDE_AGENT_ACP)), str(home)]
    binds = [a for p in dict.fromkeys(needs) for a in ("--ro-bind", p, p)]
    return placed(sandboxed(*argv, extra=binds), workspace)


async def test_a_sandboxed_claude_agent_s_own_edit_is_reviewed_as_the_editor_s_file(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = hello_py(workspace)
    # The model names the file where the agent sees it, and the command says where it runs.
    inside = "/workspace/hello.py"
    script = read_edit_shell(inside, '"hello"', '"hello, world"', 'echo "marker-42 in $PWD"')
    with running_fake_anthropic(script) as server:
        home = tmp_path / "home"
        argv, env = claude_agent(server.base_url, home)
        editor = await opened_with_note(
            editor_factory,
            (in_the_sandbox(argv, home, workspace), env),
            features=["terminals", "follow", "diffs"],
            server_args=("--map-path", f"/workspace={workspace}"),
        )
        result = await editor.command("acp.prompt", PROMPT)
        assert server.errors == []
    output = "".join(p["data"] for p in editor.of(proto.ACP_TERMINAL_OUTPUT))
    assert "marker-42 in /workspace" in output, output  # it ran in the sandbox, at its path
    # Followed, previewed and reviewed at the editor's path, never at the agent's.
    follows, diffs = editor.of(proto.ACP_FOLLOW), editor.of(proto.ACP_DIFF)
    assert follows and {f["uri"] for f in follows} == {editor.uri("hello.py")}, follows
    assert diffs and {d["path"] for d in diffs} == {str(target)}, diffs
    review = (await editor.request(proto.ACP_SNAPSHOT, {}))["review"]
    assert [h["path"] for h in review] == [str(target)], review
    assert "/workspace" not in str([follows, diffs, review])
    await check_merged_reviewed_rejected_and_closed(editor, target, result)
