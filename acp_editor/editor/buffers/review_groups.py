"""Groups of bulk changes in the editor (``review.queue.groups``): one item per burst of files.

A rich editor gets them in ``acp/reviewChanged`` (``groups``) and lists their files on demand;
a plain one is told once per turn with one ``window/showMessage`` for all the groups the turn
made (no modal question: the user decides when they like) and finds "Accept" and "Reject"
among the code actions of any file while a group is pending. No diagnostics, previews or follow
jumps per file, and no message per group: that burst of popups is what groups are for.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto

ANNOUNCE_AFTER_S = 0.5
"""Groups found while no turn of theirs runs (kept by an earlier run, brought back from a
worktree) are told once none has grown for this long."""
IDS_SHOWN = 50
"""Group ids a message names at most (each group's code actions name it too)."""
EACH_AT_MOST = 3
"""Up to this many pending groups, each one's own actions are offered in every file."""
ACCEPT, REJECT = proto.CMD_ACCEPT_GROUP, proto.CMD_REJECT_GROUP

if TYPE_CHECKING:
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.queue.groups import ReviewGroup
    from acp_editor.review.view import ReviewView


class EditorGroups:
    def __init__(
        self,
        channel: EditorChannel,
        slot: AgentSlot,
        review_view: Callable[[], ReviewView | None],
    ) -> None:
        self.channel = channel
        self.slot = slot
        self.review_view = review_view
        self._told: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None

    def all(self) -> list[ReviewGroup]:
        view = self.review_view()
        return view.groups() if view is not None else []

    def pending(self) -> list[ReviewGroup]:
        return [g for g in self.all() if g.state == "pending"]

    def views(self) -> list[dict[str, Any]]:
        return [g.view() for g in self.all()]

    def changed(self, groups: list[ReviewGroup]) -> None:
        """Groups appeared, grew or were decided."""
        if self.channel.features.has(proto.FEATURE_REVIEW):
            self.channel.notify(
                proto.ACP_REVIEW_CHANGED, {"hunks": [], "groups": [g.view() for g in groups]}
            )
            return
        if any(g.state == "pending" and g.group_id not in self._told for g in groups):
            # Told when the burst has settled: a live look finds a burst while its command
            # still writes, and the count would be out of date at once.
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(ANNOUNCE_AFTER_S, self._settled)

    def turn_ended(self, session_id: str) -> None:
        """A turn is over, its groups all found (review looked before it ended): one message
        for them all."""
        self._tell()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _settled(self) -> None:
        self._timer = None
        self._tell()

    def _tell(self) -> None:
        """One message for every pending group not told yet, except those of a session whose
        turn still runs: its end tells them, so a turn is one message however many groups
        its commands made."""
        untold = [
            g for g in self.pending() if g.group_id not in self._told and not self._running(g)
        ]
        if not untold:
            return
        self._told.update(g.group_id for g in untold)
        self.channel.show_message(told_groups(untold))

    def _running(self, group: ReviewGroup) -> bool:
        """Whether a turn that may still add to the group runs: the agent's, or review's look
        at its end (the agent has said the turn ended, its last files are still being found:
        told then, the message counted 19,112 of a command's 20,000 deleted files)."""
        view = self.review_view()
        for session_id in group.sessions or [group.session_id]:
            if view is not None and view.looking(session_id):
                return True
            state = self.slot.session_state(session_id)
            run_state = state.run_state() if state is not None else None
            if run_state is not None and run_state.get("state") in ("running", "requires_action"):
                return True
        return False

    def code_actions(self, path: str | None = None) -> list[lsp.CodeAction]:
        """The pending groups' decisions, offered in every file (a group has no line of its
        own to put them on): all of them at once when there are several, and each group's
        own when there are few; of many (a command that wrote 40 folders: 80 actions), only
        those of the groups ``path`` is in."""
        pending = self.pending()
        actions = []
        if len(pending) > 1:
            ids = [g.group_id for g in pending]
            files = sum(len(g.files) for g in pending)
            actions += [
                _action(f"Accept all {len(pending)} groups ({files:,} files)", ACCEPT, ids),
                _action(f"Reject all {len(pending)} groups (put them back)", REJECT, ids),
            ]
        few = len(pending) <= EACH_AT_MOST
        for group in pending:
            if few or (path is not None and _within(path, group.folder)):
                actions += [
                    _action(f"Accept {group.title}", ACCEPT, [group.group_id]),
                    _action(f"Reject {group.title} (put them back)", REJECT, [group.group_id]),
                ]
        return actions

    def named(self, group_ids: list[str]) -> list[ReviewGroup]:
        groups = {g.group_id: g for g in self.all()}
        unknown = [i for i in group_ids if i not in groups]
        if unknown:
            raise InvalidParams(f"unknown group ids: {', '.join(sorted(unknown))}")
        return [groups[i] for i in group_ids]

    def chosen(
        self, group_ids: list[str] | None, tool_call_id: str | None, everything: bool
    ) -> list[ReviewGroup]:
        """The groups a decision is about: named, of a tool call, or every pending one."""
        if group_ids is not None:
            return self.named(group_ids)
        if everything:
            return self.pending()
        if tool_call_id is not None:
            return [g for g in self.pending() if g.tool_call_id == tool_call_id]
        return []

    def files(self, group_id: str) -> dict[str, Any]:
        (group,) = self.named([group_id])
        return {"groupId": group.group_id, "files": group.file_views()}


def told_groups(groups: list[ReviewGroup]) -> str:
    """The one message of a turn's groups: how many files in how many groups, how to accept or
    reject them all, how to list them."""
    if len(groups) == 1:
        (group,) = groups
        return (
            f"acp-editor: {group.title} wait for review as one group ({group.group_id}): "
            f"accept or reject them with a code action in any file, or the commands "
            f"{proto.CMD_ACCEPT_GROUP} and {proto.CMD_REJECT_GROUP} with {group.group_id}; "
            f"list them with {proto.CMD_GROUP_FILES} {group.group_id}"
        )
    files = sum(len(g.files) for g in groups)
    named = ", ".join(g.title for g in groups[:2])
    more = f" and {len(groups) - 2} more" if len(groups) > 2 else ""
    ids = " ".join(g.group_id for g in groups[:IDS_SHOWN])
    if len(groups) > IDS_SHOWN:
        ids += f" … ({len(groups) - IDS_SHOWN} more in the code actions)"
    return (
        f"acp-editor: {files:,} files in {len(groups)} groups wait for review ({named}{more}): "
        f"accept or reject them all with the code action “Accept all …” or “Reject all …” in "
        f"any file, or the commands {proto.CMD_ACCEPT_GROUP} and {proto.CMD_REJECT_GROUP} with "
        f"their ids; list a group's files with {proto.CMD_GROUP_FILES} and its id. "
        f"Ids: {ids}"
    )


def _action(title: str, command: str, group_ids: list[str]) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=lsp.CodeActionKind.QuickFix,
        command=lsp.Command(title=title, command=command, arguments=group_ids),
    )


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
