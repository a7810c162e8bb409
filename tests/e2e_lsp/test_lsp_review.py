"""Review: every agent edit becomes hunks that can be accepted or rejected one by one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import EDIT_LINE, StartEditor
from tests.support.lsp import Editor, wait_until

# Three lines, so the two hunks of the `hunks` scenario (first line, end) are apart.
ORIGINAL = 'def greet(name):\n    return f"Hello, {name}!"\n\n\nprint(greet("world"))\n'
MARK = "  # reviewed by the demo agent"
FIRST = "def greet(name):" + MARK + "\n"
AGENT_TEXT = FIRST + ORIGINAL.split("\n", 1)[1] + EDIT_LINE


def review_diagnostics(editor: Editor, name: str) -> list[lsp.Diagnostic]:
    return [d for d in editor.client.diagnostics.get(editor.uri(name), []) if d.source == "acp"]


async def code_action(editor: Editor, name: str, line: int, title: str) -> dict[str, Any]:
    diagnostics = [
        d
        for d in review_diagnostics(editor, name)
        if d.range.start.line <= line <= d.range.end.line
    ]
    actions = await editor.client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=editor.uri(name)),
            range=lsp.Range(start=lsp.Position(line, 0), end=lsp.Position(line, 0)),
            context=lsp.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert isinstance(actions, list)
    titles = [a["title"] for a in actions]
    assert {"Accept all in file", "Reject all in file"} <= set(titles)
    chosen: dict[str, Any] = next(a for a in actions if a["title"] == title)
    assert chosen["kind"] == "quickfix"
    return dict(chosen["command"])


async def run_command(editor: Editor, command: dict[str, Any]) -> Any:
    return await editor.command(command["command"], *command.get("arguments", []))


async def test_diagnostics_mark_each_hunk_and_reject_reverts_exactly_one(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory()
    await editor.command("acp.prompt", "hunks")
    assert (workspace / "hello.py").read_text() == AGENT_TEXT
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == 2)
    first, second = sorted(review_diagnostics(editor, "hello.py"), key=lambda d: d.range.start.line)
    assert first.severity == lsp.DiagnosticSeverity.Information and first.range.start.line == 0
    assert second.range.start.line == 5  # the appended line
    reject = await code_action(editor, "hello.py", 5, "Reject hunk")
    result = await run_command(editor, reject)
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert (workspace / "hello.py").read_text() == FIRST + ORIGINAL.split("\n", 1)[1]
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == 1)
    accept = await code_action(editor, "hello.py", 0, "Accept hunk")
    await run_command(editor, accept)
    await wait_until(lambda: review_diagnostics(editor, "hello.py") == [])
    assert (workspace / "hello.py").read_text() == FIRST + ORIGINAL.split("\n", 1)[1]


async def test_the_same_lines_edited_twice_are_one_hunk_and_rejecting_it_restores_them(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """Two turns edit the first line twice (and append a line each): the second edit of the
    first line supersedes the first's hunk instead of leaving it unfindable."""
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory()
    await editor.command("acp.prompt", "hunks")
    await editor.command("acp.prompt", "hunks")
    picture = await editor.request("acp/snapshot", {})
    pending = [h for h in picture["review"] if h["state"] == "pending"]
    assert len(pending) == 2, pending  # the first line's hunk, the appended lines' hunk
    (top,) = [h for h in pending if h["oldLines"]]
    assert top["oldLines"] == [ORIGINAL.split("\n", 1)[0]]  # against the original line
    # Every pending hunk can be found in the file: each is a diagnostic.
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == len(pending))
    reject = await code_action(editor, "hello.py", 0, "Reject hunk")
    await run_command(editor, reject)
    assert (workspace / "hello.py").read_text().split("\n", 1)[0] == ORIGINAL.split("\n", 1)[0]


async def test_users_own_edit_between_hunks_survives_a_reject_in_the_open_buffer(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory()
    editor.open("hello.py", ORIGINAL)
    await editor.command("acp.prompt", "hunks")
    assert editor.text("hello.py") == AGENT_TEXT
    # The user types between the two hunks (and adds a line above, shifting everything).
    edited = "# user line\n" + AGENT_TEXT.replace("\n\n\n", "\n\n# user comment\n\n")
    uri = editor.uri("hello.py")
    version = editor.docs[uri][1] + 1
    editor.docs[uri] = (edited, version)
    editor.client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )

    def lines() -> list[int]:
        return sorted(d.range.start.line for d in review_diagnostics(editor, "hello.py"))

    await wait_until(lambda: lines() == [1, 7], timeout=30)  # they follow the shifted lines
    result = await editor.command("acp.rejectHunk", _hunk_at(editor, "hello.py", 7))
    assert result["results"][0]["state"] == "rejected"
    expected = edited.replace(EDIT_LINE, "")
    assert editor.text("hello.py") == expected  # the first hunk and the user's lines are kept
    # On disk exactly that hunk is reverted; the user's unsaved lines are not written for them.
    assert (workspace / "hello.py").read_text() == AGENT_TEXT.replace(EDIT_LINE, "")
    assert editor.edits[-1]["label"]  # the revert went through workspace/applyEdit


def _hunk_at(editor: Editor, name: str, line: int) -> str:
    (diagnostic,) = [d for d in review_diagnostics(editor, name) if d.range.start.line == line]
    assert isinstance(diagnostic.data, dict)
    return str(diagnostic.data["hunkId"])


