"""What acp-editor keeps on disk, kept within bounds.

Turn checkpoints (``services.git.checkpoints``), which files each turn changed, the last session of
each root and pending review grow with use; this package prunes them in the background
(``pruning``: which turns go is ``policy``), lists and cleans them for ``acp-editor state``
(``inventory``, ``command``), and runs git against a store for both (``plumbing``). Sessions'
own worktrees (``services.worktrees``) are listed, and go only with a repository gone for 7 days
or when the user says so. Only ever our own state directory: the user's repository, which a
store may borrow objects from, is never written.
"""
