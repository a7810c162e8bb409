-- Temporary, not a module of its own: tests/nvim/test_plugin_mirror.py still requires the session
-- mirror by its old name while that file is being changed elsewhere. Delete this file once the
-- test requires "acp_editor.session.reducer".
return require("acp_editor.session.reducer")
