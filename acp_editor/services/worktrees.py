"""A session's own worktree: the user's repository as it is now, somewhere the agent can change
freely, brought back as review only when the user asks (issue 28).

Where it lives: in the state directory, never in the user's work tree:
``worktrees/<folder>-<digest>/<session>/`` (``storage.per_root`` of the repository's top
folder) holds ``git/``, a private repository; ``tree/``, its work tree, where the agent works (a
``.git`` file there names ``git/``, so the agent's own git commands work and go to the private
repository); and ``worktree.json``, what it is (so a later run finds it by session).

How it is made: ``git/`` is first a checkpoint store (``services.git.checkpoints``) whose work tree
is the user's repository. Its one snapshot is the user's current state (HEAD, staged and
unstaged changes, untracked files that are not ignored) and costs about what ``git status``
costs: it starts from a copy of the user's index and borrows the user's objects through
``objects/info/alternates`` (``services.git.repository_index``), so only files that differ from the
index are read and hashed, into the private store. That tree is committed (parent: the user's
HEAD, so the agent sees the history) on ``refs/heads/acp/<session>``, the private repository's
HEAD, and checked out into ``tree/``. The objects the base needs beyond the user's HEAD (staged
blobs only the user's index names) are copied into the private store, so a ``git gc`` of the
user's never takes them away; what HEAD holds stays borrowed (a copy of a large store would
cost what the store costs).

What it writes into the user's repository: nothing. The only git run there is ``rev-parse``; no
branch, ref, stash, index, ``.git/worktrees/`` entry or object is made. Discarding is deleting
the session's folder.

What changed (``changes``): the work tree added to an index of our own (``acp-look``, not the
agent's) and compared with the base: the agent's commits and uncommitted changes count alike;
the base moves on by what was brought back (``advance``). Bytes kept as they are (the store's
``info/attributes``). ``acp-editor state`` lists them; never pruned while the repository is.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from acp_editor.services.git import environment
from acp_editor.services.git.checkpoints import (
    STATUS_LETTERS,
    CheckpointError,
    CheckpointStore,
    Status,
)
from acp_editor.storage import per_root

BRANCHES = "refs/heads/acp/"
"""The private repository's branches: one per session, ``acp/<session>``."""
BASES = "refs/acp/base/"  # the base after what was brought back (``advance``), kept reachable
_META = "worktree.json"
_ALL = sys.maxsize
"""No size limit: a worktree missing a large file would not build."""
_CONFIG = """[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tautocrlf = false
[gc]
\tauto = 0
"""
"""The private repository's settings once made: no split index (the agent's git and our looks
use plain ones), no automatic gc (the base must not go)."""


class WorktreeError(Exception):
    """A worktree cannot be made or read; the message is for the user."""


@dataclass(frozen=True)
class Worktree:
    session_key: str
    repository: str
    """The user's repository's top folder."""
    root: str
    """The folder the session was asked for (the repository's top, or a folder in it)."""
    home: str
    """The session's folder in the state directory: ``git/``, ``tree/``, ``worktree.json``."""
    base: str
    """The commit of the user's state when the worktree was made."""
    user_head: str | None
    """The user's HEAD commit then (None: the repository had no commit yet)."""
    branch: str
    """The private repository's branch (``refs/heads/acp/...``)."""

    @property
    def git_dir(self) -> Path:
        return Path(self.home) / "git"

    @property
    def tree(self) -> Path:
        """The worktree's top folder (the repository's top's counterpart)."""
        return Path(self.home) / "tree"

    @property
    def cwd(self) -> Path:
        """Where the session works: ``root``'s counterpart in the worktree."""
        return self.tree / Path(self.root).relative_to(self.repository)


@dataclass(frozen=True)
class WorktreeChange:
    """One file the session changed in its worktree, relative to the base."""

    path: Path
    """Where it comes back to: in the user's repository."""
    status: Status
    before: str | None
    """Its text in the base (None: not there, or not text)..."""
    after: str | None
    """...and in the worktree now (None: gone, or not text)."""
    binary: bool = False
    """A side is not text (a NUL byte, not UTF-8, a symlink or a submodule): no text for it."""


async def create(root: Path, session_key: str) -> Worktree:
    """A worktree of the user's current state for ``session_key`` (see the module docstring).
    Raises ``WorktreeError`` for a folder outside a git repository, a session that has one."""
    root = await asyncio.to_thread(root.resolve)
    top, objects, head = await _repository(root)
    home = per_root("worktrees", top) / _slug(session_key)
    if await asyncio.to_thread((home / _META).exists):
        raise WorktreeError(f"the session {session_key} already has a worktree: {home / 'tree'}")
    await asyncio.to_thread(shutil.rmtree, home, True)  # what a failed attempt left
    branch = BRANCHES + _slug(session_key)
    try:
        base = await _base(top, objects, head, home / "git")
        worktree = Worktree(session_key, str(top), str(root), str(home), base, head, branch)
        await _check_out(worktree)
        await asyncio.to_thread(_save, worktree)
    except BaseException:
        await asyncio.to_thread(shutil.rmtree, home, True)
        raise
    return worktree


