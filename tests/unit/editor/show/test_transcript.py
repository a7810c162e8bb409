"""The live Markdown transcript of plugin-less editors: what it says of a session, and the file
itself (read-only, in the state directory, rewritten shortly after changes while someone asked
for it, never for sessions nobody asked about)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from acp_editor.editor.show import transcript
from acp_editor.editor.show.transcript import Transcripts, path_for, render
from acp_editor.session.state import SessionState
from tests.support.lsp import wait_until


def text(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words}


def session(*updates: dict[str, Any], prompt: str | None = "Fix the bug") -> SessionState:
    state = SessionState("s1", 1)
    if prompt is not None:
        state.add_user_prompt([text(prompt)])
    for update in updates:
        state.apply_update(update)
    return state


def test_a_turn_reads_as_headings_quotes_and_one_line_per_tool_call() -> None:
    state = session(
        {"sessionUpdate": "agent_thought_chunk", "content": text("look first\nthen act")},
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "c1",
            "title": "Read a.py",
            "status": "completed",
        },
        {"sessionUpdate": "tool_call", "toolCallId": "c2", "kind": "edit", "status": "in_progress"},
        {"sessionUpdate": "agent_message_chunk", "content": text("Done.")},
    )
    # Blank lines collapsed: Markdown reads one blank line as it reads two.
    assert re.sub(r"\n{3,}", "\n\n", render(state)) == "\n".join(
        [
            "# acp-editor: session s1",
            "",
            "_Kept up to date by acp-editor while the agent works; read-only._",
            "",
            "## You",
            "",
            "Fix the bug",
            "",
            "## Agent",
            "",
            "> look first",
            "> then act",
            "",
            "- ✓ Read a.py (completed)",
            "- … edit (in_progress)",
            "",
            "Done.",
            "",
        ]
    )


def test_a_failed_tool_call_says_why_on_its_line() -> None:
    failure = {"type": "content", "content": text("permission denied\nwhile writing")}
    state = session(
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "c1",
            "title": "Write\na.py",
            "status": "failed",
            "content": [failure],
        },
        prompt=None,
    )
    assert "- ✗ Write a.py (failed): permission denied while writing" in render(state)


def test_a_session_id_is_a_safe_file_name(tmp_path: Path) -> None:
    assert path_for("../../etc/passwd", tmp_path) == tmp_path / ".._.._etc_passwd.md"
    assert path_for("", tmp_path) == tmp_path / "session.md"


async def test_the_file_is_read_only_and_follows_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transcript, "WRITE_DELAY", 0.01)
    states = {"s1": session()}
    transcripts = Transcripts(states.get, tmp_path)
    transcripts.changed("s1")  # nobody asked yet: nothing is written
    assert list(tmp_path.iterdir()) == []
    path = transcripts.open("s1")
    assert path == tmp_path / "s1.md" and "Fix the bug" in path.read_text()
    assert path.stat().st_mode & 0o777 == 0o444
    states["s1"].apply_update({"sessionUpdate": "agent_message_chunk", "content": text("On it")})
    transcripts.changed("s1")
    await wait_until(lambda: "On it" in path.read_text())
    assert [p.name for p in tmp_path.iterdir()] == ["s1.md"]  # no temporary file left behind
    transcripts.close()


def test_a_write_that_fails_does_not_stop_the_session(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    transcripts = Transcripts({"s1": session()}.get, blocked / "transcripts")
    transcripts.open("s1")  # logged, not raised
    assert "could not write the transcript" in caplog.text
    transcripts.write("unknown")  # a session nobody asked about: nothing to do


def test_a_prompt_reads_as_its_text_with_each_attachment_on_a_line_of_its_own() -> None:
    state = SessionState("s1", 1)
    hello = "file:///w/hello.py"
    state.add_user_prompt(
        [
            text("explain @hello.py"),
            {"type": "resource_link", "uri": hello, "name": "hello.py"},
            {"type": "resource", "resource": {"uri": hello, "text": "print(1)\n"}},
            text("Problems the editor reports in hello.py:\n- hello.py:1:1 error: no"),
            {
                "type": "resource_link",
                "uri": "https://example.com/x",
                "name": "https://example.com/x",
            },
        ]
    )
    shown = render(state)
    assert (
        "\n".join(
            [
                "## You",
                "",
                "explain @hello.py",
                "",
                "Attached:",
                "- file [hello.py](<file:///w/hello.py>)",
                "- text “Problems the editor reports in hello.py:” (2 lines)",
                "- link [https://example.com/x](<https://example.com/x>)",
            ]
        )
        in shown
    )
    assert "[resource]" not in shown and "hello.py[hello.py]" not in shown


def test_a_prompt_that_waited_reads_after_the_reply_it_waited_for_a_removed_one_not_sent() -> None:
    state = session()  # "Fix the bug": its turn runs
    state.add_user_prompt([text("then the docs")], queued=True)
    state.add_user_prompt([text("never mind")], queued=True)
    state.add_user_prompt([text("and the tests")], queued=True)
    state.apply_update({"sessionUpdate": "agent_message_chunk", "content": text("Fixed.")})
    state.drop_queued(2)  # removed before its turn
    state.start_queued(1, [text("then the docs, briefly")], None)
    state.apply_update({"sessionUpdate": "agent_message_chunk", "content": text("Docs done.")})
    body = re.sub(r"\n{3,}", "\n\n", render(state)).split("read-only._\n\n", 1)[1]
    assert body == "\n".join(
        [
            "## You",
            "",
            "Fix the bug",
            "",
            "## Agent",
            "",
            "Fixed.",
            "",
            "## You",
            "",
            "never mind",
            "",
            transcript.NOT_SENT,
            "",
            "then the docs, briefly",
            "",
            "## Agent",
            "",
            "Docs done.",
            "",
            "## You",
            "",
            "and the tests",
            "",
            transcript.WAITING,
            "",
        ]
    )
