"""The zero-plugin surface with the recorded capabilities of real VS Code and Neovim."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.e2e_lsp.conftest import EDIT_LINE, HELLO, StartEditor
from tests.support.lsp import NEOVIM, VSCODE, choose_kind, wait_until


async def test_follow_shows_the_location_without_taking_focus(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory()
    result = await editor.command("acp.prompt", "read")
    assert result["stopReason"] == "end_turn"
    shown = editor.client.shown_documents
    assert shown, "follow-along sent no window/showDocument"
    first: dict[str, Any] = shown[0]  # type: ignore[assignment]  # read untyped, as sent
    assert first["uri"] == editor.uri("hello.py")
    assert "my%20project" in first["uri"]
    assert first["takeFocus"] is False
    assert first["selection"]["start"] == {"line": 0, "character": 0}  # ACP line 1


@pytest.mark.parametrize(
    ("capabilities", "with_properties"),
    [(VSCODE, True), (NEOVIM, True), ("neovim@v0.10.0", False)],
)
async def test_permission_through_show_message_request(
    editor_factory: StartEditor, workspace: Path, capabilities: str, with_properties: bool
) -> None:
    editor = await editor_factory(capabilities=capabilities)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    (asked,) = editor.asked
    assert "Edit hello.py" in asked["message"] and "[edit]" in asked["message"]
    assert "(+1 -0)" in asked["message"]  # diff line counts in the summary
    titles = [a["title"] for a in asked["actions"]]
    assert titles == ["Reject", "Always reject", "Allow", "Always allow"]  # never an allow first
    assert all(("optionId" in a) == with_properties for a in asked["actions"])
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE


async def test_dismissed_permission_rejects(editor_factory: StartEditor, workspace: Path) -> None:
    editor = await editor_factory(answer_permission=lambda _p: None)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO


async def test_reject_option_leaves_the_file(editor_factory: StartEditor, workspace: Path) -> None:
    editor = await editor_factory(answer_permission=lambda p: choose_kind(p, "reject_once"))
    await editor.command("acp.prompt", "edit")
    assert (workspace / "hello.py").read_text() == HELLO


async def test_edit_lands_in_the_unsaved_buffer_with_minimal_edits(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(capabilities=NEOVIM)
    unsaved = "# my unsaved note\n" + HELLO
    editor.open("hello.py", unsaved)
    await editor.command("acp.prompt", "edit")
    # The agent read the unsaved text through us and appended to it.
    assert editor.text("hello.py") == unsaved + EDIT_LINE
    (apply,) = editor.edits
    assert apply["label"] == "Edit hello.py"  # the tool call's title
    (changes,) = apply["edit"]["changes"].values()
    end_of_last_line = {"line": 2, "character": len(HELLO.splitlines()[-1])}
    assert (
        changes
        == [  # one small insertion, not a whole-buffer replace
            {
                "range": {"start": end_of_last_line, "end": end_of_last_line},
                "newText": "\n" + EDIT_LINE[:-1],
            }
        ]
    )
    # Plugin-less editor: the sidecar writes the agent's change to disk after applied: true,
    # applied to the disk's text: the user's unsaved note stays in the buffer until they save.
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE


async def test_vscode_gets_versioned_document_changes(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(capabilities=VSCODE)
    editor.open("hello.py", HELLO)
    await editor.command("acp.prompt", "edit")
    (change,) = editor.edits[0]["edit"]["documentChanges"]
    assert change["textDocument"] == {"uri": editor.uri("hello.py"), "version": 1}


@pytest.mark.parametrize("reports", [True, False], ids=["reports-at-once", "reports-when-idle"])
async def test_two_writes_to_one_open_buffer_in_a_turn_never_carry_a_stale_version(
    editor_factory: StartEditor, workspace: Path, reports: bool
) -> None:
    """eglot bumps a document's version when it applies our edit but reports the change only
    when Emacs is idle: the second edit must not carry the version it has left behind (eglot
    refuses it), and must be computed against the text after the first, not before it."""
    editor = await editor_factory(capabilities=VSCODE)  # versioned documentChanges
    editor.reports_edits = reports
    unsaved = "# my unsaved note\n" + HELLO
    editor.open("hello.py", unsaved)
    result = await editor.command("acp.prompt", "edit hunks")
    assert result["toolCalls"] == [{"title": "Edit hello.py", "status": "completed"}] * 2
    first, second = (e["edit"]["documentChanges"][0]["textDocument"] for e in editor.edits)
    assert first["version"] == 1
    # Reported at once: the editor's new version; never reported: no version at all.
    assert second["version"] == (2 if reports else None)
    lines = editor.text("hello.py").splitlines(keepends=True)
    assert lines[0] == "# my unsaved note  # reviewed by the demo agent\n"
    assert lines[1:] == [*HELLO.splitlines(keepends=True), EDIT_LINE, EDIT_LINE]
    # The disk got both of the agent's changes, without the unsaved note.
    on_disk = (workspace / "hello.py").read_text()
    assert "# my unsaved note" not in on_disk and on_disk.count(EDIT_LINE) == 2


async def test_an_edit_refused_because_the_user_typed_is_merged_into_the_new_text(
    editor_factory: StartEditor,
) -> None:
    """eglot reports typing only when Emacs is idle: an agent write in between carries a version
    the buffer has moved past and is refused. Once the editor reports, the change is applied
    again, merged into the new text: what the user typed stays."""
    editor = await editor_factory(capabilities=VSCODE)
    editor.reports_edits = False
    editor.open("hello.py", HELLO)
    editor.type_unreported("hello.py", "# typed just now\n")
    turn = asyncio.ensure_future(editor.command("acp.prompt", "edit"))
    await wait_until(lambda: len(editor.edits) == 1)  # the first try, refused
    editor.report_changes()  # Emacs is idle at last
    result = await turn
    assert result["toolCalls"] == [{"title": "Edit hello.py", "status": "completed"}]
    assert [e["edit"]["documentChanges"][0]["textDocument"]["version"] for e in editor.edits] == [
        1,
        2,
    ]
    assert editor.text("hello.py") == "# typed just now\n" + HELLO + EDIT_LINE


async def test_rich_client_that_saves_itself_gets_no_disk_write(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(saves_after_apply=True)
    editor.open("hello.py", HELLO)
    await editor.command("acp.prompt", "edit")
    assert editor.text("hello.py") == HELLO + EDIT_LINE
    assert (workspace / "hello.py").read_text() == HELLO  # the editor would save it


async def test_refused_edit_fails_the_tool_call_and_leaves_the_disk(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(features=["stream"])
    editor.refuse_edits = True
    editor.open("hello.py", HELLO)
    result = await editor.command("acp.prompt", "edit")
    assert result["stopReason"] == "end_turn"
    assert (workspace / "hello.py").read_text() == HELLO
    assert editor.text("hello.py") == HELLO
    changes = [c for n in editor.of("acp/sessionChanged") for c in n["changes"]]
    failed = [c for c in changes if c["type"] == "tool_call" and c["set"].get("status") == "failed"]
    assert failed, "the agent was told the write failed"


async def test_writes_to_files_that_are_not_open_go_to_disk(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory()
    await editor.command("acp.prompt", "edit")
    assert editor.edits == []
    assert (workspace / "hello.py").read_text() == HELLO + EDIT_LINE


async def test_cancel_answers_the_pending_permission_and_withdraws_the_dialog(
    editor_factory: StartEditor, workspace: Path
) -> None:
    never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    editor = await editor_factory(answer_permission=lambda _p: never)
    turn = asyncio.ensure_future(editor.command("acp.prompt", "edit"))
    await asyncio.wait_for(editor.asked_event.wait(), 15)
    cancelled = await editor.command("acp.cancel")
    result = await asyncio.wait_for(turn, 15)
    assert result["stopReason"] == "cancelled"
    assert cancelled == {"sessionId": result["sessionId"]}
    # The dialog is withdrawn with $/cancelRequest (pygls cancels the handler, which records it).
    await wait_until(lambda: bool(editor.withdrawn), timeout=15)
    assert (workspace / "hello.py").read_text() == HELLO


async def test_tool_calls_show_as_work_done_progress(editor_factory: StartEditor) -> None:
    editor = await editor_factory()
    await editor.command("acp.prompt", "read")

    def reports_all() -> list[Any]:
        return [r for rs in editor.client.progress_reports.values() for r in rs]

    await wait_until(lambda: any(r.kind == "end" for r in reports_all()))
    reports = reports_all()
    kinds = [r.kind for r in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    assert "completed" in (reports[-1].message or "")


async def test_commands_are_advertised_and_work(editor_factory: StartEditor) -> None:
    editor = await editor_factory()
    caps = editor.init_result.capabilities
    assert caps is not None and caps.execute_command_provider is not None
    assert set(caps.execute_command_provider.commands) >= {
        "acp.prompt",
        "acp.cancel",
        "acp.newSession",
        "acp.setMode",
        "acp.follow",
        "acp.status",
    }
    first = await editor.command("acp.newSession")
    again = await editor.command("acp.prompt", "hello")
    assert again["sessionId"] == first["sessionId"]  # later prompts reuse the session
    assert (await editor.command("acp.follow")) == {"follow": False}
    assert (await editor.command("acp.follow", True)) == {"follow": True}
    mode = await editor.command("acp.setMode", "ask")
    assert mode == {"sessionId": first["sessionId"], "modeId": "ask"}
    status = await editor.command("acp.status")
    assert status["state"] == "ready" and status["sessions"] == [first["sessionId"]]


async def test_follow_off_sends_no_jumps(editor_factory: StartEditor) -> None:
    editor = await editor_factory()
    await editor.command("acp.follow", False)
    await editor.command("acp.prompt", "read")
    assert editor.client.shown_documents == []


async def test_auth_is_asked_with_method_ids(editor_factory: StartEditor) -> None:
    def pick(params: dict[str, Any]) -> Any:
        return next(a for a in params["actions"] if a.get("methodId") == "demo-login")

    editor = await editor_factory(agent_flags=("--require-auth",), answer_permission=pick)
    result = await editor.command("acp.prompt", "hello")
    assert result["stopReason"] == "end_turn"
    (asked,) = editor.asked
    # Every method by name, the terminal one too (said to run in a terminal).
    assert [a.get("methodId") for a in asked["actions"]] == ["demo-login", "demo-terminal-login"]
    assert "(a command in a terminal)" in asked["message"]


async def test_status_shows_the_mode_the_editor_settings_chose(
    editor_factory: StartEditor,
) -> None:
    editor = await editor_factory(init_options={"acp": {"mode": "code", "features": []}})
    await editor.command("acp.newSession")
    status = await editor.command("acp.status")
    assert status["mode"] == "code" and status["currentSessionId"] in status["sessions"]
