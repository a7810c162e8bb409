"""editor_names.py and its TypeScript and Lua siblings are as scripts/protocol_tables.py generates
them from docs/protocol.md, and its ``--check`` notices a hand edit of one, or a doc edit nobody
generated from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acp_editor.protocol import editor_names
from tests.support.protocol_generator import NEW_MESSAGE, ROOT, TABLES, GeneratorChecks, edit_doc


class TestAsEveryGenerator(GeneratorChecks):
    generator = TABLES
    hand_edit = ("acp/prompt", "acp/prompts")


def test_a_new_message_in_the_document_reaches_every_mirror(tmp_path: Path) -> None:
    python, typescript, lua = TABLES.check_new_message_reaches_every_mirror(tmp_path)
    assert 'ACP_RENAME_SESSION = "acp/renameSession"' in python
    assert (
        "export const RENAME_SESSION = new RequestType<w.RenameSessionParams, "
        'w.RenameSessionResult, void>("acp/renameSession");'
    ) in typescript
    assert 'RENAME_SESSION = { method = "acp/renameSession"' in lua


def test_typescript_takes_the_type_names_the_document_declares() -> None:
    generated = (ROOT / TABLES.generated[1]).read_text(encoding="utf-8")
    assert "RequestType<w.ForkSessionParams, w.ForkSessionResult, void>" in generated
    assert "RequestType<w.RestoreCheckpointParams, w.RestoreCheckpointResult" in generated
    assert "NotificationType<w.AgentStatusParams>" in generated


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("- **Direction:** editor → server, request\n\nSends", "\nSends", "acp/prompt"),
        (
            "interface SelectSessionResult { sessionId: SessionId }\n",
            "",
            "one ...Params and one ...Result",
        ),
        ("by `kind`: `allow_once`", "by kind: `allow_once`", "option kinds"),
        ('type ReviewMode = "after-write"', 'type ReviewModes = "after-write"', "ReviewMode"),
        (
            "type LogoutArguments = [confirmed?: boolean];",
            "",
            "does not declare LogoutArguments",
        ),
        (
            "type LogoutArguments = [confirmed?: boolean];",
            "type LogoutArguments = boolean;",
            "LogoutArguments: a command's arguments are a tuple",
        ),
        (
            "type KeepMineArguments",
            "type KeepOursArguments",
            "declares KeepOursArguments, which no command's name gives",
        ),
    ],
    ids=[
        "no direction",
        "request without result",
        "no option kinds",
        "no review modes",
        "command without arguments",
        "arguments not a tuple",
        "arguments of no command",
    ],
)
def test_a_document_the_script_cannot_read_is_an_error_not_a_shorter_table(
    tmp_path: Path, old: str, new: str, says: str
) -> None:
    TABLES.check_unreadable(tmp_path, old, new, says)


def test_each_command_is_typed_with_its_arguments() -> None:
    """``proto.arguments`` takes the typed handle, whose type names the shape it checks."""
    handle = editor_names.RESTORE_CHECKPOINT_COMMAND
    assert (handle.name, handle.arguments) == (
        "acp.restoreCheckpoint",
        "RestoreCheckpointArguments",
    )
    handles = [
        getattr(editor_names, f"{n[4:]}_COMMAND") for n in dir(editor_names) if n[:4] == "CMD_"
    ]
    assert sorted(h.name for h in handles) == sorted(editor_names.COMMANDS)


def test_a_long_name_is_written_as_ruff_formats_it(tmp_path: Path) -> None:
    copy = TABLES.copy(tmp_path)
    long = "acp/reviewGroupFilesOfTheLastTurn"  # its MESSAGES entry is wrapped
    edit_doc(copy, "<!-- /messages -->", NEW_MESSAGE.replace("acp/renameSession", long))
    assert TABLES.run(copy).returncode == 0
    python = copy / TABLES.generated[0]
    formatted = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--diff",
            "--config",
            ROOT / "pyproject.toml",
            python,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