async def existing(root: Path) -> list[Worktree]:
    """The worktrees kept for the repository ``root`` is in (made by this run or an earlier
    one): brought back or discarded later."""
    top, _, _ = await _repository(await asyncio.to_thread(root.resolve))
    return await asyncio.to_thread(_load_all, per_root("worktrees", top))


async def find(root: Path, session_key: str) -> Worktree | None:
    return next((w for w in await existing(root) if w.session_key == session_key), None)


async def discard(worktree: Worktree) -> None:
    """Remove the worktree and its private repository: nothing of it is left."""
    await asyncio.to_thread(_remove, Path(worktree.home))


async def changes(worktree: Worktree) -> list[WorktreeChange]:
    """What the session changed in its worktree since the base, file by file."""
    if not (await asyncio.to_thread((Path(worktree.home) / _META).exists)):
        raise WorktreeError(f"the worktree of session {worktree.session_key} is gone")
    git = _Private(worktree.git_dir, worktree.tree, worktree.git_dir / "acp-look")
    await git.run("add", "--all", "--", ".")
    now = (await git.run("write-tree")).decode().strip()
    out = await git.run("diff-tree", "-r", "-z", "--no-renames", "--raw", worktree.base, now)
    found: list[tuple[Path, Status, str | None, str | None, bool]] = []
    fields = out.split(b"\0")
    for info, raw in zip(fields[0::2], fields[1::2], strict=False):
        parts = info.decode().lstrip(":").split()  # OLDMODE NEWMODE OLDBLOB NEWBLOB STATUS
        kind = STATUS_LETTERS.get(parts[4][:1]) if len(parts) == 5 else None
        if kind is None or not raw:
            continue
        before = parts[2] if kind != "added" else None
        after = parts[3] if kind != "deleted" else None
        odd = any(m[:3] in ("120", "160") for m in parts[:2])  # a symlink, a submodule
        found.append((Path(worktree.repository) / os.fsdecode(raw), kind, before, after, odd))
    blobs = await git.blobs([b for f in found for b in f[2:4] if b is not None])
    result = []
    for path, kind, before, after, odd in found:
        texts = [None if b is None or odd else _decode(blobs[b]) for b in (before, after)]
        binary = odd or any(
            b is not None and t is None for b, t in zip((before, after), texts, strict=True)
        )
        result.append(WorktreeChange(path, kind, texts[0], texts[1], binary))
    return result


async def rekey(worktree: Worktree, session_key: str) -> Worktree:
    """The worktree kept under another session key: it is made before the agent's session
    (whose id is not known yet) and found later by that session's id. Folder and branch stay."""
    moved = replace(worktree, session_key=session_key)
    await asyncio.to_thread(_save, moved)
    return moved


async def advance(worktree: Worktree, brought: list[Path]) -> Worktree:
    """The base moves on by the files brought back (as they are in the worktree now), so they
    are not brought back twice; the others (left with the user's version) stay changes."""
    if not brought:
        return worktree
    index = worktree.git_dir / "acp-advance"
    git = _Private(worktree.git_dir, worktree.tree, index)
    names = [str(path.relative_to(worktree.repository)) for path in brought]
    try:
        await git.run("read-tree", worktree.base)
        await git.run("add", "--all", "--", *names)
        tree = (await git.run("write-tree")).decode().strip()
    finally:
        index.unlink(missing_ok=True)
    said = ["-m", "acp-editor: what was brought back to the user's work tree"]
    base = (await git.run("commit-tree", tree, "-p", worktree.base, *said)).decode().strip()
    # Kept reachable under our own name: gc is off, but the agent may run `git gc` there.
    await git.run("update-ref", BASES + _slug(worktree.session_key), base)
    moved = replace(worktree, base=base)
    await asyncio.to_thread(_save, moved)
    return moved


# -- making it ----------------------------------------------------------------------------------


async def _repository(root: Path) -> tuple[Path, Path, str | None]:
    """The repository's top folder, its object store and its HEAD commit (None: none yet)."""
    env = environment.for_repository()
    try:
        out = await _run(["rev-parse", "--show-toplevel", "--git-common-dir"], root, env)
    except WorktreeError:
        raise WorktreeError(
            f"{root} is not a git repository: a session of its own worktree needs git"
        ) from None
    top, common = out.decode().splitlines()[:2]
    objects = await asyncio.to_thread((root / common / "objects").resolve)
    head = await _run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root, env, (0, 1))
    return await asyncio.to_thread(Path(top).resolve), objects, head.decode().strip() or None


async def _base(top: Path, objects: Path, head: str | None, git_dir: Path) -> str:
    """Commit the user's state in the private repository (see the module docstring)."""
    try:
        tree = await CheckpointStore(top, git_dir, size_limit=_ALL).snapshot()
    except CheckpointError as exc:
        raise WorktreeError(f"the worktree could not be made: {exc}") from None
    await asyncio.to_thread(_settle_store, git_dir, objects)
    git = _Private(git_dir, top, git_dir / "acp-look")
    parents = ["-p", head] if head else []
    message = "acp-editor: the user's work tree when the session's worktree was made"
    base = (await git.run("commit-tree", tree, *parents, "-m", message)).decode().strip()
    # What the base needs beyond the user's HEAD (blobs only their index names), copied here.
    revs = f"{base}\n" + (f"^{head}\n" if head else "")
    pack = str(git_dir / "objects" / "pack" / "pack")
    await git.run("pack-objects", "--revs", "--quiet", pack, stdin=revs.encode())
    return base


