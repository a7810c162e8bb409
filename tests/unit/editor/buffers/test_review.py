"""Review placed in the editor's buffers (``EditorReview``), against a fake editor: a rich editor
gets ``acp/reviewChanged``, a plain one diagnostics that follow the user's typing and code actions
for the hunk under the cursor."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto
from acp_editor.text.positions import path_to_uri
from tests.support.lsp import wait_until
from tests.unit.editor.conftest import MakeRig, Rig

BEFORE = "one\ntwo\nthree\n"
AFTER = "one\nTWO\nthree\n"


async def reviewed(r: Rig, path: Path) -> str:
    """An agent's change of line 2 of ``path``, pending review; the file's URI."""
    path.write_text(AFTER)
    r.side.review_owner().queue.record_applied("s1", "call1", path, BEFORE, AFTER)
    await r.editor.settle()
    return path_to_uri(str(path))


def actions_at(r: Rig, uri: str, line: int, *given: lsp.Diagnostic) -> list[str]:
    where = lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0))
    params = lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), where, lsp.CodeActionContext(list(given))
    )
    return [a.title for a in r.side.review.code_actions(params)]


async def test_a_rich_editor_gets_the_hunks_and_no_diagnostics(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig(proto.FEATURE_REVIEW)
    uri = await reviewed(r, tmp_path / "a.txt")
    ((hunk,),) = [note["hunks"] for note in r.editor.notes_of(proto.ACP_REVIEW_CHANGED)]
    assert (hunk["uri"], hunk["oldLines"], hunk["newLines"]) == (uri, ["two"], ["TWO"])
    assert hunk["range"]["start"]["line"] == 1 and hunk["toolCallId"] == "call1"
    assert uri not in r.editor.diagnostics


async def test_a_plain_editor_gets_a_diagnostic_that_follows_the_users_typing(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig()
    uri = await reviewed(r, tmp_path / "a.txt")
    (diagnostic,) = r.editor.diagnostics[uri]
    assert diagnostic.range.start.line == 1 and diagnostic.code is not None
    assert diagnostic.message == "Agent change (+1 -1), pending review"
    r.editor.documents[uri] = TextDocument(uri, "typed\nabove\n" + AFTER, version=2)
    r.side.review.text_changed(uri)
    await wait_until(lambda: r.editor.diagnostics[uri][0].range.start.line == 3)


async def test_the_cursor_on_a_hunks_line_offers_that_hunk(rig: MakeRig, tmp_path: Path) -> None:
    r = rig()
    uri = await reviewed(r, tmp_path / "a.txt")
    r.editor.documents[uri] = TextDocument(uri, AFTER, version=1)
    on_file = ["Accept all in file", "Reject all in file"]
    assert actions_at(r, uri, 1) == ["Accept hunk", "Reject hunk", *on_file]
    assert actions_at(r, uri, 0) == on_file
    (diagnostic,) = r.editor.diagnostics[uri]
    assert actions_at(r, uri, 0, diagnostic) == ["Accept hunk", "Reject hunk", *on_file]
    assert actions_at(r, path_to_uri(str(tmp_path / "other.txt")), 1) == []


async def test_deciding_a_file_answers_after_the_editor_was_shown_the_outcome(
    rig: MakeRig, tmp_path: Path
) -> None:
    r = rig()
    uri = await reviewed(r, tmp_path / "a.txt")
    answer = await r.side.review.decide(True, uri=uri)
    assert [x["state"] for x in answer["results"]] == ["accepted"]
    assert r.editor.diagnostics[uri] == []  # before the answer: no stale hunk is left
    assert (tmp_path / "a.txt").read_text() == AFTER


async def test_a_decision_must_say_which_hunks(rig: MakeRig) -> None:
    review = rig().side.review
    with pytest.raises(InvalidParams, match="not a file URI"):
        await review.decide(True, uri="https://example.com/a.txt")
    with pytest.raises(InvalidParams, match="say which hunks"):
        await review.decide(False)
    assert await review.decide(False, everything=True) == {"results": []}
