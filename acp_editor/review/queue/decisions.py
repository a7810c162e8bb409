"""Carrying out the user's decision on pending hunks, a file at a time: its text rewritten, or
the file removed (a creation rejected).

Accepting an applied hunk or rejecting a held one changes nothing; rejecting an applied hunk
puts its old lines back and accepting a held one puts its new lines in, each found where
``review.queue.tracking`` knows it to be, else by its lines and context (``anchor.locate``),
refusing whenever that is not certain. The write goes through the ``DocumentSource``: an open file
is changed through the editor, undoable, its unsaved text kept. Rejections where another session
built on a hunk's lines go in the order that works, or are refused (``review.queue.overlaps``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor.errors import ResourceNotFound, RpcError
from acp_editor.review.queue.anchor import locate
from acp_editor.review.queue.overlaps import reject_in_order
from acp_editor.text.hunks import Hunk, apply_hunks

if TYPE_CHECKING:
    from acp_editor.review.queue.hunk import ReviewHunk, State
    from acp_editor.review.queue.tracking import Tracking
    from acp_editor.services.documents import DocumentSource


class FileDecisions:
    """Decides hunks one file at a time (the queue holds the lock that makes it one at a time)."""

    def __init__(
        self,
        documents: DocumentSource,
        tracking: Tracking,
        written: Callable[[Path, str | None], None],
        of_path: Callable[[str], list[ReviewHunk]],
    ) -> None:
        self.documents = documents
        self.tracking = tracking
        self._written = written
        """Told about every write made here (the disk watch must not take it for the agent's)."""
        self._of_path = of_path
        """One file's hunks, every session's (the queue's index)."""

    async def decide_all(self, hunks: list[ReviewHunk], accept: bool) -> list[dict[str, Any]]:
        """A decision on hunks of any files, one file after another; one result per hunk."""
        results: list[dict[str, Any]] = []
        for path, group in _by_path(hunks).items():
            results += await self._decide_file(Path(path), group, accept)
        return results

    async def _decide_file(
        self, path: Path, hunks: list[ReviewHunk], accept: bool
    ) -> list[dict[str, Any]]:
        """A decision on one file's hunks; rejections where another session built on a hunk's
        lines go in the order that works, or are refused (``review.queue.overlaps``)."""
        if accept or not any(h.conflicts_with for h in self._of_path(str(path))):
            return await self.decide(path, hunks, accept)

        async def decide(wave: list[ReviewHunk]) -> list[dict[str, Any]]:
            return await self.decide(path, wave, accept)

        return await reject_in_order(hunks, self._of_path(str(path)), decide)

    async def decide(
        self, path: Path, hunks: list[ReviewHunk], accept: bool
    ) -> list[dict[str, Any]]:
        results = [{"hunkId": h.hunk_id, "state": h.state} for h in hunks if h.state != "pending"]
        pending = [h for h in hunks if h.state == "pending"]
        # The text changes for applied hunks rejected (reverted) and held hunks accepted.
        changing = [h for h in pending if h.applied != accept]
        unchanged = [h for h in pending if h.applied == accept]
        done: list[ReviewHunk] = []
        if changing:
            done, failures = await self._rewrite(path, changing)
            results += failures
        state: State = "accepted" if accept else "rejected"
        for hunk in unchanged + done:
            hunk.state, hunk.message = state, None
            results.append({"hunkId": hunk.hunk_id, "state": state})
        return results

    async def _rewrite(
        self, path: Path, hunks: list[ReviewHunk]
    ) -> tuple[list[ReviewHunk], list[dict[str, Any]]]:
        """Swap each hunk's lines in the file's current text; what could not be done is reported."""
        failures: list[dict[str, Any]] = []

        def fail(hunk: ReviewHunk, message: str) -> None:
            hunk.message = message
            failures.append({"hunkId": hunk.hunk_id, "state": "pending", "error": message})

        try:
            text = await self.documents.read_text(path)
        except RpcError as exc:
            if not any(h.file_change == "deleted" for h in hunks):
                gone = isinstance(exc, ResourceNotFound)
                since = " (deleted since: reject its deletion with it)" if gone else ""
                for hunk in hunks:
                    fail(hunk, f"cannot read {path}: {exc.message}{since}")
                return [], failures
            text = ""  # rejecting a deletion: the file comes back (and changes before it go)
        self.tracking.know(path, text)
        new_text, done = text, []
        # Bottom-up, so a change never moves the lines of the hunks still to do in this batch;
        # a deletion first: the file's last change, what the others' lines are found in.
        order = sorted(hunks, key=lambda h: (h.file_change == "deleted", h.hint), reverse=True)
        for hunk in order:
            found = hunk.block
            put = hunk.anchor.old_lines if hunk.applied else hunk.anchor.new_lines
            at = self.tracking.exactly(hunk, new_text)
            if at is None and not hunk.exact and not hunk.lost:
                at = locate(new_text, found, hunk.anchor, hunk.hint)
            if at is None:
                verb = "reverted" if hunk.applied else "applied"
                fail(hunk, f"its lines were changed since, so it cannot be {verb} safely")
                continue
            swap = Hunk(at, list(found), at, list(put))
            new_text = apply_hunks(new_text, [swap], {0})  # right there: no second search
            done.append(hunk)
            self.tracking.shift(hunk, swap, path, new_text)

        if done and self._removes(path, new_text, done):
            removed = await self._remove(path, new_text, done, fail)  # a creation rejected
            return (done if removed else [], failures)
        if done and new_text != text:
            first = done[0]
            verb = "reject" if first.applied else "accept"
            try:
                await self.documents.write_text(
                    path,
                    new_text,
                    session_id=first.session_id,
                    tool_call_id=first.tool_call_id,
                    label=f"Review: {verb} {len(done)} agent change(s) in {path.name}",
                )
                self._written(path, new_text)
            except RpcError as exc:
                for hunk in done:
                    fail(hunk, f"the file could not be written: {exc.message}")
                return [], failures
        return done, failures

    def _removes(self, path: Path, left: str, done: list[ReviewHunk]) -> bool:
        """Whether rejecting ``done`` removes the file: a creation among them and nothing left,
        or only creations and what is left an open buffer's (the user's unsaved lines)."""
        if not left:
            return any(h.file_change == "created" for h in done)
        creations = all(h.file_change == "created" for h in done)
        return creations and str(path) in self.documents.held_paths()

    async def _remove(
        self, path: Path, keep: str, done: list[ReviewHunk], fail: Callable[[ReviewHunk, str], None]
    ) -> bool:
        """The file goes; an open buffer of it keeps ``keep``, the user's unsaved lines."""
        label = f"Review: reject the creation of {path.name}"
        try:
            await self.documents.remove(path, label=label, keep=keep)  # and an open buffer of it
        except OSError as exc:
            for hunk in done:
                fail(hunk, f"the file could not be removed: {exc}")
            return False
        self._written(path, None)
        return True


def _by_path(hunks: list[ReviewHunk]) -> dict[str, list[ReviewHunk]]:
    grouped: dict[str, list[ReviewHunk]] = {}
    for hunk in hunks:
        grouped.setdefault(hunk.path, []).append(hunk)
    return grouped
