"""Real checkpoint stores for the retention tests: turns checkpointed by the real ``TurnWatch``
in a throw-away state directory, then made to look old (a turn's time is its ref file's)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from pathlib import Path

from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue.review_queue import ReviewQueue
from acp_editor.services.documents import DiskDocuments
from acp_editor.services.git.checkpoints import store_for
from acp_editor.services.retention.plumbing import session_ref

DAY = 86400.0


def watch() -> TurnWatch:
    queue = ReviewQueue(DiskDocuments())
    turns = TurnWatch(queue)
    queue.on_written = turns.written
    return turns


async def take_turns(turns: TurnWatch, root: Path, session: str, count: int) -> None:
    """``count`` turns of ``session``: turn N writes ``a.txt`` as ``"<session> turn N"``, so
    the checkpoint before turn N+1 is the only one holding that text."""
    for _ in range(count):
        turn = await turns.begin(session, [str(root)])
        assert turn is not None, turns.disabled
        (root / "a.txt").write_text(f"{session} turn {turn.number}\n")
        await turns.end(session)


def age(root: Path, session: str, days: float, numbers: range | None = None) -> None:
    """Make turns of ``session`` (all, or ``numbers``) look checkpointed ``days`` ago."""
    refs = store_for(root) / "refs" / "acp" / session_ref(session)
    when = time.time() - days * DAY
    for ref in refs.iterdir():
        if numbers is None or int(ref.name.removeprefix("turn-")) in numbers:
            os.utime(ref, (when, when))


def backdate_objects(root: Path, days: float = 2) -> None:
    """Every object of the store older than the expiry that protects fresh checkpoints."""
    when = time.time() - days * DAY
    for folder, _dirs, files in os.walk(store_for(root) / "objects"):
        for name in files:
            os.utime(os.path.join(folder, name), (when, when))


def repository(root: Path, commit: bool = True) -> None:
    """``root`` as the user's git repository, everything added (and committed)."""
    user = ("-c", "user.email=u@x", "-c", "user.name=u")
    steps = [("init", "-q"), ("add", "-A"), *([(*user, "commit", "-qm", "0")] if commit else [])]
    for args in steps:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def store_git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=str(store_for(root)), GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", *args], env=env, capture_output=True, text=True, check=check)


def has_blob(root: Path, text: str) -> bool:
    """Whether the store (or what it borrows) still holds a blob of ``text``."""
    blob = subprocess.run(
        ["git", "hash-object", "--stdin"], input=text, capture_output=True, text=True, check=True
    )
    return store_git(root, "cat-file", "-e", blob.stdout.strip(), check=False).returncode == 0


def refs(root: Path) -> list[str]:
    return store_git(root, "for-each-ref", "--format=%(refname)").stdout.split()


def fingerprint(git_dir: Path) -> dict[str, str]:
    """Every file of a repository's ``.git`` by content (not time: a store borrowing objects
    may freshen them, as git itself does)."""
    found = {}
    for folder, _dirs, files in os.walk(git_dir):
        for name in files:
            path = Path(folder) / name
            found[str(path.relative_to(git_dir))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found
