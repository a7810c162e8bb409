-- The prompt's `@` files and `/` commands as a blink.cmp source provider (`acp_editor`), added
-- for the prompt buffer's filetype when blink.cmp is installed (and enabled only in the prompt
-- buffer). blink.cmp loads it with `require("acp_editor.complete.blink").new()`.

-- luacheck: ignore 212/self (the interface is methods; most ignore their object)

local sources = require("acp_editor.complete.sources")

local source = {}
source.__index = source

function source.new()
  return setmetatable({}, source)
end

function source:enabled()
  return vim.b.acp_editor_prompt == true
end

function source:get_trigger_characters()
  return { "@", "/" }
end

function source:get_completions(ctx, callback)
  local row, col = ctx.cursor[1], ctx.cursor[2]
  sources.lsp_complete(ctx.line, row, col, function(items)
    -- Asked again at every keystroke: the sidecar ranks the files, not blink's fuzzy filter.
    callback({ items = items, is_incomplete_forward = true, is_incomplete_backward = true })
  end)
end

--- A file chosen in the menu is attached.
function source:execute(_, item, callback, default_implementation)
  default_implementation()
  sources.chosen(item)
  callback()
end

local M = { new = source.new, source = source }

--- Add the provider (once) and enable it for `buf`'s filetype.
---@param buf integer
function M.attach(buf)
  local blink = require("blink.cmp")
  if not M.registered then
    blink.add_source_provider("acp_editor", { name = "acp-editor", module = "acp_editor.complete.blink" })
    M.registered = true
  end
  blink.add_filetype_source(vim.bo[buf].filetype, "acp_editor")
end

--- Whether blink.cmp's menu is open (↑/↓ then move in it).
---@return boolean
function M.visible()
  local ok, blink = pcall(require, "blink.cmp")
  return ok and blink.is_menu_visible() or false
end

return M
