"""The editor link: acp-editor as the editor's language server (pygls)."""
