"""What the editor asks, by surface: LSP lifecycle and workspace folders (``lifecycle``), the
zero-plugin commands (``commands``), rich ``acp/...`` requests (``rich``), review decisions
(``review_handlers``), and deleting, forking and signing out of sessions (``session_admin``)."""
