"""Review: every change an agent makes, as hunks the user accepts or rejects one at a time.

Two rooms and their owner: ``queue`` keeps the hunks and groups and carries out the user's
decisions; ``finding`` finds what agents changed (their writes through us, checkpoints compared
when tool calls and turns end) and puts it in the queue. ``owner`` builds both and is all the
rest of the sidecar sees; ``undo`` and ``worktree_return`` use both rooms.
"""
