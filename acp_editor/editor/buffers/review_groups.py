"""Groups of bulk changes in the editor (``review.groups``): one item per burst of files.

A rich editor gets them in ``acp/reviewChanged`` (``groups``) and lists their files on demand;
a plain one is told once per group with ``window/showMessage`` (no modal question: the user
decides when they like) and finds "Accept" and "Reject" among the code actions of any file
while a group is pending. No diagnostics, previews or follow jumps per file: that burst of
messages is what groups are for.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from acp_editor.errors import InvalidParams
from acp_editor.protocol import editor as proto

ANNOUNCE_AFTER_S = 0.5
"""A plain editor is told of a group once it has not grown for this long."""

if TYPE_CHECKING:
    from acp_editor.editor.agent_port import AgentSlot
    from acp_editor.editor.lsp.channel import EditorChannel
    from acp_editor.review.groups import ReviewGroup


class EditorGroups:
    def __init__(self, channel: EditorChannel, slot: AgentSlot) -> None:
        self.channel = channel
        self.slot = slot
        self._announced: set[str] = set()
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def all(self) -> list[ReviewGroup]:
        view = self.slot.review_view()
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
        for group in groups:
            if group.state == "pending" and group.group_id not in self._announced:
                # Told once, when the burst has settled: a live look finds a burst while its
                # command still writes, and the count would be out of date at once.
                timer = self._timers.pop(group.group_id, None)
                if timer is not None:
                    timer.cancel()
                self._timers[group.group_id] = asyncio.get_running_loop().call_later(
                    ANNOUNCE_AFTER_S, self._announce, group
                )

    def _announce(self, group: ReviewGroup) -> None:
        self._timers.pop(group.group_id, None)
        if group.state != "pending" or group.group_id in self._announced:
            return
        self._announced.add(group.group_id)
        self.channel.show_message(
            f"acp-editor: {group.title} wait for review as one group ({group.group_id}): "
            f"accept or reject them with a code action in any file, or the commands "
            f"{proto.CMD_ACCEPT_GROUP} and {proto.CMD_REJECT_GROUP} with {group.group_id}"
        )

    def code_actions(self) -> list[lsp.CodeAction]:
        """The pending groups' decisions, offered in every file (a group has no line of its
        own to put them on)."""
        actions = []
        for group in self.pending():
            for title, command in (
                (f"Accept {group.title}", proto.CMD_ACCEPT_GROUP),
                (f"Reject {group.title} (put them back)", proto.CMD_REJECT_GROUP),
            ):
                actions.append(
                    lsp.CodeAction(
                        title=title,
                        kind=lsp.CodeActionKind.QuickFix,
                        command=lsp.Command(
                            title=title, command=command, arguments=[group.group_id]
                        ),
                    )
                )
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
