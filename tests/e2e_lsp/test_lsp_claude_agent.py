"""The current claude-agent-acp, which writes the disk and runs commands itself, through LSP with
the file open holding unsaved text: the edit lands in the buffer beside the unsaved text, it is
review with Accept/Reject, rejecting reverts exactly it in the buffer and on disk, the command's
output reaches the editor, and nothing outlives the sidecar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acp_editor.protocol import editor as proto
from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import (
    StepScript,
    call,
    read_edit_shell,
    running_fake_anthropic,
    say,
)
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.own_io import (
    NOTE,
    PROMPT,
    check_asked_and_nothing_landed,
    check_merged_reviewed_rejected_and_closed,
    hello_py,
    opened_with_note,
    reject_the_edit,
)
from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_AGENT_ACP)


async def test_claude_agent_edit_is_merged_reviewed_and_rejected_exactly(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = hello_py(workspace)
    script = read_edit_shell(target, '"hello"', '"hello, world"', "echo marker-$((40 + 2))")
    with running_fake_anthropic(script) as server:
        agent = claude_agent(server.base_url, tmp_path / "home")
        editor = await opened_with_note(editor_factory, agent, features=["terminals"])
        result = await editor.command("acp.prompt", PROMPT)
        assert server.errors == []
        # Claude Code's own tools, not ones routed through the client's fs/terminal.
        offered = {name for r in server.requests for name in r.tool_names}
        assert {"Read", "Edit", "Bash"} <= offered and not any("mcp__acp__" in n for n in offered)
    await check_merged_reviewed_rejected_and_closed(editor, target, result)


async def test_claude_agent_in_a_mode_that_asks_never_edits_what_the_user_refused(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    target = hello_py(workspace)
    script = read_edit_shell(target, '"hello"', '"hello, world"', "echo marker-$((40 + 2))")
    with running_fake_anthropic(script) as server:
        agent = claude_agent(server.base_url, tmp_path / "home", asks=True)
        editor = await opened_with_note(
            editor_factory, agent, features=["terminals"], answer_permission=reject_the_edit
        )
        result = await editor.command("acp.prompt", PROMPT)
        assert server.errors == [] and result["stopReason"] == "end_turn"
    await check_asked_and_nothing_landed(editor, target, "default")


async def test_claude_agent_reads_the_unsaved_buffer_through_the_editor_mcp_server(
    agent_installed: Path, editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    """Claude Code reads the disk itself; through the session's ``editor`` MCP server it sees
    the text the editor holds, unsaved lines included, and the editor's diagnostics."""
    target = hello_py(workspace)
    script = StepScript(
        [
            call("read_buffer", "Let me see what the editor holds.", path=str(target)),
            call("diagnostics", "And what it reports.", path=str(target)),
            say("Seen."),
        ]
    )
    where = {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}}
    reported = {"path": str(target), "range": where, "severity": "warning", "message": "unused"}
    with running_fake_anthropic(script) as server:
        # Its auto mode sends an MCP tool call to a model-run classifier the fake server does
        # not play; the default mode asks the editor instead (which allows it).
        agent = claude_agent(server.base_url, tmp_path / "home", asks=True)
        editor = await opened_with_note(editor_factory, agent, features=["context"])
        editor.client.feature(proto.ACP_DIAGNOSTICS)(lambda _p: {"diagnostics": [reported]})
        result = await editor.command("acp.prompt", "What does the editor hold?")
        assert server.errors == [] and result["stopReason"] == "end_turn"
        offered = {name for r in server.main_requests for name in r.tool_names}
        assert "mcp__editor__read_buffer" in offered, sorted(offered)
        # Each request repeats the conversation so far: one answer per tool use.
        answers = {r.tool_use_id: r for req in server.main_requests for r in req.tool_results()}
    answer, diagnostics = answers.values()
    assert any("read_buffer" in str(asked) for asked in editor.asked), editor.asked
    assert not answer.is_error, answer.text
    assert NOTE.strip() in answer.text  # the unsaved line, which the disk does not have
    one_based = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 5}}
    assert json.loads(diagnostics.text)["diagnostics"] == [{**reported, "range": one_based}]
    assert NOTE.strip() not in target.read_text()
    # Claude Code shows the MCP call as a tool call of its own: that one gets the location,
    # and acp-editor adds none of its own beside it.
    session = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]
    calls = session["toolCalls"]
    assert not [i for i in calls if i.startswith("editor-context-")], calls
    (own,) = [c for c in calls.values() if "mcp__editor__read_buffer" in json.dumps(c)]
    assert own["locations"] == [{"path": str(target)}]
