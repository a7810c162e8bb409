"""A session's own worktree on a real git repository: made from the user's current state
(committed, staged, unstaged, untracked; not ignored), its changes read back, and after it is
discarded the user's repository exactly as it was: HEAD, branches, refs, stash, index, worktrees
and files, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.services import worktrees
from acp_editor.services.worktrees import WorktreeChange, WorktreeError
from acp_editor.storage import state_dir
from tests.support.repository import git, observed


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with history, branches, a stash, and every kind of uncommitted change."""
    root = (tmp_path / "repo").resolve()
    (root / "src").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / ".gitignore").write_text("*.log\nbuild/\n")
    (root / "src" / "a.py").write_text("a = 1\n")
    (root / "src" / "b.py").write_text("b = 1\n")
    (root / "gone.txt").write_text("to be deleted\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    git(root, "branch", "feature")
    git(root, "tag", "v1")
    (root / "src" / "a.py").write_text("a = 2\n")
    git(root, "commit", "-qam", "second")
    (root / "src" / "b.py").write_text("b = 2  # stashed\n")
    git(root, "stash", "-q")
    (root / "staged.py").write_text("staged = True\n")
    git(root, "add", "staged.py")
    (root / "src" / "b.py").write_text("b = 3  # unstaged\n")
    (root / "gone.txt").unlink()
    (root / "notes.md").write_text("untracked\n")
    (root / "debug.log").write_text("ignored\n")
    (root / "build").mkdir()
    (root / "build" / "out.bin").write_bytes(b"\0ignored")
    return root


async def test_a_worktree_holds_the_users_current_state_outside_the_work_tree(
    repo: Path,
) -> None:
    worktree = await worktrees.create(repo, "session 1")
    tree = worktree.tree
    assert not tree.is_relative_to(repo) and tree.is_relative_to(state_dir())
    assert (tree / "src" / "a.py").read_text() == "a = 2\n"  # committed
    assert (tree / "staged.py").read_text() == "staged = True\n"  # staged
    assert (tree / "src" / "b.py").read_text() == "b = 3  # unstaged\n"  # unstaged
    assert (tree / "notes.md").read_text() == "untracked\n"  # untracked
    assert not (tree / "gone.txt").exists()  # deleted, not staged
    assert not (tree / "debug.log").exists() and not (tree / "build").exists()  # ignored
    # The agent's own git works there, on a branch acp-editor owns, over the user's history.
    assert git(tree, "status", "--porcelain") == b""
    assert git(tree, "symbolic-ref", "HEAD").decode().strip() == worktree.branch
    assert worktree.branch.startswith("refs/heads/acp/")
    assert git(tree, "rev-parse", "HEAD^").decode().strip() == worktree.user_head
    assert worktree.user_head == git(repo, "rev-parse", "HEAD").decode().strip()
    await worktrees.discard(worktree)


async def test_discarding_leaves_the_users_repository_byte_for_byte_as_it_was(
    repo: Path,
) -> None:
    before = observed(repo)
    worktree = await worktrees.create(repo / "src", "session/2")
    assert worktree.cwd == worktree.tree / "src"
    tree = worktree.tree
    (tree / "src" / "a.py").write_text("a = 3\n")
    (tree / "new.py").write_text("new = 1\n")
    (tree / "staged.py").unlink()
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "the agent commits")  # its commits stay in its repository
    (tree / "notes.md").write_text("changed after the commit\n")
    found = await worktrees.changes(worktree)
    assert {(c.path.relative_to(repo).as_posix(), c.status) for c in found} == {
        ("src/a.py", "modified"),
        ("new.py", "added"),
        ("staged.py", "deleted"),
        ("notes.md", "modified"),
    }
    assert observed(repo) == before
    await worktrees.discard(worktree)
    assert observed(repo) == before
    assert not Path(worktree.home).exists()
    assert await worktrees.existing(repo) == []


