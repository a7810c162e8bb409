"""Bulk changes: the many files one command changed at once, reviewed as one item.

An ``npm install`` into a folder that is not ignored, a code generator, an unpacked archive: a
hunk per file would bury the editor (thousands of diagnostics and follow jumps) and the user
(nobody reviews 20,000 hunks one by one). When one look finds a burst (``review.queue.grouping``
says which files are one), those files become a ``ReviewGroup``: its counts, accepted or rejected
as one, its files listed on demand. What a group keeps of each file is the blob ids the
checkpoints gave it (``services.git.checkpoints``), not its text: rejecting a group puts back the
bytes of the checkpoint before (``review.queue.bulk``), and only for files that still hold what the
command left.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from acp_editor.text.positions import path_to_uri

if TYPE_CHECKING:
    from acp_editor.services.git.checkpoints import Change

GroupState = Literal["pending", "accepted", "rejected"]
FileKind = Literal["created", "deleted", "changed"]


@dataclass(frozen=True)
class GroupFile:
    """One file of a group: its blob before the group (None: it did not exist), its mode then,
    and its blob when last found (None: deleted)."""

    before: str | None
    mode: str | None
    after: str | None

    @property
    def kind(self) -> FileKind:
        return "created" if self.before is None else "deleted" if self.after is None else "changed"


@dataclass(eq=False)
class ReviewGroup:
    group_id: str
    session_id: str
    tool_call_id: str | None
    root: str
    """The checkpointed root its files are under (their names are relative to it)."""
    folder: str
    files: dict[str, GroupFile] = field(default_factory=dict)
    """Path relative to ``root`` (POSIX) -> what it was and is."""
    trees: set[str] = field(default_factory=set)
    """The checkpoints holding the files' old blobs (kept named while the group is pending)."""
    state: GroupState = "pending"
    message: str | None = None
    reported: bool = False
    """The agent was told it was rejected."""
    sessions: list[str] = field(default_factory=list)
    """Every session that may have made it, when which one did is not certain (turns of
    several ran then: ``review.finding.attribution``); empty: ``session_id`` did."""
    _folders: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    """Folder of ``files`` (relative, POSIX, "" for the root) -> how many: what a later look
    of the burst needs of them, kept as they change (``files`` changes through the methods
    below only)."""

    def __post_init__(self) -> None:
        for rel in self.files:
            folder = folder_of(rel)
            self._folders[folder] = self._folders.get(folder, 0) + 1

    def add(self, changes: Iterable[Change], tree: str) -> None:
        """Fold a look's changes in: a file seen before keeps what it was before the group."""
        self.trees.add(tree)
        for change in changes:
            rel = relative(change.path, self.root)
            known = self.files.get(rel)
            first = known if known is not None else GroupFile(change.old, change.old_mode, None)
            now = GroupFile(first.before, first.mode, change.new)
            if now.before == now.after:  # made and removed again, or put back: nothing to review
                self._pop(rel)
            else:
                self._put(rel, now)

    def take(self, other: ReviewGroup, paths: Iterable[Path]) -> None:
        """Files of ``other``, a group of the same burst, become this one's as they were (and
        the checkpoints holding their old blobs with them)."""
        for path in paths:
            rel = relative(path, self.root)
            entry = other._pop(rel)
            if entry is not None:
                self._put(rel, entry)
        self.trees |= other.trees

    def keep_only(self, rels: Iterable[str]) -> None:
        """Its files are only ``rels`` (of its own) from now on."""
        kept = {rel: self.files[rel] for rel in rels}
        for rel in [rel for rel in self.files if rel not in kept]:
            self._pop(rel)

    def in_folder(self, folder: str) -> int:
        """How many of its files are right in ``folder`` (relative to its root, POSIX)."""
        return self._folders.get(folder, 0)

    def folders(self) -> list[str]:
        """The folders its files are right in (relative to its root, POSIX)."""
        return list(self._folders)

    def files_in(self, folders: set[str]) -> list[str]:
        """Its files right in ``folders`` (relative to its root, POSIX)."""
        return [rel for rel in self.files if folder_of(rel) in folders]

    def _put(self, rel: str, entry: GroupFile) -> None:
        if rel not in self.files:
            folder = folder_of(rel)
            self._folders[folder] = self._folders.get(folder, 0) + 1
        self.files[rel] = entry

    def _pop(self, rel: str) -> GroupFile | None:
        entry = self.files.pop(rel, None)
        if entry is not None:
            folder = folder_of(rel)
            left = self._folders[folder] - 1
            if left:
                self._folders[folder] = left
            else:
                del self._folders[folder]
        return entry

    def counts(self) -> dict[FileKind, int]:
        counts: dict[FileKind, int] = {"created": 0, "deleted": 0, "changed": 0}
        for entry in self.files.values():
            counts[entry.kind] += 1
        return counts

    @property
    def title(self) -> str:
        counts = self.counts()
        where = _shown_folder(self.folder, self.root)
        total = sum(counts.values())
        only = [kind for kind, n in counts.items() if n]
        files = "file" if total == 1 else "files"
        if len(only) == 1:
            word = {"created": f"new {files}", "deleted": f"{files} deleted"}
            return f"{total:,} {word.get(only[0], f'{files} changed')} in {where}"
        parts = ", ".join(f"{n:,} {kind}" for kind, n in counts.items() if n)
        return f"{total:,} {files} in {where} ({parts})"

    def view(self) -> dict[str, Any]:
        counts: dict[str, int] = {kind: n for kind, n in self.counts().items()}
        shown: dict[str, Any] = {
            "groupId": self.group_id,
            "sessionId": self.session_id,
            "toolCallId": self.tool_call_id,
            "uri": path_to_uri(self.folder),
            "path": self.folder,
            "title": self.title,
            **counts,
            "state": self.state,
        }
        if self.message:
            shown["message"] = self.message
        if self.sessions:
            shown["sessions"] = list(self.sessions)
        return shown

    def file_views(self) -> list[dict[str, Any]]:
        root = Path(self.root)
        return [
            {"uri": path_to_uri(str(root / rel)), "path": str(root / rel), "change": entry.kind}
            for rel, entry in sorted(self.files.items())
        ]

    # -- kept across restarts --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "toolCallId": self.tool_call_id,
            "root": self.root,
            "folder": self.folder,
            "trees": sorted(self.trees),
            "files": [[rel, f.before, f.mode, f.after] for rel, f in self.files.items()],
            **({"sessions": self.sessions} if self.sessions else {}),
        }

    @classmethod
    def from_json(cls, group_id: str, data: Any) -> ReviewGroup:
        """A group kept by an earlier run (``ValueError`` when the entry is not one we wrote)."""
        if not isinstance(data, dict) or not isinstance(data.get("files"), list):
            raise ValueError("not a stored group")
        files = {}
        for rel, before, mode, after in data["files"]:
            if not isinstance(rel, str) or not all(_id(v) for v in (before, mode, after)):
                raise ValueError("a stored group's file is not one we wrote")
            files[rel] = GroupFile(before, mode, after)
        call = data.get("toolCallId")
        return cls(
            group_id,
            str(data["sessionId"]),
            call if isinstance(call, str) else None,
            str(data["root"]),
            str(data["folder"]),
            files,
            {str(t) for t in data.get("trees", [])},
            sessions=[str(s) for s in data.get("sessions", [])],
        )


def _id(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.isalnum())


def relative(path: Path, root: str) -> str:
    """``path`` relative to ``root`` (POSIX), without pathlib's parsing: a burst's looks ask
    it of every file."""
    text, base = str(path), root.rstrip("/") + "/"
    if text.startswith(base):
        return text[len(base) :]
    return path.relative_to(root).as_posix()


def folder_of(rel: str) -> str:
    """The folder of a file relative to a root (POSIX, \"\" for the root itself)."""
    return rel.rpartition("/")[0]


def _shown_folder(folder: str, root: str) -> str:
    rel = Path(folder).relative_to(root).as_posix() if folder != root else ""
    return f"{rel}/" if rel else f"{Path(root).name or root}/ (the workspace's top folder)"
