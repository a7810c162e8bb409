"""The simple model of review the model-based test (``test_lsp_review_model.py``) holds the real
sidecar to: what each file and each open buffer holds, whose changes wait for review in each
file, and what undoing a turn puts back. Pure, no I/O.

Files are a fixed few, each made of a header, two *slots* an agent changes and lines between
them nobody changes, so that every change of a slot is one hunk and the user's typing (a line
at the top of a buffer) never touches an agent's lines: merging is then exact, and the model
can say what a buffer holds with ``merge3`` (docs/protocol.md: "merged three ways").

What the model promises, from docs/protocol.md, and where the docs are silent the user's
expectation (marked *chosen*):

* An agent's write or delete changes the disk; an open buffer gets the change merged in, the
  user's unsaved lines kept; a file an agent deleted stays open with its text (agents here
  delete only closed files; a worktree's deletion is brought back into an open one).
* Pending review, per file: the sessions whose changes since the file's last decision wait.
  Rejecting every hunk of a file puts back its text from before them (a created file is
  removed); accepting keeps it. An open buffer follows through ``workspace/applyEdit``; the
  buffer of a file a reject removes holds only the user's own lines (or is closed: *chosen*,
  as docs/protocol.md promises a reject "through workspace/applyEdit when the file is open").
* Undoing turn T of session S: every file S's turns from T on changed is put back as it was
  before T (created files removed); another session's files are left as they are, even those
  another session's *undo* or the user's *reject* changed since (issue 35, bug 1). A file
  S's turns changed that another session's turn, undo or rejected change changed too since T
  is put back and named in ``shared`` (putting it back changes theirs too). The pending
  hunks of the changes the undo took away (made from T on, by any session) are withdrawn; those
  of changes made before T stay pending, as their lines are still in the file (*chosen*: the docs
  say "Pending review hunks of those files are withdrawn", but withdrawing a change that stays
  would accept it unseen). Undoing a turn undoes the session's later turns too; a turn whose
  undo would change nothing is not undone here (the sidecar need not ask).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from acp_editor.text.merge import merge3

PATHS = ("a.py", "b.py", "c.md")
WORKTREE = 2
"""The index of the session in a worktree of its own, after the two of the workspace."""
FIRST = ("a.py", "b.py")
"""The files that exist when an example starts (``c.md`` is made by agents)."""
SESSIONS = 2


def render(name: str, slots: tuple[str, str]) -> str:
    return f"# {name}\n{slots[0]}\n# -- {name}: between --\n{slots[1]}\n# -- {name}: end --\n"


def initial(name: str) -> str:
    return render(name, (f"first = '{name}'", f"second = '{name}'"))


@dataclass
class Turn:
    number: int
    """The session's turn number, as ``acp.restoreCheckpoint`` names it (1 is its first)."""
    start: int
    """When it started, in the model's clock (one tick per turn)."""
    before: dict[str, str | None]
    """Every file as it was before the turn (its checkpoint)."""
    changed: set[str] = field(default_factory=set)
    undone: bool = False


@dataclass(frozen=True)
class Pending:
    session: int
    at: int
    """The clock of the turn that made the change."""


@dataclass
class Worktree:
    """A session in a worktree of its own: its files, and what they were at its start or its
    last bring-back."""

    files: dict[str, str | None]
    since: dict[str, str | None]
    discarded: bool = False

    def changed(self) -> list[str]:
        return [name for name in PATHS if self.files[name] != self.since[name]]


