-- The prompt's `@` files and `/` commands as an nvim-cmp source (`acp_editor`), registered and
-- added to the prompt buffer's sources when nvim-cmp is installed. Items replace the whole
-- `@query` (a textEdit); every answer is incomplete, so nvim-cmp asks again as the query grows.

-- luacheck: ignore 212/self (the interface is methods; most ignore their object)

local sources = require("acp_editor.complete.sources")

local source = {}
source.__index = source

function source.new()
  return setmetatable({}, source)
end

function source:is_available()
  return vim.b.acp_editor_prompt == true
end

function source:get_debug_name()
  return "acp_editor"
end

function source:get_trigger_characters()
  return { "@", "/" }
end

--- The word nvim-cmp filters with: the whole mention, `@` or `/` included.
function source:get_keyword_pattern()
  return [[\%(^/\|@\)\S*]]
end

function source:complete(params, callback)
  local ctx = params.context
  local row, col = ctx.cursor.row, #ctx.cursor_before_line
  sources.lsp_complete(ctx.cursor_line, row, col, function(items)
    callback({ items = items, isIncomplete = true })
  end)
end

--- A file chosen in the menu is attached.
function source:execute(item, callback)
  sources.chosen(item)
  callback(item)
end

local M = { source = source }

--- Register the source (once) and add it to `buf`'s sources, before the user's own.
---@param buf integer
function M.attach(buf)
  local cmp = require("cmp")
  if not M.registered then
    cmp.register_source("acp_editor", source.new())
    M.registered = true
  end
  local others = vim.tbl_filter(function(s)
    return s.name ~= "acp_editor"
  end, (cmp.get_config() or {}).sources or {})
  vim.api.nvim_buf_call(buf, function()
    cmp.setup.buffer({ sources = vim.list_extend({ { name = "acp_editor" } }, others) })
  end)
end

--- Whether nvim-cmp's menu is open (↑/↓ then move in it).
---@return boolean
function M.visible()
  local ok, cmp = pcall(require, "cmp")
  return ok and cmp.visible() or false
end

return M