async def test_changes_give_texts_and_mark_what_is_not_text(repo: Path) -> None:
    worktree = await worktrees.create(repo, "s3")
    tree = worktree.tree
    (tree / "src" / "b.py").write_text("b = 4\n")
    (tree / "image.png").write_bytes(b"\x89PNG\0\1")
    (tree / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    (tree / "link").symlink_to("src/a.py")
    found = {c.path.relative_to(repo).as_posix(): c for c in await worktrees.changes(worktree)}
    assert found["src/b.py"] == WorktreeChange(
        repo / "src" / "b.py", "modified", "b = 3  # unstaged\n", "b = 4\n"
    )
    for name in ("image.png", "latin1.txt", "link"):
        assert found[name].binary and found[name].after is None and found[name].status == "added"
    assert len(found) == 4
    (tree / "src" / "b.py").write_text("b = 3  # unstaged\n")  # changed back: no change
    assert "src/b.py" not in {c.path.name for c in await worktrees.changes(worktree)}
    await worktrees.discard(worktree)


async def test_worktrees_are_found_again_by_session_and_one_per_session(repo: Path) -> None:
    first = await worktrees.create(repo, "one")
    second = await worktrees.create(repo, "two")
    assert await worktrees.find(repo / "src", "two") == second
    assert [w.session_key for w in await worktrees.existing(repo)] == sorted(["one", "two"])
    with pytest.raises(WorktreeError, match="already has a worktree"):
        await worktrees.create(repo, "one")
    await worktrees.discard(first)
    assert await worktrees.find(repo, "one") is None
    assert await worktrees.find(repo, "two") == second
    await worktrees.discard(second)
    assert not Path(second.home).parent.exists()


async def test_a_folder_outside_git_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    plain = (tmp_path / "plain").resolve()
    plain.mkdir()
    with pytest.raises(WorktreeError) as caught:
        await worktrees.create(plain, "s")
    assert str(caught.value) == (
        f"{plain} is not a git repository: a session of its own worktree needs git"
    )
    assert list(plain.iterdir()) == []


async def test_a_repository_without_commits_gets_a_worktree_too(tmp_path: Path) -> None:
    root = (tmp_path / "fresh").resolve()
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("a\n")
    worktree = await worktrees.create(root, "s")
    assert worktree.user_head is None
    assert (worktree.tree / "a.txt").read_text() == "a\n"
    assert await worktrees.changes(worktree) == []
    await worktrees.discard(worktree)
    assert git(root, "for-each-ref") == b""


async def test_the_base_keeps_staged_blobs_the_users_gc_may_prune(repo: Path) -> None:
    worktree = await worktrees.create(repo, "s")
    git(repo, "reset", "-q")  # staged.py no longer named by the user's index...
    git(repo, "stash", "clear")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")  # ...and its blob gone from the user's store
    (worktree.tree / "staged.py").write_text("staged = False\n")
    found = await worktrees.changes(worktree)
    assert [(c.before, c.after) for c in found] == [("staged = True\n", "staged = False\n")]
    await worktrees.discard(worktree)


async def test_a_worktree_made_before_its_session_is_found_by_the_sessions_id(
    repo: Path,
) -> None:
    made = await worktrees.create(repo, "pending-1")
    kept = await worktrees.rekey(made, "agent-session-9")
    assert kept.home == made.home and kept.branch == made.branch
    assert await worktrees.find(repo, "agent-session-9") == kept
    assert await worktrees.find(repo, "pending-1") is None
    await worktrees.discard(kept)


async def test_what_was_brought_back_is_no_change_any_more_and_the_rest_still_is(
    repo: Path,
) -> None:
    before = observed(repo)
    worktree = await worktrees.create(repo, "s4")
    tree = worktree.tree
    (tree / "src" / "a.py").write_text("a = 9\n")
    (tree / "new.py").write_text("new = 1\n")
    (tree / "notes.md").unlink()
    (tree / "left.py").write_text("kept for later\n")
    brought = [repo / "src" / "a.py", repo / "new.py", repo / "notes.md"]
    moved = await worktrees.advance(worktree, brought)
    assert moved.base != worktree.base and await worktrees.find(repo, "s4") == moved
    assert [c.path for c in await worktrees.changes(moved)] == [repo / "left.py"]
    (tree / "src" / "a.py").write_text("a = 10\n")  # changed again after: a change again
    again = {c.path: c for c in await worktrees.changes(moved)}
    assert again[repo / "src" / "a.py"].before == "a = 9\n"
    assert observed(repo) == before
    await worktrees.discard(moved)
    assert observed(repo) == before