def _settle_store(git_dir: Path, objects: Path) -> None:
    """The checkpoint store becomes the worktree's repository: its own settings, the user's
    objects borrowed (again: a snapshot that could not borrow the index gives them back), and
    the snapshot's index dropped."""
    (git_dir / "config").write_text(_CONFIG, encoding="utf-8")
    alternates = git_dir / "objects" / "info" / "alternates"
    alternates.parent.mkdir(parents=True, exist_ok=True)
    alternates.write_text(f"{objects}\n", encoding="utf-8")
    for leftover in [git_dir / "acp-index", git_dir / "acp-root", *git_dir.glob("sharedindex.*")]:
        leftover.unlink(missing_ok=True)


async def _check_out(worktree: Worktree) -> None:
    """The base on the session's branch, written into ``tree/``; the agent's index and ours
    start alike (with every file's stat data, so a look reads only what changed)."""
    tree, git_dir = worktree.tree, worktree.git_dir
    await asyncio.to_thread(tree.mkdir, parents=True)
    git = _Private(git_dir, tree, git_dir / "acp-look")
    await git.run("update-ref", worktree.branch, worktree.base)
    await git.run("symbolic-ref", "HEAD", worktree.branch)
    await git.run("read-tree", "--reset", "-u", "HEAD")
    await asyncio.to_thread(shutil.copy2, git_dir / "acp-look", git_dir / "index")
    await asyncio.to_thread((tree / ".git").write_text, f"gitdir: {git_dir}\n", "utf-8")


# -- kept across runs ---------------------------------------------------------------------------


def _slug(session_key: str) -> str:
    """A name for the session's folder and branch: readable, safe as a ref, unique."""
    readable = re.sub(r"[^A-Za-z0-9_]+", "-", session_key).strip("-")[:40] or "session"
    return f"{readable}-{hashlib.sha256(session_key.encode()).hexdigest()[:8]}"


def _save(worktree: Worktree) -> None:
    (Path(worktree.home) / _META).write_text(json.dumps(asdict(worktree)), encoding="utf-8")


def _load_all(folder: Path) -> list[Worktree]:
    found = []
    for meta in sorted(folder.glob(f"*/{_META}")):
        try:
            found.append(Worktree(**json.loads(meta.read_text(encoding="utf-8"))))
        except (OSError, ValueError, TypeError):
            continue  # not one of ours, or half written: nothing to bring back from
    return found


def _remove(home: Path) -> None:
    shutil.rmtree(home, ignore_errors=True)
    if home.exists():
        raise WorktreeError(f"the worktree could not be removed: {home}")
    with contextlib.suppress(OSError):  # others are left in it
        home.parent.rmdir()  # the repository's last worktree: its folder goes too


def _decode(raw: bytes | None) -> str | None:
    if raw is None or b"\0" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


# -- git ----------------------------------------------------------------------------------------


class _Private:
    """git against the private repository: its work tree and index as given, none of the
    user's settings (hooks, fsmonitor), commits by acp-editor."""

    def __init__(self, git_dir: Path, work_tree: Path, index: Path) -> None:
        self.work_tree = work_tree
        self.env = environment.for_store(git_dir, index, work_tree=work_tree, commits=True)

    async def run(self, *args: str, stdin: bytes | None = None) -> bytes:
        return await _run(list(args), self.work_tree, self.env, stdin=stdin)

    async def blobs(self, ids: list[str]) -> dict[str, bytes | None]:
        """The blobs ``ids`` (None: missing), one git run."""
        unique = list(dict.fromkeys(ids))
        if not unique:
            return {}
        out = await self.run(
            "cat-file", "--batch", stdin="".join(f"{i}\n" for i in unique).encode()
        )
        found: dict[str, bytes | None] = {}
        at = 0
        for blob in unique:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) != 3 or header[1] != b"blob":
                found[blob], at = None, end + 1
                continue
            size = int(header[2])
            found[blob], at = out[end + 1 : end + 1 + size], end + 2 + size
        return found


async def _run(
    args: list[str],
    cwd: Path,
    env: dict[str, str],
    ok: tuple[int, ...] = (0,),
    stdin: bytes | None = None,
) -> bytes:
    try:
        proc = await asyncio.create_subprocess_exec(
            "git",
            *args,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
    except FileNotFoundError:
        raise WorktreeError(
            "git is not installed: a session of its own worktree needs git"
        ) from None
    except NotADirectoryError:
        raise WorktreeError(f"{cwd} is not a folder") from None
    out, err = await proc.communicate(stdin)
    if proc.returncode not in ok:
        said = err.decode(errors="replace").strip()
        raise WorktreeError(f"git {args[0]} failed: {said}")
    return out