@dataclass
class Model:
    disk: dict[str, str | None] = field(
        default_factory=lambda: {p: initial(p) if p in FIRST else None for p in PATHS}
    )
    buffers: dict[str, str] = field(default_factory=dict)
    pending: dict[str, list[Pending]] = field(default_factory=lambda: {p: [] for p in PATHS})
    review_base: dict[str, str | None] = field(default_factory=dict)
    """A file with pending changes: its text before them."""
    turns: list[list[Turn]] = field(default_factory=lambda: [[] for _ in range(SESSIONS + 1)])
    """Each session's turns; the worktree session's are its bring-backs (never undone here)."""
    worktree: Worktree | None = None
    outside: list[tuple[int, int, str]] = field(default_factory=list)
    """Changes of a session's files made outside its turns, as (clock, session, file): its
    changes rejected, its turn undone. For another session's turn begun before, the file is
    then another session's change too (``shared`` when that turn is undone)."""
    clock: int = 0
    values: int = 0
    """Every slot value an agent writes is new, so no change is ever a no-op."""

    # -- agents ---------------------------------------------------------------------------------

    def new_value(self, session: int) -> str:
        self.values += 1
        return f"v{self.values} = 's{session}'"

    def written(self, name: str, slot: int | None, session: int) -> str:
        """The text an agent writes to ``name``: ``slot`` changed (a new file: both slots)."""
        old = self.disk[name]
        if old is None or slot is None:
            return render(name, (self.new_value(session), self.new_value(session)))
        lines = old.splitlines(keepends=True)
        slots = [lines[1].rstrip("\n"), lines[3].rstrip("\n")]
        slots[slot] = self.new_value(session)
        return render(name, (slots[0], slots[1]))

    def conflicts(self, name: str, new: str | None) -> bool:
        """Would an agent's change of ``name`` to ``new`` overlap the user's unsaved lines?"""
        buffer = self.buffers.get(name)
        if buffer is None or new is None:
            return False
        return bool(merge3(self.disk[name] or "", buffer, new).conflicts)

    def begin_turn(self, session: int) -> Turn:
        self.clock += 1
        turn = Turn(len(self.turns[session]) + 1, self.clock, dict(self.disk))
        self.turns[session].append(turn)
        return turn

    def agent_change(self, turn: Turn, session: int, name: str, new: str | None) -> None:
        if not self.pending[name]:
            self.review_base[name] = self.disk[name]
        self.pending[name].append(Pending(session, turn.start))
        turn.changed.add(name)
        self._change(name, new, by_agent=True)

    def _change(self, name: str, new: str | None, by_agent: bool = False) -> None:
        """The disk changes; an open buffer gets the change merged into its own text. A file
        an agent deleted (a worktree's deletion brought back) stays open with its text
        (docs/protocol.md: "saving it brings the file back")."""
        old = self.disk[name]
        self.disk[name] = new
        if name in self.buffers and not (by_agent and new is None):
            self.buffers[name] = merge3(old or "", self.buffers[name], new or "").text

    # -- the user -------------------------------------------------------------------------------

    def pending_sessions(self, name: str) -> set[int]:
        return {p.session for p in self.pending[name]}

    def decide(self, name: str, reject: bool) -> None:
        if reject:
            self.outside += [(self.clock, s, name) for s in sorted(self.pending_sessions(name))]
            self._change(name, self.review_base[name])
        self.pending[name] = []

    def undoable(self) -> list[tuple[int, Turn]]:
        """Turns not undone yet whose undo would change a file (with the session's later
        turns')."""
        return [
            (s, t)
            for s, turns in enumerate(self.turns)
            for t in turns
            if s < SESSIONS and not t.undone and self._would_change(t, turns[t.number - 1 :])
        ]

    def _would_change(self, turn: Turn, later: list[Turn]) -> bool:
        """Would undoing ``turn`` change a file? (When none, the undo need not ask.)"""
        files = set().union(*(t.changed for t in later))
        return any(self.disk[name] != turn.before[name] for name in files)

    def undo(self, session: int, turn: Turn) -> tuple[set[str], set[str]]:
        """Undo ``turn`` of ``session`` (and its later ones): the files put back, and of those
        the ones another session's turn changed too since."""
        later = [t for t in self.turns[session] if t.number >= turn.number]
        files = set().union(*(t.changed for t in later))
        shared = {
            name
            for s, turns in enumerate(self.turns)
            if s != session
            for t in turns
            if t.start > turn.start
            for name in t.changed & files
        }
        shared |= {n for at, s, n in self.outside if s != session and at >= turn.start} & files
        restored = {name for name in files if self.disk[name] != turn.before[name]}
        self.outside += [(self.clock, session, name) for name in sorted(restored)]
        for name in sorted(files):
            self._change(name, turn.before[name])
            self.pending[name] = [p for p in self.pending[name] if p.at < turn.start]
        for t in later:
            t.undone = True
        return files, shared

    # -- a session in a worktree of its own ---------------------------------------------------

    def bring_back(self) -> tuple[set[str], set[str]]:
        """The worktree's changes since its start or last bring-back, merged three ways into the
        workspace as its review (docs/protocol.md, "Sessions in a worktree of their own"): the
        files brought, and those left as the user has them (changed where it changed, deleted
        on one side and changed on the other). A file left is still the session's change not
        brought back: left again next time, lost when the worktree is discarded."""
        tree = self.worktree
        assert tree is not None
        brought, left = set(), set()
        self.clock += 1
        turn = Turn(len(self.turns[WORKTREE]) + 1, self.clock, dict(self.disk), undone=True)
        for name in tree.changed():
            base, mine, theirs = tree.since[name], self.disk[name], tree.files[name]
            if mine in (base, theirs):
                new = theirs
            elif None in (base, mine, theirs):
                left.add(name)  # made or deleted on one side, changed on the other
                continue
            else:
                merged = merge3(base or "", mine or "", theirs or "")
                if merged.conflicts:
                    left.add(name)
                    continue
                new = merged.text
            if new == mine:
                continue  # the workspace has it already: nothing to bring, nothing left
            brought.add(name)
            tree.since[name] = tree.files[name]
            self.agent_change(turn, WORKTREE, name, new)
        self.turns[WORKTREE].append(turn)
        return brought, left
