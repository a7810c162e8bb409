-- luacheck (scripts/lua-lint runs it over lua/, plugin/, build.lua, tests/nvim/lua/ and
-- tests/nvim/spec/).
-- Neovim runs LuaJIT.
std = "luajit"
-- Neovim's API. The plugin also writes to it (vim.g.loaded_acp_editor, vim.bo[buf].modifiable),
-- so it is a global that may be set, not a read-only one.
globals = { "vim" }
max_line_length = 120
-- The files stylua skips too (.styluaignore): generated Lua is kept right by its generator.
exclude_files = { "**/*generated*", "**/*_names.lua" }
