"""A hypothesis state machine that drives one real sidecar (``python -m acp_editor``) with two
sessions of the scripted agent (``--scripts``: each turn does the file work the machine lists),
and once a step starts it a third in a worktree of its own, through an editor that checks
document versions. After every step it holds the workspace to the simple model of
``review_model.py``: every file, open buffer and worktree file holds exactly what the model
says, every pending hunk belongs to the session that made the change, no ``workspace/applyEdit``
is refused or sent twice for one change, and a question answered "keep" changes nothing.

Used by ``test_lsp_review_model.py`` (a bounded run in the suite) and ``bench/review_model.py``
(a long run).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto
from acp_editor.text.edits import apply_edits
from acp_editor.text.positions import uri_to_path
from tests.e2e_lsp.review_model import FIRST, PATHS, SESSIONS, WORKTREE, Model, Worktree, initial
from tests.support.lsp import Editor, choose_kind, start_editor
from tests.support.repository import git

T = TypeVar("T")
SETTLE_S = 5.0
"""How long the sidecar may take to bring the workspace where the model says (it is usually
there when the step's request is answered; a change found by the file watch comes later)."""
VIAS = ("fs", "disk", "both")
COUNTS = {"examples": 0, "steps": 0}
"""What this process ran: examples started, steps checked (``bench/review_model.py``)."""


class ReviewMachine(RuleBasedStateMachine):
    leave_out: frozenset[str] = frozenset()
    """What a run leaves out, to show one bug at a time (``bench/review_model.py --leave-out``):
    ``both`` (writes to the disk and through ``fs/*``), ``undo``, ``decide``, ``open``,
    ``worktree``."""

    def __init__(self) -> None:
        super().__init__()
        COUNTS["examples"] += 1
        self.started = False
        self.loop = asyncio.new_event_loop()
        self.tmp = Path(tempfile.mkdtemp(prefix="review-model-"))
        self.root = self.tmp / "work space"
        self.root.mkdir()
        for name in FIRST:
            (self.root / name).write_text(initial(name), encoding="utf-8")
        git(self.root, "init", "-q", "-b", "main")  # a worktree session needs a repository
        git(self.root, "add", ".")
        git(self.root, "commit", "-qm", "first")
        self.own: Path | None = None
        """The worktree session's own folder, once it started."""
        self.model = Model()
        self.answers: list[str] = []
        """How the next questions are answered: ``allow_once``, ``reject_once``, ``keep``."""
        self.edits: list[tuple[str, str]] = []
        """Every ``workspace/applyEdit`` per document: (uri, "applied" or why it was refused)."""
        self.seen_edits = 0
        self.editor = self.run(self._start())
        self.sessions = [self.run(self._new_session()) for _ in range(SESSIONS)]

    # -- plumbing -------------------------------------------------------------------------------

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(coro, 60))

    async def _start(self) -> Editor:
        env = {**os.environ, "ACP_EDITOR_STATE_DIR": str(self.tmp / "state")}
        editor = await start_editor(self.root, agent_flags=("--scripts",), env=env)
        editor.answer_permission = self._answer
        features = editor.client.protocol.fm._features
        del features[lsp.WORKSPACE_APPLY_EDIT]  # ours checks versions and records each edit
        editor.client.feature(lsp.WORKSPACE_APPLY_EDIT)(lambda p: self._apply(p))
        return editor

    async def _new_session(self) -> str:
        result = await self.editor.request(proto.ACP_NEW_SESSION, {})
        return str(result["sessionId"])

    def _answer(self, params: dict[str, Any]) -> Any:
        answer = self.answers.pop(0) if self.answers else "unexpected"
        assert answer != "unexpected", f"a question nobody expected: {params}"
        if answer == "keep":  # the undo question: its first action keeps the files
            return params["actions"][0]
        return choose_kind(params, answer)

    def _apply(self, params: dict[str, Any]) -> dict[str, Any]:
        """An editor that checks versions (as VS Code and eglot do) and can delete files."""
        editor, edit = self.editor, params["edit"]
        for change in edit.get("documentChanges", []):
            uri = change.get("textDocument", {}).get("uri") or change.get("uri")
            if "textDocument" not in change:
                if change.get("kind") == "delete":  # VS Code removes the file, closes its buffer
                    Path(uri_to_path(uri) or "").unlink(missing_ok=True)
                    editor.docs.pop(uri, None)
                    self._did_close(uri)
                self.edits.append((uri, "applied"))
                continue
            wanted, held = change["textDocument"].get("version"), editor.docs.get(uri)
            if held is None or (wanted is not None and wanted != held[1]):
                reason = f"version {wanted} wanted, the buffer has {held and held[1]}"
                self.edits.append((uri, reason))
                return {"applied": False, "failureReason": reason}
            self._edit(uri, change["edits"])
        for uri, edits in (edit.get("changes") or {}).items():
            if uri not in editor.docs:
                self.edits.append((uri, "not open"))
                return {"applied": False, "failureReason": f"{uri} is not open"}
            self._edit(uri, edits)
        return {"applied": True}

    def _edit(self, uri: str, edits: list[dict[str, Any]]) -> None:
        text, version = self.editor.docs[uri]
        self._set(uri, apply_edits(text, edits), version + 1)
        self.edits.append((uri, "applied"))

    def _set(self, uri: str, text: str, version: int) -> None:
        self.editor.docs[uri] = (text, version)
        self.editor.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def _did_close(self, uri: str) -> None:
        self.editor.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )

    def teardown(self) -> None:
        try:
            self.run(self.editor.close())
        finally:
            self.loop.close()
            shutil.rmtree(self.tmp, ignore_errors=True)

    # -- the agents -----------------------------------------------------------------------------

    @rule(data=st.data())
    def agent_turn(self, data: st.DataObject) -> None:
        """A session's turn writes (fs/*, the disk, or both), creates or deletes a file or two."""
        model = self.model
        session = data.draw(st.integers(0, SESSIONS - 1), label="session")
        names = data.draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=2, unique=True))
        plans: list[tuple[str, str, str | None, bool, str | None]] = []
        for name in names:
            exists = model.disk[name] is not None
            deletable = exists and name not in model.buffers
            op = data.draw(st.sampled_from(["write", "delete"] if deletable else ["write"]))
            slot = data.draw(st.sampled_from([0, 1])) if exists and op == "write" else None
            vias = [v for v in VIAS if v not in self.leave_out]
            via = data.draw(st.sampled_from(vias)) if op == "write" else None
            answer = data.draw(st.sampled_from([None, None, "allow_once", "reject_once"]))
            plans.append((name, op, via, slot == 1, answer))
        ops, changes = [], []
        for name, op, via, second, answer in plans:
            new = None if op == "delete" else model.written(name, int(second), session)
            if model.conflicts(name, new):
                continue  # the user's typing is never where an agent writes (see the model)
            ops.append({"op": op, "path": name, "text": new, "via": via, "ask": bool(answer)})
            if answer:
                self.answers.append(answer)
            if answer == "reject_once":
                break  # the agent stops its turn there
            changes.append((name, new))
        if not ops:
            return
        turn = model.begin_turn(session)
        text = "script " + json.dumps(ops)
        result = self.run(self.editor.request(proto.ACP_PROMPT, self._prompt(session, text)))
        assert result["stopReason"] == "end_turn", result
        assert not self.answers, f"questions expected and not asked: {self.answers}"
        for name, new in changes:
            model.agent_change(turn, session, name, new)
        self._check_edits_once(changes)

    def _prompt(self, session: int, text: str) -> dict[str, Any]:
        return {"sessionId": self.sessions[session], "prompt": text}

    def _check_edits_once(self, changes: list[tuple[str, str | None]]) -> None:
        """One change of an open file is one ``workspace/applyEdit`` (issue 35, bug 3)."""
        self.run(self._settle())
        sent = self.edits[self.seen_edits :]
        for name, _ in changes:
            uri = self.editor.uri(name)
            count = sum(1 for u, _ in sent if u == uri)
            assert count <= 1, f"{count} applyEdits for one change of {name}: {sent}"

    # -- the user -------------------------------------------------------------------------------

    def _closed(self) -> list[str]:
        return [p for p in PATHS if p not in self.model.buffers and self.model.disk[p]]

    @precondition(lambda self: "open" not in self.leave_out and self._closed())
    @rule(data=st.data())
    def open_buffer(self, data: st.DataObject) -> None:
        closed = self._closed()
        name = data.draw(st.sampled_from(closed))
        text = self.model.disk[name] or ""
        self.editor.open(name, text)
        self.model.buffers[name] = text

    @precondition(lambda self: self.model.buffers)
    @rule(data=st.data())
    def close_buffer(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(self.model.buffers)))
        uri = self.editor.uri(name)
        self.editor.docs.pop(uri, None)
        self._did_close(uri)
        del self.model.buffers[name]

    @precondition(lambda self: self.model.buffers)
    @rule(data=st.data())
    def type_unsaved(self, data: st.DataObject) -> None:
        """The user types a line at the top of a buffer and does not save."""
        name = data.draw(st.sampled_from(sorted(self.model.buffers)))
        self.model.values += 1
        line = f"# typed {self.model.values}\n"
        uri = self.editor.uri(name)
        text, version = self.editor.docs[uri]
        self._set(uri, line + text, version + 1)
        self.model.buffers[name] = line + self.model.buffers[name]

    @precondition(lambda self: "decide" not in self.leave_out and any(self.model.pending.values()))
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """Accept or reject every pending hunk of a file: one hunk by its command, more at once
        by ``acp/reviewDecide``."""
        files = [p for p in PATHS if self.model.pending[p]]
        name = data.draw(st.sampled_from(files))
        reject = data.draw(st.booleans(), label="reject")
        pending = self.run(self._pending_hunks())
        hunks = [h["hunkId"] for h in pending if h["path"] == self._path(name)]
        assert hunks, f"{name} has changes to review and no pending hunk"
        if len(hunks) == 1:
            command = "acp.rejectHunk" if reject else "acp.acceptHunk"
            result = self.run(self.editor.command(command, hunks[0]))
        else:
            params = {"decision": "reject" if reject else "accept", "uri": self.editor.uri(name)}
            result = self.run(self.editor.request(proto.ACP_REVIEW_DECIDE, params))
        states = {r["state"] for r in result["results"]}
        assert states == {"rejected" if reject else "accepted"}, result
        self.model.decide(name, reject)

    @precondition(lambda self: "undo" not in self.leave_out and self.model.undoable())
    @rule(data=st.data())
    def undo_turn(self, data: st.DataObject) -> None:
        """``acp.restoreCheckpoint`` of any session's turn; or the question answered "keep"."""
        session, turn = data.draw(st.sampled_from(self.model.undoable()))
        keep = data.draw(st.booleans(), label="keep")
        args = [turn.number, not keep, self.sessions[session]]
        if keep:
            self.answers.append("keep")
        result = self.run(self.editor.command("acp.restoreCheckpoint", *args))
        assert not self.answers, "the undo did not ask"
        assert result["done"] is not keep, result
        if keep:
            return
        files, shared = self.model.undo(session, turn)
        restored = {Path(p).name for p in result["restored"]}
        assert restored <= files, f"restored {restored}, the turns changed {files}"
        assert {Path(p).name for p in result["shared"]} == shared & restored, result

    # -- a session in a worktree of its own ---------------------------------------------------

    @precondition(lambda self: "worktree" not in self.leave_out and self.model.worktree is None)
    @rule()
    def worktree_session(self) -> None:
        opened = self.run(self.editor.request(proto.ACP_NEW_SESSION, {"worktree": True}))
        self.sessions.append(str(opened["sessionId"]))
        self.own = Path(opened["snapshot"]["worktree"])
        self.model.worktree = Worktree(dict(self.model.disk), dict(self.model.disk))

    def _working_tree(self) -> bool:
        tree = self.model.worktree
        return tree is not None and not tree.discarded

    @precondition(lambda self: self._working_tree())
    @rule(data=st.data())
    def worktree_turn(self, data: st.DataObject) -> None:
        """The worktree session changes its own files (the workspace's stay as they are)."""
        tree = self.model.worktree
        assert tree is not None
        name = data.draw(st.sampled_from(PATHS), label="worktree file")
        exists = tree.files[name] is not None
        op = data.draw(st.sampled_from(["write", "delete"] if exists else ["write"]))
        new = None
        if op == "write":
            slot = data.draw(st.sampled_from([0, 1])) if exists else None
            old, self.model.disk[name] = self.model.disk[name], tree.files[name]
            new = self.model.written(name, slot, WORKTREE)
            self.model.disk[name] = old
        via = data.draw(st.sampled_from(["fs", "disk"]))
        ops = [{"op": op, "path": name, "text": new, "via": via}]
        prompt = self._prompt(WORKTREE, "script " + json.dumps(ops))
        result = self.run(self.editor.request(proto.ACP_PROMPT, prompt))
        assert result["stopReason"] == "end_turn", result
        tree.files[name] = new

    @precondition(lambda self: self._working_tree())
    @rule()
    def bring_back(self) -> None:
        params = {"sessionId": self.sessions[WORKTREE]}
        result = self.run(self.editor.request(proto.ACP_BRING_BACK, params))
        brought, left = self.model.bring_back()
        assert {Path(p).name for p in result["brought"]} == brought, (result, brought, left)
        assert {Path(e["path"]).name for e in result["left"]} == left, (result, brought, left)

    @precondition(lambda self: self._working_tree())
    @rule()
    def discard_worktree(self) -> None:
        tree = self.model.worktree
        assert tree is not None
        result = self.run(self.editor.command("acp.discardWorktree", self.sessions[WORKTREE], True))
        assert result["discarded"] is True, result
        assert {Path(p).name for p in result["lost"]} == set(tree.changed()), result
        tree.discarded = True

    # -- the checks -----------------------------------------------------------------------------

    @invariant()
    def holds_what_the_model_says(self) -> None:
        COUNTS["steps"] += self.started  # not the check before the first step
        self.started = True
        self.run(self._settle())

    def _path(self, name: str) -> str:
        return str(self.root / name)

    async def _pending_hunks(self) -> list[dict[str, Any]]:
        snapshot = await self.editor.request(proto.ACP_SNAPSHOT, {})
        return [h for h in snapshot["review"] if h["state"] == "pending"]

    async def _settle(self) -> None:
        """Wait until the workspace is what the model says, else fail saying how it is not."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_S
        while problems := await self._differences():
            if loop.time() > deadline:
                raise AssertionError("\n".join(problems))
            await asyncio.sleep(0.05)  # the poll's interval: no event says "settled"
        self.seen_edits = len(self.edits)

    async def _differences(self) -> list[str]:
        model, problems = self.model, []
        refused = [e for e in self.edits if e[1] != "applied"]
        assert not refused, f"workspace/applyEdit refused: {refused}"
        for name in PATHS:
            path = self.root / name
            disk = path.read_text(encoding="utf-8") if path.exists() else None
            if disk != model.disk[name]:
                problems.append(f"{name} on disk: {disk!r}, the model says {model.disk[name]!r}")
            held = self.editor.docs.get(self.editor.uri(name))
            want = model.buffers.get(name)
            if want == "" and held is None and model.disk[name] is None:
                del model.buffers[name]  # an editor may close the buffer of a removed file
            elif (held and held[0]) != want:
                problems.append(f"{name} in its buffer: {held!r}, the model says {want!r}")
        tree = model.worktree
        if tree is not None and not tree.discarded and self.own is not None:
            for name in PATHS:
                path = self.own / name
                own = path.read_text(encoding="utf-8") if path.exists() else None
                if own != tree.files[name]:
                    problems.append(f"{name} in the worktree: {own!r}, not {tree.files[name]!r}")
        by_file: dict[str, set[str]] = {}
        for hunk in await self._pending_hunks():
            problems += [f"a hunk of either session: {hunk}"] if "sessions" in hunk else []
            by_file.setdefault(Path(hunk["path"]).name, set()).add(hunk["sessionId"])
        for name in PATHS:
            whose = {self.sessions[s] for s in model.pending_sessions(name)}
            if by_file.get(name, set()) != whose:
                problems.append(f"{name}'s pending hunks are of {by_file.get(name)}, not {whose}")
        return problems


# -- steps given, not drawn ---------------------------------------------------------------------

Draw = Any
"""A value a rule would draw, or a callable that makes it from the machine (a turn to undo)."""


class Given:
    """Stands for hypothesis' ``data`` in a rule: hands out the values given, in order."""

    def __init__(self, machine: ReviewMachine, values: list[Draw]) -> None:
        self.machine, self.values = machine, list(values)

    def draw(self, _strategy: object, label: str | None = None) -> Any:
        value = self.values.pop(0)
        return value(self.machine) if callable(value) else value


def turn_of(session: int, number: int) -> Draw:
    """The draw of ``undo_turn`` that picks ``session``'s turn ``number``."""
    return lambda machine: (session, machine.model.turns[session][number - 1])


def replay(steps: list[tuple[str, list[Draw]]]) -> None:
    """Run ``steps`` (a rule's name and its draws) on a new machine, checking after each."""
    machine = ReviewMachine()
    try:
        machine.holds_what_the_model_says()
        for name, draws in steps:
            rule = getattr(machine, name)
            rule(Given(machine, draws)) if draws else rule()  # a rule that draws nothing
            machine.holds_what_the_model_says()
    finally:
        machine.teardown()
