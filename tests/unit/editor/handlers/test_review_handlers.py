"""Review as the editor asks for it, against fake agents: decisions checked, a reviewed write shown
and rejected, review shown before any agent starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri
from tests.unit.editor.conftest import MakeRig


async def test_review_decide_validates_and_unknown_hunks_are_refused(rig: MakeRig) -> None:
    handlers = rig().side.review_handlers
    with pytest.raises(
        InvalidParams, match=r'^decision: expected "accept" or "reject", got "maybe"$'
    ):
        await handlers.decide({"decision": "maybe", "all": True})
    with pytest.raises(InvalidParams, match=r"^hunkIds\[0\]: expected a string, got 1$"):
        await handlers.decide({"decision": "accept", "hunkIds": [1]})
    with pytest.raises(InvalidParams, match=r"^groupId: expected a string, got 5$"):
        await handlers.files({"groupId": 5})
    with pytest.raises(InvalidParams, match="say which hunks"):
        await handlers.decide({"decision": "accept"})
    with pytest.raises(InvalidParams, match="unknown hunk ids: h9"):
        await handlers.accept_hunk("h9")
    assert await handlers.reject_all() == {"results": []}


async def test_a_reviewed_write_is_a_diagnostic_and_rejecting_reverts_it(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig()
    path = tmp_path / "a.txt"
    path.write_text("one\ntwo\n")
    agent = await r.side.agents.ensure_agent()
    agent.review.queue.record_applied("s1", None, path, "one\ntwo\n", "one\nTWO\n")
    path.write_text("one\nTWO\n")
    await r.editor.settle()
    (diagnostic,) = r.editor.diagnostics[path_to_uri(str(path))]
    assert diagnostic.range.start.line == 1 and diagnostic.source == proto.DIAGNOSTIC_SOURCE
    results = await r.side.review_handlers.reject_file(path_to_uri(str(path)))
    assert [x["state"] for x in results["results"]] == ["rejected"]
    assert path.read_text() == "one\ntwo\n"
    await r.editor.settle()
    assert r.editor.diagnostics[path_to_uri(str(path))] == []


async def test_review_needs_no_agent_and_a_plain_editor_gets_it_again_when_it_opens_a_file(
    rig: MakeRig, tmp_path: Path
) -> None:
    """The queue is the editor side's: a hunk (as one kept from an earlier run) is shown before
    any agent started, and again on didOpen (editors may drop diagnostics of closed files)."""
    r = rig()
    path = tmp_path / "a.txt"
    path.write_text("one\nTWO\n")
    r.side.review_owner().queue.record_applied("s1", None, path, "one\ntwo\n", "one\nTWO\n")
    await r.editor.settle()
    uri = path_to_uri(str(path))
    assert [d.range.start.line for d in r.editor.diagnostics[uri]] == [1]
    assert r.agents.started == []
    del r.editor.diagnostics[uri]
    r.side.review_handlers.did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "text", 1, "one\nTWO\n"))
    )
    await r.editor.settle()
    assert [d.range.start.line for d in r.editor.diagnostics[uri]] == [1]
