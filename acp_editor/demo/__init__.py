"""The terminal demo: ``acp-editor demo`` runs an agent (the built-in demo agent of
``acp_editor.demo_agent`` unless one is given) in a throw-away workspace and prints what an
editor would be told."""
