"""Bulk changes through LSP: a command of the scripted agent writes 40 files at once
(``generate``); they are one review item, not 40, in a plain editor and in a rich one; rejecting
it puts back exactly those files (after a restart of the sidecar too, and when the turn was
cancelled); the user's repository is never touched."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor, wait_until

FILES = 40


def generated(workspace: Path) -> dict[str, str]:
    folder = workspace / "generated"
    return {p.name: p.read_text() for p in sorted(folder.iterdir())} if folder.exists() else {}


async def groups(editor: Editor) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (await editor.request("acp/snapshot", {}))["reviewGroups"]
    return found


async def code_actions(editor: Editor, name: str) -> dict[str, dict[str, Any]]:
    """The code actions offered at the top of a file, by title (this client keeps them JSON)."""
    found = await editor.client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=editor.uri(name)),
            range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            context=lsp.CodeActionContext(diagnostics=[]),
        )
    )
    return {a["title"]: a for a in found or [] if isinstance(a, dict)}


async def test_a_plain_editor_gets_one_message_and_rejects_the_group_with_a_code_action(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(agent_flags=("--writes-itself",))
    await editor.command("acp.prompt", "generate")
    assert len(generated(workspace)) == FILES
    (group,) = await groups(editor)
    assert group["created"] == FILES and group["state"] == "pending"
    assert group["title"] == f"{FILES} new files in generated/"

    def told() -> list[str]:
        return [m.message for m in editor.client.messages if group["groupId"] in m.message]

    await wait_until(lambda: bool(told()))  # once the burst has settled: its whole count
    assert len(told()) == 1 and f"{group['title']} wait for review" in told()[0]
    # No diagnostic per file: nothing of the burst is drawn file by file.
    assert not [u for u, found in editor.client.diagnostics.items() if "/generated/" in u and found]
    listed = await editor.command("acp.groupFiles", group["groupId"])
    assert sorted(Path(f["path"]).name for f in listed["files"]) == sorted(generated(workspace))
    assert {f["change"] for f in listed["files"]} == {"created"}

    editor.open("hello.py", (workspace / "hello.py").read_text())
    titles = await code_actions(editor, "hello.py")
    assert f"Accept {group['title']}" in titles
    reject = titles[f"Reject {group['title']} (put them back)"]["command"]
    result = await editor.command(reject["command"], *reject["arguments"])
    assert result["results"] == [{"groupId": group["groupId"], "state": "rejected"}]
    assert not (workspace / "generated").exists()  # the files and the folder they made
    assert (workspace / "hello.py").exists()  # nothing else
    assert [g["state"] for g in await groups(editor)] == ["rejected"]
    assert not any("Reject" in title for title in await code_actions(editor, "hello.py"))


async def test_a_plain_editor_is_told_once_a_turn_of_all_its_groups(
    editor_factory: StartEditor, workspace: Path
) -> None:
    """One command writing 90 files in 3 folders makes 3 groups: one message a turn says how
    many files in how many groups, how to decide them all and how to list them (it was one
    popup per group: 20 to 31 for 20,000 files in 40 folders)."""
    env = {**os.environ, "ACP_DEMO_FILES": "90", "ACP_DEMO_FOLDERS": "3"}
    editor = await editor_factory(agent_flags=("--writes-itself",), env=env)

    def told() -> list[str]:
        return [m.message for m in editor.client.messages if "wait for review" in m.message]

    editor.open("hello.py", (workspace / "hello.py").read_text())
    for turn in (1, 2):  # created, then all changed: three new groups each time
        await editor.command("acp.prompt", "generate")
        await wait_until(lambda: len(told()) == turn)  # noqa: B023 (awaited in this pass)
        pending = [g for g in await groups(editor) if g["state"] == "pending"]
        assert len(pending) == 3 and sum(g["created"] + g["changed"] for g in pending) == 90
        message = told()[-1]
        assert "90 files in 3 groups wait for review" in message
        assert all(g["groupId"] in message for g in pending)
        assert "acp.acceptGroup" in message and "acp.groupFiles" in message
        actions = await code_actions(editor, "hello.py")
        accept = actions["Accept all 3 groups (90 files)"]["command"]
        assert sorted(accept["arguments"]) == sorted(g["groupId"] for g in pending)
        result = await editor.command(accept["command"], *accept["arguments"])
        assert [r["state"] for r in result["results"]] == ["accepted"] * 3
    # Nothing more is told after the turns: the groups were settled and decided.
    await editor.command("acp.status")
    assert len(told()) == 2


async def test_a_rich_editor_gets_the_group_lists_its_files_and_a_change_is_put_back(
    editor_factory: StartEditor, workspace: Path
) -> None:
    editor = await editor_factory(agent_flags=("--writes-itself",), features=["review", "follow"])
    await editor.command("acp.prompt", "generate")
    first = generated(workspace)
    (created,) = await groups(editor)
    await editor.request(
        "acp/reviewDecide", {"decision": "accept", "groupIds": [created["groupId"]]}
    )
    await editor.command("acp.prompt", "generate")  # the same files, all changed
    changed = [g for g in await groups(editor) if g["state"] == "pending"]
    assert [(g["changed"], g["created"]) for g in changed] == [(FILES, 0)]
    sent = [g for p in editor.of("acp/reviewChanged") for g in p.get("groups", [])]
    assert {g["groupId"] for g in sent} == {created["groupId"], changed[0]["groupId"]}

    # The first files of a burst may be found (and sent) one by one before the rest: they
    # join the group then, and the editor is told their hunks are gone (superseded).
    def states() -> set[str]:
        latest = {h["hunkId"]: h for p in editor.of("acp/reviewChanged") for h in p["hunks"]}
        return {h["state"] for h in latest.values()}

    await wait_until(lambda: states() <= {"superseded"})
    assert len([f for f in editor.of("acp/follow") if "/generated/" in f["uri"]]) <= 2
    files = await editor.request("acp/reviewGroupFiles", {"groupId": changed[0]["groupId"]})
    assert len(files["files"]) == FILES

    # One file changed again since: it is left, the others are put back.
    (workspace / "generated" / "file7.js").write_text("mine\n")
    decided = await editor.request(
        "acp/reviewDecide", {"decision": "reject", "groupIds": [changed[0]["groupId"]]}
    )
    (result,) = decided["results"]
    assert result["state"] == "pending" and "one of its files changed since" in result["error"]
    now = generated(workspace)
    assert now["file7.js"] == "mine\n"
    assert {k: v for k, v in now.items() if k != "file7.js"} == {
        k: v for k, v in first.items() if k != "file7.js"
    }
    (left,) = [g for g in await groups(editor) if g["state"] == "pending"]
    assert left["changed"] == 1


async def test_a_group_is_rejected_exactly_after_a_restart_of_the_sidecar(
    editor_factory: StartEditor, workspace: Path
) -> None:
    (workspace / "generated").mkdir()
    keep = {f"file{n}.js": f"// kept {n}\n" for n in (1, 2, 3)}
    for name, text in keep.items():
        (workspace / "generated" / name).write_text(text)
    first = await editor_factory(agent_flags=("--writes-itself",))
    await first.command("acp.prompt", "generate")
    (group,) = await groups(first)
    assert (group["created"], group["changed"]) == (FILES - 3, 3)
    await first.close()

    second = await editor_factory(agent_flags=("--writes-itself",))
    await wait_until(lambda: any("wait for review" in m.message for m in second.client.messages))
    (back,) = await groups(second)
    assert back["title"] == group["title"]
    result = await second.command("acp.rejectGroup", back["groupId"])
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert generated(workspace) == keep  # the three back as they were, the rest removed


async def test_a_cancelled_turns_burst_is_still_reviewable_and_the_repository_untouched(
    editor_factory: StartEditor, workspace: Path
) -> None:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=workspace, capture_output=True, check=True)
        return done.stdout.decode()

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    before = (git("rev-parse", "HEAD"), git("status", "--porcelain"), git("ls-files", "-s"))
    index = (workspace / ".git" / "index").read_bytes()
    editor = await editor_factory(agent_flags=("--writes-itself",))
    turn = asyncio.ensure_future(editor.command("acp.prompt", "generate and wait"))
    await wait_until(lambda: len(generated(workspace)) == FILES, timeout=20)
    await editor.command("acp.cancel")
    assert (await turn)["stopReason"] == "cancelled"
    await wait_until(lambda: any("wait for review" in m.message for m in editor.client.messages))
    (group,) = await groups(editor)
    assert group["created"] == FILES
    result = await editor.command("acp.rejectGroup", group["groupId"])
    assert [r["state"] for r in result["results"]] == ["rejected"]
    assert not (workspace / "generated").exists()
    assert (git("rev-parse", "HEAD"), git("status", "--porcelain"), git("ls-files", "-s")) == before
    assert (workspace / ".git" / "index").read_bytes() == index
