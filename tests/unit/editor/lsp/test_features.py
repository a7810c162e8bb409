"""What the editor declared in ``initialize``: each standard fallback only where its capabilities
say so, each rich feature only when listed (and known), and ``initializationOptions.acp`` read
field by field, a value of the wrong type being no value."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp

from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.protocol import editor as proto


def initialize(
    options: Any = None, capabilities: lsp.ClientCapabilities | None = None
) -> ClientFeatures:
    params = lsp.InitializeParams(
        capabilities=capabilities or lsp.ClientCapabilities(), initialization_options=options
    )
    return ClientFeatures.from_initialize(params)


def test_a_bare_editor_gets_no_fallback_and_no_rich_feature() -> None:
    features = initialize()
    assert features == ClientFeatures()
    assert not features.has(proto.FEATURE_REVIEW)
    assert features.follow_default is True and features.review_mode is None


def test_fallbacks_follow_the_capabilities() -> None:
    capabilities = lsp.ClientCapabilities(
        window=lsp.WindowClientCapabilities(
            work_done_progress=True,
            show_document=lsp.ShowDocumentClientCapabilities(support=True),
            show_message=lsp.ShowMessageRequestClientCapabilities(
                message_action_item=lsp.ClientShowMessageActionItemOptions(
                    additional_properties_support=True
                )
            ),
        ),
        workspace=lsp.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=lsp.WorkspaceEditClientCapabilities(document_changes=True),
        ),
    )
    features = initialize(capabilities=capabilities)
    assert features.work_done_progress and features.show_document
    assert features.message_actions_with_properties
    assert features.apply_edit and features.document_changes
    unsupported = lsp.WindowClientCapabilities(
        show_document=lsp.ShowDocumentClientCapabilities(support=False)
    )
    assert not initialize(capabilities=lsp.ClientCapabilities(window=unsupported)).show_document


def test_deleting_a_file_needs_document_changes_with_the_delete_operation() -> None:
    def deletes(document_changes: bool, *kinds: lsp.ResourceOperationKind) -> bool:
        edit = lsp.WorkspaceEditClientCapabilities(
            document_changes=document_changes, resource_operations=list(kinds) or None
        )
        workspace = lsp.WorkspaceClientCapabilities(apply_edit=True, workspace_edit=edit)
        return initialize(capabilities=lsp.ClientCapabilities(workspace=workspace)).delete_file

    kinds = lsp.ResourceOperationKind
    assert deletes(True, kinds.Create, kinds.Delete)  # VS Code
    assert not deletes(False, kinds.Create, kinds.Delete)  # Neovim 0.11's recorded ones
    assert not deletes(True)  # Emacs's eglot
    assert not deletes(True, kinds.Create, kinds.Rename)


def test_the_acp_options_are_read_field_by_field() -> None:
    options = {
        "acp": {
            "features": [proto.FEATURE_STREAM, proto.FEATURE_REVIEW, "teleport"],
            "savesAfterApply": True,
            "follow": False,
            "mode": "plan",
            "review": "before-write",
            "autoApprove": ["read", 3, "edit"],
            "tellAgentRejections": False,
            "editorContext": True,
            "mcpServers": [{"name": "docs"}],
        }
    }
    features = initialize(options)
    assert features.rich == {proto.FEATURE_STREAM, proto.FEATURE_REVIEW}  # unknown: dropped
    assert features.saves_after_apply and not features.follow_default
    assert (features.mode, features.review_mode) == ("plan", "before-write")
    assert features.auto_approve == ["read", "edit"]
    assert (features.tell_agent_rejections, features.editor_context) == (False, True)
    assert features.mcp_servers == [{"name": "docs"}]


def test_values_of_the_wrong_type_are_no_values() -> None:
    options = {
        "acp": {
            "features": "review",
            "savesAfterApply": "yes",
            "mode": 1,
            "review": "sometimes",
            "autoApprove": "read",
            "tellAgentRejections": "no",
            "mcpServers": {"name": "docs"},
        }
    }
    assert initialize(options) == ClientFeatures()
    assert initialize({"acp": "review"}) == initialize(["acp"]) == ClientFeatures()
