"""The agent side's ``Frontend`` for an editor: each event to the part that shows it.

State changes go to the coalesced ``acp/sessionChanged`` stream (rich editors), tool calls to
follow-along, diff previews and work-done progress; questions, terminals, review and the agent's
exit to their own modules. Tool calls are read from the session state handed in with each change,
never copied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.agent.frontend import Frontend
from acp_editor.editor.lsp.coalesce import Coalescer
from acp_editor.editor.show.diffs import DiffPreviews
from acp_editor.editor.show.elicitation import Elicitation
from acp_editor.editor.show.follow import Follower, Jump
from acp_editor.editor.show.lineage import Lineage
from acp_editor.editor.show.markers import PlainMarkers
from acp_editor.editor.show.naming import SessionNames
from acp_editor.editor.show.progress import ToolProgress
from acp_editor.editor.show.questions import Questions
from acp_editor.editor.show.terminal_output import TerminalStreams
from acp_editor.protocol import editor as proto
from acp_editor.protocol import tool_call

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from acp_editor.agent.auth_methods import TerminalSignIn
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.buffers.review import EditorReview
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.editor.show.status import AgentStatuses
    from acp_editor.editor.show.transcript import Transcripts
    from acp_editor.review.owner import ReviewEvent
    from acp_editor.review.queue.hunk import ReviewHunk
    from acp_editor.services.documents import DocumentSource
    from acp_editor.session.state import SessionView


class EditorFrontend(Frontend):
    def __init__(
        self,
        channel: EditorChannel,
        documents: DocumentSource,
        review: EditorReview,
        statuses: AgentStatuses,
        transcripts: Transcripts | None = None,
        slot: AgentSlot | None = None,
        *,
        is_open: Callable[[Path], bool],
        worktree_of: Callable[[str, str | None], str | None],
    ) -> None:
        """``is_open``: whether the editor has a file open (follow-along counts its lines in
        the buffer); ``worktree_of``: where a session in a worktree of its own works."""
        self.channel = channel
        self.transcripts = transcripts
        self.review = review
        self.statuses = statuses
        self.coalescer = Coalescer(self._send_changes)
        self._origins: dict[str, tuple[str, str | None]] = {}
        """Each session's agent and working directory, as its state says (from its first
        change on: the agent side's, so right before the routing knows the session)."""
        self.worktree_of = worktree_of
        self.lineage = Lineage()
        """Which session started which (subagents), from the changes shown."""
        self.markers = PlainMarkers(channel, self.lineage)
        self.follow = Follower(
            channel,
            documents.read_text,
            self.coalescer.flush,
            self.lineage,
            is_open=is_open,
            front=(lambda: slot.current_session) if slot is not None else lambda: None,
            agent_of=self.agent_of,
        )
        self.diffs = DiffPreviews(channel, self.coalescer.flush, documents.read_text)
        self.progress = ToolProgress(channel)
        self.names = SessionNames(slot, statuses, self.lineage) if slot is not None else None
        """Which session and agent a plain editor's question or turn end is about."""
        self.questions = Questions(channel, documents.read_text, self.lineage, self.names)
        self.elicitation = Elicitation(channel)
        self.terminals = TerminalStreams(channel)
        self._followed: set[str] = set()  # review hunks already followed to
        self.observers: list[Callable[[SessionView, list[dict[str, Any]]], None]] = []
        """Told of every session change after it was shown (the editor-context calls look for
        the agent's late report of a call)."""
        self._terminal_calls: dict[tuple[str, str], str] = {}
        """(session, terminal id) -> the tool call showing it: where a plugin-less editor's
        progress shows the terminal's last line."""

    def flush(self, session_id: str | None = None) -> None:
        """Send buffered changes now (of one session, or all): before anything that refers to
        them, so the editor never sees an event before the state it is about."""
        if session_id is None:
            self.coalescer.flush_all()
        else:
            self.coalescer.flush(session_id)
            if self.transcripts is not None:
                self.transcripts.write(session_id)

    def turn_ended(self, session_id: str) -> None:
        """The turn is over (before the editor learns it): its last state goes out, and what
        shows a tool call as running stops."""
        self.flush(session_id)
        self.progress.turn_ended(session_id)
        self.review.groups.turn_ended(session_id)  # a plain editor: the turn's groups, told

    def close(self) -> None:
        if self.transcripts is not None:
            self.transcripts.close()
        self.coalescer.flush_all()
        self.follow.close()
        self.progress.close()
        self.review.groups.close()

    # -- state ----------------------------------------------------------------------------------

    def agent_of(self, session_id: str) -> str:
        """The id of the session's agent."""
        return self._origins.get(session_id, ("default", None))[0]

    def session_changed(self, state: SessionView, changes: list[dict[str, Any]]) -> None:
        session_id = state.session_id
        self._origins[session_id] = (state.agent, state.cwd)
        self.lineage.seen(session_id, state.parent)
        rich = self.channel.features.has(proto.FEATURE_STREAM)
        if rich:
            self.coalescer.add(session_id, changes)
        if self.transcripts is not None:
            self.transcripts.changed(session_id)
        progress = not rich and self.channel.features.work_done_progress
        for change in changes:  # once per update of a flood: the cheap tests first
            kind = change.get("type")
            if kind == "tool_call":
                fields = change["set"]
                if "locations" in fields:
                    self.follow.location(session_id, change["toolCallId"], fields["locations"])
                if "content" in fields or not rich:
                    self._tool_call_changed(state, change, fields, progress)
            elif kind == "tool_call_content":
                call_id = change["toolCallId"]
                self.diffs.tool_call_changed(
                    session_id, call_id, state.peek_tool_call(call_id) or {}
                )
            elif kind == "subagents":
                self.lineage.subagents_changed(change["subagents"])
                if not rich:
                    self.markers.changed(state, change)
            elif not rich and kind in ("entry", "message"):
                self.markers.changed(state, change)
        for observer in self.observers:
            observer(state, changes)

    def _tool_call_changed(
        self, state: SessionView, change: dict[str, Any], fields: dict[str, Any], progress: bool
    ) -> None:
        """Diff previews, and what editors without the stream show of a tool call."""
        session_id, call_id = state.session_id, change["toolCallId"]
        call = state.peek_tool_call(call_id) or {}
        if "content" in fields:
            self.diffs.tool_call_changed(session_id, call_id, call)
        if self.channel.features.has(proto.FEATURE_STREAM):
            return
        if progress:
            self._index_terminals(session_id, call_id, fields)
            if {"status", "title"} & set(fields) or change.get("unset"):
                self.progress.update(session_id, call_id, call)
        elif "status" in fields:  # no progress either: a line in its log
            title = tool_call.tool_call_title(call)
            self.channel.log_message(f"acp-editor: {title} ({fields['status']})")

    def _index_terminals(self, session_id: str, call_id: str, fields: dict[str, Any]) -> None:
        self._terminal_calls.setdefault((session_id, call_id), call_id)  # v1 _meta without ids
        content = fields.get("content")
        for item in content if isinstance(content, list) else []:
            if isinstance(item, dict) and isinstance(item.get("terminalId"), str):
                self._terminal_calls[(session_id, item["terminalId"])] = call_id

    def _send_changes(self, session_id: str, changes: list[dict[str, Any]]) -> None:
        agent, cwd = self._origins.get(session_id, ("default", None))
        params = {"sessionId": session_id, "agent": agent, "changes": changes}
        parent = self.lineage.parent_of(session_id)
        if parent is not None:
            params["parentSessionId"] = parent
            # The parent's record of the child (its subagents change) goes first: an editor
            # never meets a child it cannot place.
            self.coalescer.flush(parent)
        worktree = self.worktree_of(session_id, cwd)
        if worktree is not None:
            params["worktree"] = worktree
        self.channel.notify(proto.ACP_SESSION_CHANGED, params)

    def file_accessed(self, kind: str, path: str, session_id: str) -> None:
        self.follow.offer(Jump(session_id, path, None, kind))

    # -- questions ------------------------------------------------------------------------------

    async def request_permission(
        self,
        session_id: str,
        tool_call: dict[str, Any],
        options: list[dict[str, Any]],
        words: dict[str, str] | None = None,
    ) -> str | None:
        self.coalescer.flush(session_id)
        return await self.questions.permission(session_id, tool_call, options, words)

    async def choose_auth_method(
        self, methods: list[dict[str, Any]], agent: str = "default"
    ) -> str | None:
        return await self.questions.auth_method(methods, agent)

    async def sign_in_terminal(self, request: TerminalSignIn) -> int | None:
        return await self.questions.sign_in_terminal(request)

    def auth_status(self, agent: str, status: dict[str, Any]) -> None:
        known = self.statuses.get(agent)
        if known is not None:
            known.set_auth(status)

    async def elicit(self, question: dict[str, Any]) -> dict[str, Any] | None:
        session_id = question.get("sessionId")
        if isinstance(session_id, str):
            self.coalescer.flush(session_id)
        return await self.elicitation.ask(question)

    def elicitation_completed(self, elicitation_id: str) -> None:
        self.elicitation.completed(elicitation_id)

    # -- terminals, review and the agent ---------------------------------------------------------

    def terminal_output(self, session_id: str, terminal_id: str, text: str) -> None:
        self.terminals.output(session_id, terminal_id, text)
        call_id = self._terminal_calls.get((session_id, terminal_id))
        features = self.channel.features
        if call_id and features.work_done_progress and not features.has(proto.FEATURE_STREAM):
            lines = [line for line in text.splitlines() if line.strip()]
            if lines:
                self.progress.output(session_id, call_id, lines[-1])

    def terminal_exited(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self.terminals.exited(session_id, terminal_id, status)

    def review_changed(self, event: ReviewEvent) -> None:
        if event.kind == "found":
            if event.tool_call_id is not None:  # shown under its tool call
                self.diffs.found_on_disk(
                    event.session_id, event.tool_call_id, event.path, event.before, event.after
                )
        elif event.kind == "notice":
            self.notice(event.message)
        elif event.kind == "hunks" and event.hunks and event.restored:  # shown, not followed
            self.review.changed(event.hunks)
        elif event.kind == "hunks" and event.hunks:
            self.coalescer.flush_all()
            self.review.changed(event.hunks)
            self._follow_change(event.hunks)
        elif event.kind == "groups" and event.groups:
            self.review.groups.changed(event.groups)

    def _follow_change(self, hunks: list[ReviewHunk]) -> None:
        """Follow the agent to the first line of a new change, whoever wrote it (a write
        through us was followed to the file when the agent asked; this puts the agent's
        cursor on the line it changed, not on the file's first line)."""
        new = [h for h in hunks if h.hunk_id not in self._followed and h.state == "pending"]
        self._followed.update(h.hunk_id for h in new)
        # A plain editor may hold the file in a buffer we are not told about (window/showDocument
        # opened it), stale by the line the write added: Neovim fails a selection past its end.
        # The plugins clamp to the buffer; plain editors get changes found on disk only.
        lines_safe = self.channel.features.has(proto.FEATURE_FOLLOW)
        shown = [h for h in new if h.file_change != "deleted" and (h.found_on_disk or lines_safe)]
        if shown:
            first = shown[0]
            line = first.hint + 1  # the hunk's first line in the new text, 1-based as in ACP
            self.follow.offer(
                Jump(first.session_id, first.path, line, "change", first.tool_call_id)
            )

    def agent_exited(
        self, agent: str, returncode: int | None, stderr_tail: str, expected: bool
    ) -> None:
        self.coalescer.flush_all()
        status = self.statuses.get(agent)
        if status is not None:
            status.exited(returncode, stderr_tail, expected)
        if not expected and not self.channel.features.has(proto.FEATURE_STREAM):
            tail = "\n".join(stderr_tail.splitlines()[-8:])
            self.channel.show_message(
                f"The agent {agent} exited unexpectedly (exit status {returncode})."
                + (f"\n{tail}" if tail else "")
                + "\nThe next prompt starts it again.",
                lsp.MessageType.Error,
            )

    def notice(self, message: str) -> None:
        # window/showMessage: every LSP editor shows it (VS Code and the Neovim plugin too) and
        # none waits for an answer.
        self.channel.show_message(f"acp-editor: {message}", lsp.MessageType.Warning)
