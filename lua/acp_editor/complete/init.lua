-- Completion in the chat's prompt: `@` files and `/` commands (acp_editor.complete.sources),
-- drawn by Neovim's own menu (acp_editor.complete.builtin).

local M = {}

--- Complete in `buf` (the prompt buffer).
---@param buf integer
function M.attach(buf)
  require("acp_editor.complete.builtin").attach(buf)
end

return M
