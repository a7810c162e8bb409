"""acp-editor: an ACP client that is your editor's language server."""

__version__ = "0.1.0"
