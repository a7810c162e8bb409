"""What the editor side loads only after ``initialize`` is answered, and why.

Editors wait for the ``initialize`` answer before anything else (issue 36: start → answer within
60 ms of a bare pygls server). Answering needs the language server, the handlers registered
(they make the capabilities) and the editor's settings read; it needs none of the parts that
work later, and importing them cost more than pygls itself adds. So these are imported, and
built, at their first use, which is ``initialized`` at the latest:

* review (``review.owner.Review`` and all it builds: the queue, the turn watch, checkpoints,
  the file watch, bringing worktrees back): ``Late`` here, built at ``initialized`` when the
  pending review is opened (``EditorSide.open_review``) or when the first agent starts;
* sessions' worktrees (``services.worktrees``): in ``editor/worktree_sessions.py``'s methods;
* retention (``services.retention``): at ``initialized`` (``handlers/lifecycle.py``, background
  pruning) and when a session is deleted (``handlers/session_admin.py``);
* the workspace's file list (``services.workspace_files``): the first ``acp/findFiles``
  (``handlers/mentions.py``);
* the agent side (``agent.client``, the ACP link, the MCP SDK): when the first agent starts
  (``editor/build.py``'s ``start_acp_client``);
* what the parts loaded at the start use only when they work, imported in the function that
  uses it: the three-way merge and minimal edits (``editor/buffers/source.py``), hunks and
  patches for diff previews (``editor/show/wording.py``, ``structured_diffs.py``; ``difflib``
  with them: ``text/__init__.py`` imports none of its modules), ``tempfile`` (the first write,
  the editor-context socket's directory), ``hashlib`` (``storage.per_root``), ``ctypes`` (the
  first spawn, ``procs._preexec``).

``tests/e2e_lsp/test_lsp_start_imports.py`` fails when one of them is imported before the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from acp_editor.editor.agent_runner import ServerOptions
    from acp_editor.review.events import Listener
    from acp_editor.review.owner import Review
    from acp_editor.services.documents import DocumentSource

T = TypeVar("T")


class Late(Generic[T]):
    """A part built once, at its first use (calling it)."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self.built: T | None = None
        """The part, once built (None before: nothing of it to flush or forget)."""

    def __call__(self) -> T:
        if self.built is None:
            self.built = self._build()
        return self.built


def late_review(
    documents: DocumentSource, options: ServerOptions, listener: Listener
) -> Late[Review]:
    """The editor side's review, built at its first use in the review mode of that moment (the
    editor's settings may have changed it at ``initialize``)."""

    def build() -> Review:
        from acp_editor.review.owner import Review

        return Review(documents, options.agent.review_mode, listener)

    return Late(build)
