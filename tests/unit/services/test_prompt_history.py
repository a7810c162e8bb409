"""The workspace's prompt history: oldest first, a repeat in a row kept once, bounded, shared by
every run in the workspace, and a broken file is not a crash."""

from __future__ import annotations

from pathlib import Path

from acp_editor.services.prompt_history import KEPT, PromptHistory, prompt_text


async def test_prompts_are_kept_oldest_first_without_repeats_in_a_row(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path)
    for text in ("fix it", "fix it", "now test it", "  ", "fix it"):
        await history.add(text)
    assert await history.recent() == ["fix it", "now test it", "fix it"]
    assert await history.recent(2) == ["now test it", "fix it"]
    assert await PromptHistory(tmp_path).recent() == [
        "fix it",
        "now test it",
        "fix it",
    ]  # a run later
    assert not any(tmp_path.iterdir())  # kept in the state directory, not the workspace


async def test_the_history_is_bounded(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path)
    for n in range(KEPT + 5):
        await history.add(f"prompt {n}")
    kept = await history.recent()
    assert len(kept) == KEPT and kept[0] == "prompt 5" and kept[-1] == f"prompt {KEPT + 4}"


async def test_a_broken_history_file_reads_as_empty_and_is_replaced(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path)
    history.path.parent.mkdir(parents=True, exist_ok=True)
    history.path.write_text("{not json")
    assert await history.recent() == []
    await history.add("after")
    assert await history.recent() == ["after"]


def test_a_prompts_text_is_what_the_user_typed_not_what_was_attached() -> None:
    blocks = [
        {"type": "resource_link", "uri": "file:///w/a.py", "name": "a.py"},
        {"type": "text", "text": "Explain this file\n"},
        {"type": "text", "text": "Diagnostics of a.py: line 3: undefined name"},
    ]
    assert prompt_text(blocks) == "Explain this file"
    assert prompt_text([{"type": "image", "data": "", "mimeType": "image/png"}]) == ""


async def test_remembered_prompts_are_written_behind_in_order_and_read_back(
    tmp_path: Path,
) -> None:
    history = PromptHistory(tmp_path)
    for text in ("one", "two", "three"):
        history.remember(text)  # returns at once: a prompt never waits for the disk
    assert await history.recent() == ["one", "two", "three"]  # waits for what is pending
    history.remember("four")
    await history.flush()
    assert await PromptHistory(tmp_path).recent() == ["one", "two", "three", "four"]
