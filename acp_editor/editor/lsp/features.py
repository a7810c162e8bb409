"""What the connected editor can do, read once from ``initialize``.

Each standard LSP fallback is used only when the client's capabilities say it is supported, and
each rich ``acp/...`` feature only when the client declared it in ``initializationOptions``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types as lsp

from acp_editor.protocol import editor as proto


@dataclass
class ClientFeatures:
    rich: set[str] = field(default_factory=set)
    """Declared ``acp/...`` features (``protocol.editor.FEATURES``)."""
    saves_after_apply: bool = False
    follow_default: bool = True
    show_document: bool = False
    message_actions_with_properties: bool = False
    work_done_progress: bool = False
    apply_edit: bool = False
    document_changes: bool = False
    delete_file: bool = False
    """``workspace/applyEdit`` takes a ``DeleteFile`` resource operation (``documentChanges``
    with ``resourceOperations`` naming ``delete``)."""
    mode: str | None = None
    """initializationOptions.acp.mode: the session mode new sessions start in."""
    review_mode: str | None = None
    """From initializationOptions.acp.review; None: the server's own setting."""
    tell_agent_rejections: bool | None = None
    auto_approve: list[str] | None = None
    """initializationOptions.acp.autoApprove: rules as for ``--auto-approve``."""
    editor_context: bool | None = None
    """initializationOptions.acp.editorContext: False turns the editor-context server off."""
    mcp_servers: list[Any] | None = None
    """initializationOptions.acp.mcpServers: the user's own, checked by
    ``agent.calls.mcp_servers``."""
    agents: dict[str, Any] | None = None
    """initializationOptions.acp.agents: more agents by id, checked as presets are."""

    def has(self, feature: str) -> bool:
        return feature in self.rich

    @classmethod
    def from_initialize(cls, params: lsp.InitializeParams) -> ClientFeatures:
        caps = params.capabilities
        window = caps.window
        workspace = caps.workspace
        message_request = window.show_message if window else None
        action_item = message_request.message_action_item if message_request else None
        options = _acp_options(params.initialization_options)
        features = options.get("features")
        return cls(
            rich={f for f in features if f in proto.FEATURES}
            if isinstance(features, list)
            else set(),
            saves_after_apply=options.get("savesAfterApply") is True,
            follow_default=options.get("follow") is not False,
            show_document=bool(window and window.show_document and window.show_document.support),
            message_actions_with_properties=bool(
                action_item and action_item.additional_properties_support
            ),
            work_done_progress=bool(window and window.work_done_progress),
            apply_edit=bool(workspace and workspace.apply_edit),
            document_changes=bool(
                workspace and workspace.workspace_edit and workspace.workspace_edit.document_changes
            ),
            delete_file=_deletes_files(workspace),
            mode=options["mode"] if isinstance(options.get("mode"), str) else None,
            review_mode=options["review"] if options.get("review") in proto.REVIEW_MODES else None,
            auto_approve=(
                [r for r in options["autoApprove"] if isinstance(r, str)]
                if isinstance(options.get("autoApprove"), list)
                else None
            ),
            tell_agent_rejections=_flag(options, "tellAgentRejections"),
            editor_context=_flag(options, "editorContext"),
            mcp_servers=options["mcpServers"]
            if isinstance(options.get("mcpServers"), list)
            else None,
            agents=options["agents"] if isinstance(options.get("agents"), dict) else None,
        )


def _deletes_files(workspace: lsp.WorkspaceClientCapabilities | None) -> bool:
    edit = workspace.workspace_edit if workspace else None
    kinds = (edit.resource_operations or []) if edit else []
    return bool(edit and edit.document_changes and lsp.ResourceOperationKind.Delete in kinds)


def _flag(options: dict[str, Any], name: str) -> bool | None:
    value = options.get(name)
    return value if isinstance(value, bool) else None


def _list(options: dict[str, Any], name: str) -> list[Any] | None:
    value = options.get(name)
    return value if isinstance(value, list) else None


def _acp_options(options: Any) -> dict[str, Any]:
    if isinstance(options, dict) and isinstance(options.get("acp"), dict):
        return dict(options["acp"])
    return {}
