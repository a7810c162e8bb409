-- `@` and `/` completion in the chat's prompt with Neovim's own completion menu: no completion
-- plugin needed.
--
-- As in Neovim's own LSP completion, each keystroke in Insert mode (TextChangedI, and
-- TextChangedP while the menu is open) looks at the word before the cursor; for an `@`-mention it
-- asks the sidecar (`acp/findFiles`) and shows the answer with `complete()` when it comes, if the
-- word is still the one asked about (an answer to an older keystroke is dropped). An answer with
-- `complete: false` (the workspace is still being listed) is asked again a moment later even if
-- nothing is typed. Items carry `equal = 1`: the sidecar ranks and filters (file names containing
-- the query, not only starting with it), so Neovim must not filter them again. Choosing a file
-- (<C-n>/<C-p> then <C-y> or typing on) attaches it. `<C-x><C-o>` asks by hand (the omnifunc).

local sources = require("acp_editor.complete.sources")

local M = {
  ---@type integer the newest file request; older answers are dropped
  seq = 0,
  ---@type string? the word of the file just chosen: not asked about again
  chosen = nil,
  ---@type table<integer, boolean> buffers whose menu a completion plugin draws instead
  plugin = {},
}

M.RETRY_MS = 150
M.RETRIES = 40

local function file_items(files)
  local items = {}
  for _, f in ipairs(files) do
    table.insert(items, {
      word = "@" .. f.path,
      abbr = f.path,
      menu = f.open and "[buffer]" or "",
      equal = 1,
      dup = 1,
      user_data = { acp_editor = { file = f } },
    })
  end
  return items
end

local function command_items(query)
  local items = {}
  for _, c in ipairs(sources.commands(query)) do
    local info = c.description .. (c.hint and ("\n\ninput: " .. c.hint) or "")
    table.insert(items, {
      word = "/" .. c.name,
      menu = sources.short(c.description, 48),
      info = info ~= "" and info or nil,
      equal = 1,
      user_data = { acp_editor = { command = c.name } },
    })
  end
  return items
end

local function show(ctx, items)
  if vim.fn.mode() ~= "i" then
    return
  end
  if #items > 0 or vim.fn.pumvisible() == 1 then
    vim.fn.complete(ctx.start + 1, items)
  end
end

local function same(a, b)
  return a and b and a.kind == b.kind and a.start == b.start and a.query == b.query
end

--- Ask for the files of `ctx` and show them if the cursor still has the same word.
local function ask_files(buf, ctx, tries)
  M.seq = M.seq + 1
  local seq = M.seq
  sources.files(ctx.query, function(files, complete)
    if seq ~= M.seq or vim.api.nvim_get_current_buf() ~= buf or not same(ctx, sources.at_cursor()) then
      return
    end
    show(ctx, file_items(files))
    if not complete and tries < M.RETRIES then
      vim.defer_fn(function()
        if seq == M.seq and vim.fn.mode() == "i" and same(ctx, sources.at_cursor()) then
          ask_files(buf, ctx, tries + 1)
        end
      end, M.RETRY_MS)
    end
  end)
end

--- What a keystroke in `buf` asks for.
---@param buf integer
function M.on_change(buf)
  if M.plugin[buf] or vim.api.nvim_get_current_buf() ~= buf then
    return
  end
  if vim.fn.pumvisible() == 1 and vim.fn.complete_info({ "selected" }).selected ~= -1 then
    return -- the user is choosing in the menu
  end
  if require("acp_editor.chat.history").recalled(buf) then
    return -- an earlier prompt put back by ↑/↓, not typed: ↑ goes on through the history
  end
  local ctx = sources.at_cursor()
  if not ctx then
    return
  end
  if ctx.kind == "command" then
    return show(ctx, command_items(ctx.query))
  end
  if M.chosen and "@" .. ctx.query == M.chosen then
    return -- the file just chosen: its word stays as it is
  end
  M.chosen = nil
  ask_files(buf, ctx, 0)
end

--- The menu closed: a chosen file is attached (not when the menu was dismissed with <C-e>,
--- which puts the typed word back).
function M.on_done()
  local item = vim.v.completed_item
  local data = type(item) == "table" and type(item.user_data) == "table" and item.user_data.acp_editor
  if type(data) ~= "table" or type(data.file) ~= "table" then
    return
  end
  if not vim.api.nvim_get_current_line():find(item.word, 1, true) then
    return
  end
  M.chosen = item.word
  sources.on_file(data.file)
end

--- omnifunc of the prompt buffer (<C-x><C-o>): commands at once; files when the sidecar answers.
---@param findstart integer 1: where the word starts; 0: its matches
---@param base string
---@return integer|table[]
function M.omnifunc(findstart, base)
  local ctx = sources.at_cursor()
  if findstart == 1 then
    return ctx and ctx.start or -3
  end
  if not ctx then
    return {}
  end
  if ctx.kind == "command" then
    return command_items(base:sub(2))
  end
  local buf = vim.api.nvim_get_current_buf()
  vim.schedule(function()
    ask_files(buf, ctx, 0)
  end)
  return {}
end

--- Complete `@` and `/` in `buf` (the prompt buffer).
---@param buf integer
function M.attach(buf)
  vim.bo[buf].omnifunc = "v:lua.require'acp_editor.complete.builtin'.omnifunc"
  -- noselect: typing goes on into the query, and <CR> stays a new line until an item is chosen.
  vim.bo[buf].completeopt = "menuone,noselect,popup"
  local group = vim.api.nvim_create_augroup("acp_editor_complete_" .. buf, { clear = true })
  vim.api.nvim_create_autocmd({ "TextChangedI", "TextChangedP" }, {
    group = group,
    buffer = buf,
    callback = function()
      M.on_change(buf)
    end,
  })
  vim.api.nvim_create_autocmd("CompleteDone", { group = group, buffer = buf, callback = M.on_done })
end

return M