async def test_agent_that_writes_to_disk_itself_is_reviewed_too(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(agent_flags=("--writes-itself",), features=["stream", "review"])
    result = await editor.request(proto.ACP_PROMPT, {"prompt": "hunks"})
    assert (workspace / "hello.py").read_text() == AGENT_TEXT
    await wait_until(lambda: len(editor.of(proto.ACP_REVIEW_CHANGED)) >= 1)
    hunks = {h["hunkId"]: h for n in editor.of(proto.ACP_REVIEW_CHANGED) for h in n["hunks"]}
    assert len(hunks) == 2 and all(h["applied"] and h["state"] == "pending" for h in hunks.values())
    first, second = sorted(hunks.values(), key=lambda h: h["range"]["start"]["line"])
    assert first["newLines"] == [FIRST.rstrip("\n")] and second["newLines"] == [
        EDIT_LINE.rstrip("\n")
    ]
    assert second["toolCallId"]  # attributed to the agent's tool call
    accepted = await editor.request(
        proto.ACP_REVIEW_DECIDE, {"decision": "accept", "hunkIds": [first["hunkId"]]}
    )
    rejected = await editor.request(
        proto.ACP_REVIEW_DECIDE, {"decision": "reject", "hunkIds": [second["hunkId"]]}
    )
    assert (
        accepted["results"][0]["state"] == "accepted"
        and rejected["results"][0]["state"] == "rejected"
    )
    assert (workspace / "hello.py").read_text() == FIRST + ORIGINAL.split("\n", 1)[1]
    snapshot = await editor.request(proto.ACP_SNAPSHOT, {"sessionId": result["sessionId"]})
    assert {h["hunkId"]: h["state"] for h in snapshot["review"]} == {
        first["hunkId"]: "accepted",
        second["hunkId"]: "rejected",
    }


async def test_review_before_write_holds_the_write_until_decided(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(
        features=["stream", "review"], server_args=("--review", "before-write")
    )
    turn = asyncio.ensure_future(editor.request(proto.ACP_PROMPT, {"prompt": "hunks"}))
    await wait_until(lambda: bool(editor.of(proto.ACP_REVIEW_CHANGED)), 15)
    assert (workspace / "hello.py").read_text() == ORIGINAL  # held: nothing written yet
    hunks = sorted(
        editor.of(proto.ACP_REVIEW_CHANGED)[0]["hunks"], key=lambda h: h["range"]["start"]["line"]
    )
    assert all(not h["applied"] for h in hunks)
    await editor.request(
        proto.ACP_REVIEW_DECIDE, {"decision": "accept", "hunkIds": [hunks[0]["hunkId"]]}
    )
    assert not turn.done()  # still waiting for the second hunk
    await editor.request(
        proto.ACP_REVIEW_DECIDE, {"decision": "reject", "hunkIds": [hunks[1]["hunkId"]]}
    )
    result = await asyncio.wait_for(turn, 15)
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == FIRST + ORIGINAL.split("\n", 1)[1]
    changes = [c for n in editor.of(proto.ACP_SESSION_CHANGED) for c in n["changes"]]
    failed = [c for c in changes if c["type"] == "tool_call" and c["set"].get("status") == "failed"]
    assert failed, "the agent was told part of its write was rejected"
    assert "rejected 1 of 2" in json.dumps(failed[-1])


async def test_the_agent_is_told_what_was_rejected(
    editor_factory: StartEditor, workspace: Path, tmp_path: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    record = tmp_path / "agent.jsonl"
    editor = await editor_factory(
        agent_flags=("--record", str(record)), init_options={"acp": {"tellAgentRejections": True}}
    )
    await editor.command("acp.prompt", "hunks")
    await wait_until(lambda: len(review_diagnostics(editor, "hello.py")) == 2)
    await editor.command("acp.rejectAll")
    assert (workspace / "hello.py").read_text() == ORIGINAL
    await editor.command("acp.prompt", "hello")
    prompts = [
        json.loads(line)["params"]["prompt"]
        for line in record.read_text().splitlines()
        if json.loads(line).get("method") == "session/prompt"
    ]
    assert "rejected" in prompts[-1][0]["text"] and "hello.py" in prompts[-1][0]["text"]
    assert "rejected" not in json.dumps(prompts[0])


async def test_rich_review_ranges_follow_the_users_edits(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "hello.py").write_text(ORIGINAL)
    editor = await editor_factory(features=["stream", "review"])
    editor.open("hello.py", ORIGINAL)
    await editor.request(proto.ACP_PROMPT, {"prompt": "hunks"})
    await wait_until(lambda: bool(editor.of(proto.ACP_REVIEW_CHANGED)))

    def latest() -> dict[str, dict[str, Any]]:
        views: dict[str, dict[str, Any]] = {}
        for note in editor.of(proto.ACP_REVIEW_CHANGED):
            views.update({h["hunkId"]: h for h in note["hunks"]})
        return views

    # Placed right away, even before the editor reported the applied edit.
    assert sorted(h["range"]["start"]["line"] for h in latest().values()) == [0, 5]
    uri = editor.uri("hello.py")
    edited = "# one\n# two\n" + editor.text("hello.py")
    version = editor.docs[uri][1] + 1
    editor.docs[uri] = (edited, version)
    editor.client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    await wait_until(
        lambda: sorted(h["range"]["start"]["line"] for h in latest().values()) == [2, 7]
    )
    first = min(latest().values(), key=lambda h: h["range"]["start"]["line"])
    await editor.request(
        proto.ACP_REVIEW_DECIDE, {"decision": "reject", "hunkIds": [first["hunkId"]]}
    )
    await wait_until(lambda: latest()[first["hunkId"]]["state"] == "rejected")
    (other,) = [h for h in latest().values() if h["hunkId"] != first["hunkId"]]
    assert other["state"] == "pending" and other["range"]["start"]["line"] == 7
