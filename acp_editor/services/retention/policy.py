"""Which checkpoints undo still needs: pure decisions on turn times, no I/O.

Undoing turn N puts every file of the root back as it was before turn N, so everything done
since goes with it: an old turn is rarely worth undoing. What is kept, with nothing to set:

- every turn of a session used in the last 14 days (two weeks: work left over a weekend or a
  holiday comes back whole, however long the session);
- the last 20 turns of any other session used in the last 90 days (a long conversation's recent
  steps; a session left that long is not worth undoing into, and old sessions would otherwise
  pile up);
- the last 20 turns of the root's last session, however old (what ``acp.restoreCheckpoint``
  without a session reaches after a restart);
- the trees of pending review groups (``refs/acp/held/``), always.

Everything kept for a root that is gone goes once it has been missing for 7 days (a drive or a
network share away for a while comes back with its checkpoints), its sessions' worktrees and the
record of which files its turns changed with it; a store whose root nothing names any more goes
after 90 days without use. Each store is pruned at most once a day.

A session's own worktree holds work not brought back yet: while its repository is there (or not
known) it is never removed here, only when the user discards it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from acp_editor.services.retention.plumbing import TurnRef, session_ref

if TYPE_CHECKING:
    from acp_editor.services.retention.inventory import Kept

DAY = 86400.0


@dataclass(frozen=True)
class Limits:
    turns: int = 20
    """Turns kept of a session no longer recent."""
    recent: float = 14 * DAY
    """A session used within this keeps every turn."""
    session: float = 90 * DAY
    """A session unused for longer loses its turns (unless it is the root's last)."""
    missing: float = 7 * DAY
    """A root missing for longer loses everything kept for it."""
    every: float = DAY
    """A store is pruned at most this often (``acp-editor state clean --prune`` forces it)."""


def doomed(
    turns: Sequence[TurnRef], last_session: str | None, now: float, limits: Limits
) -> list[TurnRef]:
    """The turns undo no longer needs (``last_session``: the root's last, as ACP names it)."""
    last = session_ref(last_session) if last_session is not None else None
    by_session: dict[str, list[TurnRef]] = {}
    for turn in turns:
        by_session.setdefault(turn.session, []).append(turn)
    gone: list[TurnRef] = []
    for session, its in by_session.items():
        used = max(t.when for t in its)
        if now - used <= limits.recent:
            continue
        newest = sorted(its, key=lambda t: t.number, reverse=True)
        if now - used <= limits.session or session == last:
            gone += newest[limits.turns :]
        else:
            gone += newest
    return sorted(gone, key=lambda t: (t.when, t.session, t.number))


Fate = Literal["prune", "remove"]


def fate(kept: Kept, missing_since: float | None, now: float, limits: Limits) -> Fate:
    """Whether what is kept for a root is pruned, or goes whole (``missing_since``: when the
    root was first found gone, None while it is there)."""
    if kept.root is not None:
        gone_long = missing_since is not None and now - missing_since >= limits.missing
        return "remove" if kept.exists is False and gone_long else "prune"
    used = kept.last_used
    idle = used is None or now - used > limits.session
    return "remove" if idle and not (kept.pending or kept.groups or kept.worktrees) else "prune"
