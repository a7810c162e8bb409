"""Checkpoints of a workspace: what every file held at a moment, to find what changed since and
to put it back.

Built on git plumbing against a private object store (under the user's state directory, one per
workspace root), never the user's repository: a temporary index and tree objects, so the user's
index, HEAD, refs and stash are never touched, and it works as well in a folder that is not a
git repository. ``.gitignore`` files are honoured (and the repository's ``.git/info/exclude``),
files over ``SIZE_LIMIT`` are left out, and the index keeps each file's stat data, so a checkpoint
after a few changes only reads the files that changed.

The first checkpoint of a repository's top folder starts from the repository's own index
(``services.git.repository_index``), so it costs about what ``git status`` costs there instead of
hashing every file. The borrowed blobs stay the repository's: a checkpoint of a file whose blob
the repository later prunes (content that was only ever staged, then dropped, and
garbage-collected) can no longer be read back, and says so. Many new files are packed at once
(``services.git.blob_pack``). A checkpoint of a few files a file watch named is made from the last
one without the index (``services.git.tree_graft``): the index's next update takes them in.
"""

from __future__ import annotations

from acp_editor.services.git.reading import STATUS_LETTERS, Change, Reading, Status
from acp_editor.services.git.store import SIZE_LIMIT, CheckpointError, store_for
from acp_editor.services.git.taking import EMPTY_TREE, Taking

__all__ = [
    "EMPTY_TREE",
    "SIZE_LIMIT",
    "STATUS_LETTERS",
    "Change",
    "CheckpointError",
    "CheckpointStore",
    "Status",
    "store_for",
]


class CheckpointStore(Taking, Reading):
    """Checkpoints of one workspace root (see the module docstring): taken (``taking``), read
    and compared (``reading``), named so they are kept (``store``)."""
