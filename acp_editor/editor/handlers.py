"""Every message the editor can send us, registered on the server.

Handlers validate their params (bad ones are answered with -32602 naming the field), hand the
work to the ``EditorLink``, and translate the sidecar's errors into JSON-RPC errors with their
codes, so every request gets an answer, never silence.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from acp_editor.editor.features import ClientFeatures
from acp_editor.editor.link import AgentUnavailable
from acp_editor.editor.server import AcpLanguageServer  # runtime: pygls reads the hints
from acp_editor.errors import InvalidParams, RpcError
from acp_editor.log import get_logger
from acp_editor.protocol import editor as proto
from acp_editor.services.permissions import parse_setting

log = get_logger("editor.handlers")
R = TypeVar("R")


def answers_errors(
    handler: Callable[..., Awaitable[R]],
) -> Callable[..., Awaitable[R]]:
    """Turn our ``RpcError``s into pygls's, keeping their code and message."""

    @functools.wraps(handler)
    async def wrapper(*args: Any) -> R:
        try:
            return await handler(*args)
        except RpcError as exc:
            raise JsonRpcException(exc.message, code=exc.code, data=exc.data) from exc

    return wrapper


def params_obj(params: Any) -> dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise InvalidParams(f"params must be an object, got {type(params).__name__}")
    return params


def opt_str(params: dict[str, Any], name: str) -> str | None:
    value = params.get(name)
    if value is not None and not isinstance(value, str):
        raise InvalidParams(f"params.{name} must be a string")
    return value


def req_str(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidParams(f"params.{name} must be a non-empty string")
    return value


def prompt_blocks(prompt: Any) -> list[dict[str, Any]]:
    if isinstance(prompt, str):
        return [{"type": "text", "text": prompt}]
    if (
        isinstance(prompt, list)
        and prompt
        and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in prompt)
    ):
        return prompt
    raise InvalidParams("prompt must be a string or a non-empty list of content blocks")


