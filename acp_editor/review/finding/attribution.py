"""Who made a change found on disk when several sessions run turns at once.

One look at the disk finds every change since the last look of any session (``review.finding.turns``
keeps one "last seen" checkpoint per root), so each change is recorded once, and has to be given
to one session: the session whose running tool call names the file (its locations, a diff's
path, the path in its raw input: ``protocol.tool_call.paths_named``); else the only session with a
turn running; else nobody can say, and the change is recorded as "either": under the session
of the newest of those turns, with every session it may be of (``sessions`` on the hunk and the
group).
With one session running, everything it finds is its own, as before several could run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from acp_editor.services.git.checkpoints import Change


@dataclass(frozen=True)
class Claim:
    """A session with a turn running, as one look sees it."""

    session_id: str
    call: str | None
    """The tool call a change of this session found now goes to (None: the turn)."""
    named: frozenset[str] = frozenset()
    """The paths its running tool calls name (as the agent wrote them: absolute or relative)."""


class Claims(Protocol):
    """What the part that follows a session's tool calls (``review.finding.intake``) says of it."""

    def current(self) -> str | None:
        """The tool call a change found now is most likely of (None: none runs)."""
        ...

    def named(self, also: str | None) -> frozenset[str]:
        """The paths the session's running tool calls name, and those ``also`` names."""
        ...


def claims_of(
    looking: str | None, call: str | None, running: Sequence[tuple[str, Claims | None]]
) -> list[Claim]:
    """The sessions with turns running where a look found changes (``running``: each with what
    follows its tool calls, in the order their turns began). The looking one's changes go to
    ``call``, its look's tool call; alone, all it finds is its own, and nothing is asked."""
    if len(running) == 1 and running[0][0] == looking:
        return [Claim(running[0][0], call)]
    found = []
    for sid, claims in running:
        if claims is None:
            found.append(Claim(sid, call if sid == looking else None))
        elif sid == looking:
            found.append(Claim(sid, call, claims.named(call)))
        else:
            found.append(Claim(sid, claims.current(), claims.named(None)))
    return found


Owner = tuple[Claim, tuple[str, ...]]
"""Who a change goes to, and every session it may be of when that is not certain (else ())."""


def owner(path: Path, root: Path, claims: Sequence[Claim]) -> Owner:
    """Who made the change to ``path``, of ``claims`` in the order their turns began. Not
    certain: the newest turn's session, so that every look of a burst gives it the same one
    (its files found over several looks stay one group)."""
    if len(claims) == 1:
        return claims[0], ()
    names = {str(path)}
    if path.is_relative_to(root):
        names.add(path.relative_to(root).as_posix())
    naming = [c for c in claims if not names.isdisjoint(c.named)]
    if len(naming) == 1:
        return naming[0], ()
    among = naming or list(claims)
    return among[-1], tuple(sorted(c.session_id for c in among))


def by_owner(
    changes: Iterable[Change], root: Path, claims: Sequence[Claim]
) -> dict[Owner, list[Change]]:
    """A look's changes, by who they go to (in the order found)."""
    found: dict[Owner, list[Change]] = {}
    for change in changes:
        found.setdefault(owner(change.path, root, claims), []).append(change)
    return found
