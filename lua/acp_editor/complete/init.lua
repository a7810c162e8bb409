-- Completion in the chat's prompt: `@` files and `/` commands (acp_editor.complete.sources).
-- With nvim-cmp or blink.cmp installed, their menu draws them (a source of ours, loaded only
-- then); otherwise Neovim's own menu does (acp_editor.complete.builtin).

local builtin = require("acp_editor.complete.builtin")

local M = {}

local plugins = { cmp = "acp_editor.complete.cmp", ["blink.cmp"] = "acp_editor.complete.blink" }

--- The completion plugins installed (loading them if they load lazily).
local function installed()
  local found = {}
  for plugin, ours in pairs(plugins) do
    if package.loaded[plugin] or pcall(require, plugin) then
      found[plugin] = require(ours)
    end
  end
  return found
end

--- Complete in `buf` (the prompt buffer).
---@param buf integer
function M.attach(buf)
  builtin.attach(buf)
  for _, ours in pairs(installed()) do
    ours.attach(buf)
    builtin.plugin[buf] = true -- one menu at a time: theirs
  end
end

--- Whether a completion menu is open in the current buffer (↑/↓ then move in it).
---@return boolean
function M.menu_visible()
  if vim.fn.pumvisible() == 1 then
    return true
  end
  for plugin, ours in pairs(plugins) do
    if package.loaded[plugin] and require(ours).visible() then
      return true
    end
  end
  return false
end

return M