def register(server: AcpLanguageServer) -> None:
    link = server.link

    @server.feature(lsp.INITIALIZE)
    def on_initialize(ls: AcpLanguageServer, params: lsp.InitializeParams) -> None:
        ls.features = ClientFeatures.from_initialize(params)
        link.frontend.follow.set_enabled(ls.features.follow_default)
        agent = link.options.agent  # editor settings win over the command line
        if ls.features.review_mode is not None:
            agent.review_mode = ls.features.review_mode  # type: ignore[assignment]
        if ls.features.tell_agent_rejections is not None:
            agent.tell_agent_rejections = ls.features.tell_agent_rejections
        for text in ls.features.auto_approve or []:
            try:
                agent.auto_approve.append(parse_setting(text))
            except ValueError as exc:
                log.warning("ignoring the autoApprove setting %r: %s", text, exc)

    @server.feature(lsp.INITIALIZED)
    def on_initialized(ls: AcpLanguageServer, params: lsp.InitializedParams) -> None:
        ls.initialized = True
        ls.background(_warm_up(ls))

    @server.feature(lsp.SHUTDOWN)
    async def on_shutdown(ls: AcpLanguageServer, params: Any) -> None:
        await link.close()
        ls.cancel_background()

    # -- zero-plugin commands -------------------------------------------------------------------

    @server.command(proto.CMD_PROMPT)
    @answers_errors
    async def cmd_prompt(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams("acp.prompt takes one argument: the prompt text")
        return await link.prompt(prompt_blocks(args[0]))

    @server.command(proto.CMD_CANCEL)
    @answers_errors
    async def cmd_cancel(ls: AcpLanguageServer, *args: Any) -> dict[str, Any] | None:
        sid = await link.cancel()
        return {"sessionId": sid} if sid else None

    @server.command(proto.CMD_NEW_SESSION)
    @answers_errors
    async def cmd_new_session(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return {"sessionId": await link.new_session()}

    @server.command(proto.CMD_SET_MODE)
    @answers_errors
    async def cmd_set_mode(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams("acp.setMode takes one argument: the mode id")
        sid = await link.session_id()
        assert link.client is not None
        await link.client.set_mode(sid, args[0])
        return {"sessionId": sid, "modeId": args[0]}

    @server.command(proto.CMD_FOLLOW)
    @answers_errors
    async def cmd_follow(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        follow = link.frontend.follow
        if len(args) == 1 and isinstance(args[0], bool):
            follow.set_enabled(args[0])
        elif not args:
            follow.set_enabled(not follow.enabled)
        else:
            raise InvalidParams("acp.follow takes no argument (toggle) or true/false")
        return {"follow": follow.enabled}

    @server.command(proto.CMD_STATUS)
    @answers_errors
    async def cmd_status(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        sessions = list(link.client.sessions) if link.client is not None else []
        return {**link.status, "sessions": sessions, "follow": link.frontend.follow.enabled}

    # -- review ---------------------------------------------------------------------------------

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    def code_actions(ls: AcpLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return link.review.code_actions(params)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: AcpLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        link.review.text_changed(params.text_document.uri)

    def one_string(args: tuple[Any, ...], what: str) -> str:
        if len(args) != 1 or not isinstance(args[0], str):
            raise InvalidParams(f"this command takes one argument: {what}")
        return args[0]

    @server.command(proto.CMD_ACCEPT_HUNK)
    @answers_errors
    async def cmd_accept_hunk(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(True, hunk_ids=[one_string(args, "the hunk id")])

    @server.command(proto.CMD_REJECT_HUNK)
    @answers_errors
    async def cmd_reject_hunk(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(False, hunk_ids=[one_string(args, "the hunk id")])

    @server.command(proto.CMD_ACCEPT_FILE)
    @answers_errors
    async def cmd_accept_file(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(True, uri=one_string(args, "the file URI"))

    @server.command(proto.CMD_REJECT_FILE)
    @answers_errors
    async def cmd_reject_file(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(False, uri=one_string(args, "the file URI"))

    @server.command(proto.CMD_ACCEPT_ALL)
    @answers_errors
    async def cmd_accept_all(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(True, everything=True)

    @server.command(proto.CMD_REJECT_ALL)
    @answers_errors
    async def cmd_reject_all(ls: AcpLanguageServer, *args: Any) -> dict[str, Any]:
        return await link.review.decide(False, everything=True)

    @server.feature(proto.ACP_REVIEW_DECIDE)
    @answers_errors
    async def review_decide(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        p = params_obj(params)
        decision = p.get("decision")
        if decision not in ("accept", "reject"):
            raise InvalidParams('params.decision must be "accept" or "reject"')
        ids = p.get("hunkIds")
        if ids is not None and not (isinstance(ids, list) and all(isinstance(i, str) for i in ids)):
            raise InvalidParams("params.hunkIds must be a list of strings")
        everything = p.get("all", False)
        if not isinstance(everything, bool):
            raise InvalidParams("params.all must be a boolean")
        return await link.review.decide(
            decision == "accept",
            hunk_ids=ids,
            uri=opt_str(p, "uri"),
            tool_call_id=opt_str(p, "toolCallId"),
            everything=everything,
        )

    # -- rich requests --------------------------------------------------------------------------

    @server.feature(proto.ACP_NEW_SESSION)
    @answers_errors
    async def new_session(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        sid = await link.new_session(opt_str(params_obj(params), "cwd"))
        # Changes still buffered are part of the snapshot: send them first, or an editor that
        # applies them on top of the snapshot would apply them twice.
        link.frontend.coalescer.flush(sid)
        return {"sessionId": sid, "snapshot": link.snapshot(sid)["sessions"][0]}

    @server.feature(proto.ACP_PROMPT)
    @answers_errors
    async def prompt(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        p = params_obj(params)
        blocks = prompt_blocks(p.get("prompt"))
        return await link.prompt(blocks, opt_str(p, "sessionId"))

    @server.feature(proto.ACP_CANCEL)
    @answers_errors
    async def cancel(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        sid = req_str(params_obj(params), "sessionId")
        await link.session_id(sid)
        await link.cancel(sid)
        return {}

    @server.feature(proto.ACP_SNAPSHOT)
    @answers_errors
    async def snapshot(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        link.frontend.coalescer.flush_all()  # nothing in flight is left out of the picture
        return link.snapshot(opt_str(params_obj(params), "sessionId"))

    @server.feature(proto.ACP_SET_MODE)
    @answers_errors
    async def set_mode(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        p = params_obj(params)
        sid = await link.session_id(req_str(p, "sessionId"))
        assert link.client is not None
        await link.client.set_mode(sid, req_str(p, "modeId"))
        return {}

    @server.feature(proto.ACP_SET_CONFIG_OPTION)
    @answers_errors
    async def set_config_option(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        p = params_obj(params)
        value = p.get("value")
        if not isinstance(value, str | bool):
            raise InvalidParams("params.value must be a string or a boolean")
        sid = await link.session_id(req_str(p, "sessionId"))
        assert link.client is not None
        await link.client.set_config_option(sid, req_str(p, "configId"), value)
        return {}

    @server.feature(proto.ACP_LIST_SESSIONS)
    @answers_errors
    async def list_sessions(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        cwd = opt_str(params_obj(params), "cwd")
        client = await link.ensure_client()
        if not client.supports("session/list"):
            raise AgentUnavailable("the agent does not support listing sessions")
        return await client.list_sessions(cwd)

    @server.feature(proto.ACP_LOAD_SESSION)
    @answers_errors
    async def load_session(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        p = params_obj(params)
        sid = await link.load_session(req_str(p, "sessionId"), opt_str(p, "cwd"))
        link.frontend.coalescer.flush(sid)  # as for acp/newSession
        return {"sessionId": sid, "snapshot": link.snapshot(sid)["sessions"][0]}

    @server.feature(proto.ACP_SET_FOLLOW)
    @answers_errors
    async def set_follow(ls: AcpLanguageServer, params: Any) -> dict[str, Any]:
        enabled = params_obj(params).get("enabled")
        if not isinstance(enabled, bool):
            raise InvalidParams("params.enabled must be a boolean")
        link.frontend.follow.set_enabled(enabled)
        return {"enabled": enabled}


async def _warm_up(ls: AcpLanguageServer) -> None:
    """Start the agent as soon as the editor is ready, so the first prompt does not wait."""
    try:
        await ls.link.ensure_client()
    except RpcError as exc:
        log.error("%s", exc.message)
        if not ls.features.has(proto.FEATURE_STREAM):
            ls.show_message(f"acp-editor: {exc.message}", lsp.MessageType.Error)
