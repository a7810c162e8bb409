"""Review from the editor: code actions and commands on every LSP editor, ``acp/reviewDecide``
for rich ones, a file opened (its pending hunks shown on it), the user's typing, which moves
pending hunks' diagnostics along (and tells the documents that the editor reported a change,
which an edit may be waiting for), and the user's saves (not the agent's changes). The commands'
arguments are checked against the types docs/protocol.md gives them (``proto.arguments``);
``acp.acceptAll`` and ``acp.rejectAll`` take none and ignore any given, as they always did."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from acp_editor.editor.lsp.handling import plain, register_commands, register_requests
from acp_editor.protocol import editor as proto

if TYPE_CHECKING:
    from acp_editor.editor.buffers.review import EditorReview


class ReviewHandlers:
    def __init__(
        self, review: EditorReview, reported: Callable[[str], None] = lambda _uri: None
    ) -> None:
        self.review = review
        self.reported = reported

    def register(self, server: LanguageServer) -> None:
        server.feature(
            lsp.TEXT_DOCUMENT_CODE_ACTION,
            lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
        )(plain(self.code_actions))
        server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(plain(self.did_open))
        server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(plain(self.did_change))
        server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)(plain(self.did_save))
        register_commands(
            server,
            {
                proto.CMD_ACCEPT_HUNK: self.accept_hunk,
                proto.CMD_REJECT_HUNK: self.reject_hunk,
                proto.CMD_ACCEPT_FILE: self.accept_file,
                proto.CMD_REJECT_FILE: self.reject_file,
                proto.CMD_ACCEPT_ALL: self.accept_all,
                proto.CMD_REJECT_ALL: self.reject_all,
                proto.CMD_ACCEPT_GROUP: self.accept_group,
                proto.CMD_REJECT_GROUP: self.reject_group,
                proto.CMD_GROUP_FILES: self.group_files,
                proto.CMD_TAKE_AGENT_VERSION: self.take_agent_version,
                proto.CMD_KEEP_MINE: self.keep_mine,
            },
        )
        register_requests(
            server,
            {proto.ACP_REVIEW_DECIDE: self.decide, proto.ACP_REVIEW_GROUP_FILES: self.files},
        )

    def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return self.review.code_actions(params)

    def did_open(self, params: lsp.DidOpenTextDocumentParams) -> None:
        self.review.opened(params.text_document.uri)

    def did_change(self, params: lsp.DidChangeTextDocumentParams) -> None:
        self.reported(params.text_document.uri)
        self.review.text_changed(params.text_document.uri)

    def did_save(self, params: lsp.DidSaveTextDocumentParams) -> None:
        self.review.saved(params.text_document.uri)

    async def accept_hunk(self, *args: Any) -> dict[str, Any]:
        hunk = proto.arguments(proto.ACCEPT_HUNK_COMMAND, args)["hunkId"]
        return await self.review.decide(True, hunk_ids=[hunk])

    async def reject_hunk(self, *args: Any) -> dict[str, Any]:
        hunk = proto.arguments(proto.REJECT_HUNK_COMMAND, args)["hunkId"]
        return await self.review.decide(False, hunk_ids=[hunk])

    async def accept_file(self, *args: Any) -> dict[str, Any]:
        uri = proto.arguments(proto.ACCEPT_FILE_COMMAND, args)["uri"]
        return await self.review.decide(True, uri=uri)

    async def reject_file(self, *args: Any) -> dict[str, Any]:
        uri = proto.arguments(proto.REJECT_FILE_COMMAND, args)["uri"]
        return await self.review.decide(False, uri=uri)

    async def accept_all(self, *args: Any) -> dict[str, Any]:
        return await self.review.decide(True, everything=True)

    async def reject_all(self, *args: Any) -> dict[str, Any]:
        return await self.review.decide(False, everything=True)

    async def accept_group(self, *args: Any) -> dict[str, Any]:
        a = proto.arguments(proto.ACCEPT_GROUP_COMMAND, args, GROUP_IDS)
        return await self.review.decide(True, group_ids=[a["groupId"], *a.get("moreGroupIds", [])])

    async def reject_group(self, *args: Any) -> dict[str, Any]:
        a = proto.arguments(proto.REJECT_GROUP_COMMAND, args, GROUP_IDS)
        return await self.review.decide(False, group_ids=[a["groupId"], *a.get("moreGroupIds", [])])

    async def group_files(self, *args: Any) -> dict[str, Any]:
        return self.review.groups.files(proto.arguments(proto.GROUP_FILES_COMMAND, args)["groupId"])

    async def files(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.REVIEW_GROUP_FILES, params)
        return self.review.groups.files(p["groupId"])

    async def take_agent_version(self, *args: Any) -> dict[str, Any]:
        return await self.review.take_theirs(
            proto.arguments(proto.TAKE_AGENT_VERSION_COMMAND, args)["uri"]
        )

    async def keep_mine(self, *args: Any) -> dict[str, Any]:
        return self.review.keep_mine(proto.arguments(proto.KEEP_MINE_COMMAND, args)["uri"])

    async def decide(self, params: object) -> dict[str, Any]:
        p = proto.parse(proto.REVIEW_DECIDE, params)
        return await self.review.decide(
            p["decision"] == "accept",
            hunk_ids=p.get("hunkIds"),
            group_ids=p.get("groupIds"),
            uri=p.get("uri"),
            tool_call_id=p.get("toolCallId"),
            everything=p.get("all", False),
        )


GROUP_IDS = ("groupId", "moreGroupIds")
"""One group or several (a turn's groups, decided as one: the "all" code action); a blank id names
none."""
